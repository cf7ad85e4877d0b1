import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons

/// The shapes of requests the router's fast paths read by hand: query strings split byte by byte,
/// names sent once or repeated, methods in any case, plain routes beside XRPC ones, and the dots and
/// base64url of a service-auth token.
final class RequestShapeTests: XCTestCase {
    let router = TestRouter.make()
    static let feed = "feed=at://did:plc:a/app.bsky.feed.generator/r"

    func items(_ query: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [String] {
        let response = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: query))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        return try TestRouter.items(response)
    }

    func refusal(_ query: String) async throws -> String {
        let response = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: query))
        let (status, _, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 400, query)
        return message ?? ""
    }

    func testEmptyPiecesAreSkippedAndAValueKeepsItsEqualsSigns() async throws {
        let shown = try await items("&&" + Self.feed + "&&cursor=a=b=&limit=3&")
        XCTAssertEqual(
            shown, ["feed=at://did:plc:a/app.bsky.feed.generator/r", "limit=3", "tags=", "reverse=nil", "cursor=a=b="])
    }

    func testANameWithoutEqualsHasAnEmptyValue() async throws {
        let message = try await refusal(Self.feed + "&reverse")
        XCTAssertEqual(message, #"reverse: "" is not true or false"#)
    }

    func testBrokenPercentEncodingNamesTheParameterOrItsName() async throws {
        let value = try await refusal(Self.feed + "&cursor=%zz")
        XCTAssertEqual(value, #"the value of parameter "cursor" has a "%" not followed by two hex digits"#)
        let name = try await refusal(Self.feed + "&%zz=1")
        XCTAssertEqual(name, #"a parameter name has a "%" not followed by two hex digits"#)
        let notUTF8 = try await refusal(Self.feed + "&cursor=%FF")
        XCTAssertEqual(notUTF8, #"the value of parameter "cursor" is not UTF-8 once percent-decoded"#)
    }

    func testAnArrayGivenOnceIsAnArrayOfOne() async throws {
        let shown = try await items(Self.feed + "&tags=solo")
        XCTAssertEqual(shown[2], "tags=solo")
    }

    func testManyNamesWithRepeatsAreGrouped() async throws {
        // Past eight pairs names are grouped through a dictionary; below, compared pairwise.
        let others = (0..<9).map { "x\($0)=1" }.joined(separator: "&")
        let shown = try await items(Self.feed + "&tags=a&" + others + "&tags=b&limit=4")
        XCTAssertEqual(shown[1], "limit=4")
        XCTAssertEqual(shown[2], "tags=a,b")
        let twice = try await refusal(Self.feed + "&limit=1&" + others + "&limit=2")
        XCTAssertEqual(twice, "limit: given 2 times; it takes one value")
        let distinct = try await items(Self.feed + "&" + others + "&limit=9")
        XCTAssertEqual(distinct[1], "limit=9")
    }

    func testAMethodInLowerCaseIsServed() async throws {
        let response = await router.respond(
            to: XRPCServerRequest(method: "get", path: "/xrpc/com.example.test.getItems", query: Self.feed))
        XCTAssertEqual(response.status, 200)
        let post = await router.respond(
            to: XRPCServerRequest(method: "post", path: "/xrpc/com.example.test.getItems", query: Self.feed))
        XCTAssertEqual(post.status, 405)
    }

    func testAPlainRouteUnderXRPCComesFirstAndOthersLeaveXRPCAlone() async throws {
        var router = TestRouter.make()
        router.route("GET", "/health") { _ in XRPCServerResponse(status: 204) }
        let served = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: Self.feed))
        XCTAssertEqual(served.status, 200)
        let health = await router.respond(to: XRPCServerRequest(method: "HEAD", path: "/health"))
        XCTAssertEqual(health.status, 204)
        router.route("get", "/xrpc/com.example.test.getItems") { _ in XRPCServerResponse(status: 299) }
        let plain = await router.respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.getItems", query: Self.feed))
        XCTAssertEqual(plain.status, 299)
    }

    func testATokenNeedsExactlyTwoDotsAndBase64URL() async throws {
        let fixture = try AuthFixture()
        let good = fixture.token()
        let parts = good.split(separator: ".").map(String.init)
        let verifier = fixture.verifier(replayCache: nil)
        let shapes = "the token is not a JWT: expected 3 dot-separated parts"
        let base64 = "the token is not base64url"
        let cases = [
            ("nodots", shapes), (parts[0] + "." + parts[1], shapes), (good + ".", shapes), (good + ".x", shapes),
            (".." + parts[2], "the token's header is not a JSON object"),
            (parts[0] + "." + parts[1] + "+." + parts[2], base64),
            (parts[0] + "+." + parts[1] + "." + parts[2], base64),
            (parts[0] + "." + parts[1] + "." + parts[2] + "/", base64),
            (parts[0] + "." + parts[1] + "." + parts[2].prefix(4) + "=" + parts[2].dropFirst(4), base64),
        ]
        for (token, message) in cases {
            let error = await fixture.refusal(token, verifier)
            XCTAssertEqual(error?.code, .badJwt, token)
            XCTAssertEqual(error?.message, message, token)
        }
        _ = try await verifier.verify(good, method: AuthFixture.method)
    }
}
