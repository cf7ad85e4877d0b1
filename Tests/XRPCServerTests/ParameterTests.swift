import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons
import XRPCTesting

/// Query parameters: decoded as the lexicon types them, the inverse of the client's encoding, and
/// every bad one refused with 400 naming it.
final class ParameterTests: XCTestCase {
    let router = TestRouter.make()

    /// The handler's view of the parameters (its `items`), or the error.
    func items(_ query: String) async throws -> [String] {
        let response = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: query))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        return try TestRouter.items(response)
    }

    func refusal(_ query: String) async throws -> String {
        let response = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: query))
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 400, query)
        XCTAssertEqual(name, "InvalidRequest", query)
        return message ?? ""
    }

    func testTypesFollowTheLexicon() async throws {
        let shown = try await items(
            "feed=at://did:plc:a/app.bsky.feed.generator/r&limit=7&tags=a&tags=b&reverse=true&cursor=12")
        XCTAssertEqual(
            shown,
            ["feed=at://did:plc:a/app.bsky.feed.generator/r", "limit=7", "tags=a,b", "reverse=true", "cursor=12"])
    }

    func testTheLexiconDefaultIsFilledIn() async throws {
        let shown = try await items("feed=at://did:plc:a/app.bsky.feed.generator/r")
        XCTAssertEqual(shown[1], "limit=50")
    }

    func testPercentEncodingAndPlusAreDecoded() async throws {
        let shown = try await items("feed=at%3A%2F%2Fdid%3Aplc%3Aa%2Fapp.bsky.feed.generator%2Fr&cursor=a+b%2Bc%26d")
        XCTAssertEqual(shown[0], "feed=at://did:plc:a/app.bsky.feed.generator/r")
        XCTAssertEqual(shown[4], "cursor=a b+c&d")
    }

    func testWhatTheClientSendsIsWhatTheHandlerGets() async throws {
        // The client's own encoding (XRPCRequest.url(on:)) into the router, through a stub agent.
        let router = self.router
        let agent = StubAgent { request in
            let url = try XCTUnwrap(request.url(on: URL(string: "https://service.example")!))
            let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
            let answer = await router.respond(
                to: XRPCServerRequest(
                    method: request.method.rawValue, path: components.percentEncodedPath,
                    query: components.percentEncodedQuery ?? "", headers: request.headers, body: request.body ?? Data())
            )
            return XRPCResponse(status: answer.status, headers: answer.headers, body: answer.body)
        }
        let parameters = ComExampleTestGetItems.Parameters(
            feed: "at://did:plc:a/app.bsky.feed.generator/r", cursor: "a/b?c#d", limit: 100, reverse: false,
            tags: ["x&y", "é+ =%"])
        let output = try await XRPCClient(agent: agent).query(ComExampleTestGetItems.self, parameters: parameters)
        XCTAssertEqual(
            output.items,
            [
                "feed=at://did:plc:a/app.bsky.feed.generator/r", "limit=100", "tags=x&y,é+ =%", "reverse=false",
                "cursor=a/b?c#d",
            ])
    }

    func testAMissingRequiredParameterIsNamed() async throws {
        let message = try await refusal("limit=5")
        XCTAssertTrue(message.hasPrefix("feed:"), message)
    }

    func testANonIntegerIsNamed() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&limit=ten")
        XCTAssertEqual(message, #"limit: "ten" is not an integer"#)
    }

    func testARangeViolationIsNamed() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&limit=500")
        XCTAssertTrue(message.hasPrefix("limit:"), message)
        XCTAssertTrue(message.contains("100"), message)
    }

    func testABadBooleanIsNamed() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&reverse=yes")
        XCTAssertEqual(message, #"reverse: "yes" is not true or false"#)
    }

    func testABadFormatIsNamed() async throws {
        let message = try await refusal("feed=not-a-uri")
        XCTAssertTrue(message.hasPrefix("feed:"), message)
    }

    func testAnArrayElementBreakingItsRuleIsNamedWithItsIndex() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&tags=ok&tags=much-too-long-tag")
        XCTAssertTrue(message.hasPrefix("tags[1]:"), message)
    }

    func testAScalarGivenTwiceIsRefused() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&limit=1&limit=2")
        XCTAssertEqual(message, "limit: given 2 times; it takes one value")
    }

    func testBrokenPercentEncodingIsRefused() async throws {
        let message = try await refusal("feed=at://did:plc:a/app.bsky.feed.generator/r&cursor=%zz")
        XCTAssertTrue(message.contains("cursor"), message)
    }

    func testTooManyParametersAreRefused() async throws {
        let query = (0..<101).map { "x\($0)=1" }.joined(separator: "&")
        let message = try await refusal(query)
        XCTAssertTrue(message.contains("more than 100"), message)
    }

    func testValidationCanBeTurnedOff() async throws {
        let router = TestRouter.make(configuration: .init(validatesRequests: false))
        let response = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: "feed=x&limit=500"))
        XCTAssertEqual(response.status, 200)
    }
}
