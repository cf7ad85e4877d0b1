import XCTest
import XRPCServer

/// `import XRPCServer` is the one import a service takes: this file imports nothing else, so it
/// compiles only while XRPCServer re-exports the identity resolver, DIDs and the XRPC model its
/// signatures use.
final class XRPCServerOneImportTests: XCTestCase {
    func verifier(for service: DID, resolver: any IdentityResolver) -> ServiceAuthVerifier {
        ServiceAuthVerifier(audience: service, resolver: resolver)
    }

    func testAServiceNeedsOneImport() async {
        let router = XRPCRouter()
        let response = await router.respond(to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.none"))
        XCTAssertEqual(response.status, 501, "an endpoint nobody registered is not implemented")
        let nsid: NSID = "com.example.none"
        XCTAssertEqual(nsid.rawValue, "com.example.none")
    }
}
