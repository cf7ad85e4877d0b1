import XCTest
import XRPCHummingbird

/// `import XRPCHummingbird` is the one import a service served over HTTP takes: this file imports
/// nothing else, so it compiles only while XRPCHummingbird re-exports XRPCServer (the router it
/// serves, its requests, responses and service auth).
final class HummingbirdOneImportTests: XCTestCase {
    func testTheRouterComesWithTheHTTPServer() async {
        let router = XRPCRouter()
        let response = await router.respond(to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.none"))
        XCTAssertEqual(response.status, 501)
    }
}
