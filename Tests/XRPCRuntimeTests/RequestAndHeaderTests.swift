import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import AtprotoSyntax
@_spi(Generated) @testable import XRPCCore

/// Requests build spec URLs and never print credentials; error bodies, rate limits, proxying and
/// labeler headers read and write as the XRPC spec says.
final class RequestAndHeaderTests: XCTestCase {
    private struct Params: XRPCParameters {
        var unknownFields: [String: JSONValue]
        init(_ fields: [String: JSONValue]) { unknownFields = fields }
        init(reading reader: inout LexiconObjectReader) throws { unknownFields = reader.remainingFields }
        func write(to writer: inout LexiconObjectWriter) { writer.writeUnknown(unknownFields) }
    }

    func testQueryItemsRepeatArraysAndWriteBooleansAsTrueFalse() throws {
        let params = Params([
            "actors": .array([.string("did:plc:a"), .string("b.test")]), "includePins": .bool(true),
            "hidden": .bool(false), "limit": .integer(50),
        ])
        let request = XRPCRequest(method: .get, nsid: "app.bsky.actor.getProfiles", queryItems: params.queryItems)
        let url = try XCTUnwrap(request.url(on: XCTUnwrap(URL(string: "https://bsky.social/"))))
        XCTAssertEqual(
            url.absoluteString,
            "https://bsky.social/xrpc/app.bsky.actor.getProfiles?actors=did%3Aplc%3Aa&actors=b.test"
                + "&hidden=false&includePins=true&limit=50")
    }

    func testQueryValuesEncodePlusAmpersandSpaceAndUnicode() throws {
        let request = XRPCRequest(
            method: .get, nsid: "a.b.c",
            queryItems: [
                URLQueryItem(name: "q", value: "a+b & c=d é"),
                URLQueryItem(name: "since", value: "2024-01-01T00:00:00+01:00"),
            ])
        let url = try XCTUnwrap(request.url(on: XCTUnwrap(URL(string: "http://127.0.0.1:2583/base"))))
        XCTAssertEqual(
            url.absoluteString,
            "http://127.0.0.1:2583/base/xrpc/a.b.c?q=a%2Bb%20%26%20c%3Dd%20%C3%A9&since=2024-01-01T00%3A00%3A00%2B01%3A00"
        )
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        XCTAssertEqual(components.queryItems?.first?.value, "a+b & c=d é")
    }

    func testRequestDescriptionsNeverShowCredentialsOrBody() {
        let secret = "eyJFAKE.SECRET-TOKEN-9f8e7d"
        var request = XRPCRequest(
            method: .post, nsid: "com.atproto.repo.createRecord",
            headers: ["Authorization": "Bearer \(secret)", "DPoP": secret, "atproto-proxy": "did:web:x#y"],
            body: Data("{\"password\":\"\(secret)\"}".utf8), contentType: "application/json")
        request.setHeader("cookie", secret)
        for text in [request.description, request.debugDescription, String(reflecting: request), dumped(request)] {
            XCTAssertFalse(text.contains(secret), text)
            XCTAssertFalse(text.contains("SECRET"), text)
        }
        XCTAssertTrue(request.description.contains("atproto-proxy: did:web:x#y"), request.description)
        XCTAssertTrue(request.description.contains("Authorization: <redacted>"), request.description)
    }

    func testErrorBodiesThatAreNotXRPCErrorsKeepStatusAndASnippet() {
        let html = XRPCResponse(
            status: 502, headers: ["Content-Type": "text/html"],
            body: Data(("<html><body>Bad gateway\n" + String(repeating: "x", count: 500)).utf8))
        let error = XRPCError.fromResponse(html, nsid: "app.bsky.feed.getTimeline")
        XCTAssertEqual(error.status, 502)
        XCTAssertNil(error.name)
        XCTAssertTrue(
            error.description.hasPrefix("app.bsky.feed.getTimeline failed with status 502"), error.description)
        XCTAssertTrue(error.description.contains("text/html"), error.description)
        XCTAssertTrue(error.description.contains("<html><body>Bad gateway x"), error.description)
        XCTAssertTrue(error.description.hasSuffix("..."), "a long body is cut")

        let truncated = XRPCError.fromResponse(
            XRPCResponse(status: 400, body: Data(#"{"error":"InvalidReq"#.utf8)), nsid: "a.b.c")
        XCTAssertNil(truncated.name)
        XCTAssertEqual(truncated.message, #"unreadable error body (20 bytes): {"error":"InvalidReq"#)

        let notAnObject = XRPCError.fromResponse(XRPCResponse(status: 500, body: Data(#""""#.utf8)), nsid: "a.b.c")
        XCTAssertEqual(notAnObject.message, #"unreadable error body (2 bytes): """#)

        let proper = XRPCError.fromResponse(
            XRPCResponse(status: 400, body: Data(#"{"error":"InvalidSwap","message":"Record was at bafy"}"#.utf8)),
            nsid: "com.atproto.repo.putRecord")
        XCTAssertEqual(proper.name, "InvalidSwap")
        XCTAssertEqual(
            proper.description, "com.atproto.repo.putRecord failed with status 400: InvalidSwap - Record was at bafy")
    }

    func testRateLimitAndRetryAfterHeadersAreReadable() throws {
        let response = XRPCResponse(
            status: 429,
            headers: [
                "RateLimit-Limit": "3000", "RateLimit-Remaining": "0", "RateLimit-Reset": "1700000300",
                "RateLimit-Policy": "3000;w=300", "Retry-After": "120",
            ])
        let limit = try XCTUnwrap(response.rateLimit)
        XCTAssertEqual(limit.limit, 3000)
        XCTAssertEqual(limit.remaining, 0)
        XCTAssertEqual(limit.reset, Date(timeIntervalSince1970: 1_700_000_300))
        XCTAssertEqual(limit.policy, "3000;w=300")
        XCTAssertEqual(response.retryAfter, .seconds(120))
        let error = XRPCError.fromResponse(response, nsid: "a.b.c")
        XCTAssertEqual(error.rateLimit, limit)
        XCTAssertEqual(error.retryAfter, .seconds(120))
        XCTAssertNil(XRPCResponse(status: 200).rateLimit)

        let date = try XCTUnwrap(XRPCRetryAfter(headerValue: "Sun, 06 Nov 1994 08:49:37 GMT"))
        XCTAssertEqual(date, .date(Date(timeIntervalSince1970: 784_111_777)))
        XCTAssertEqual(date.delay(from: Date(timeIntervalSince1970: 784_111_767)), .seconds(10))
        XCTAssertEqual(date.delay(from: Date(timeIntervalSince1970: 784_111_999)), .zero)
        XCTAssertEqual(
            XRPCRetryAfter(headerValue: "Tue, 29 Feb 2028 23:59:60 GMT"),
            .date(Date(timeIntervalSince1970: 1_835_481_600)))
        XCTAssertNil(XRPCRetryAfter(headerValue: "soon"))
        XCTAssertNil(XRPCRetryAfter(headerValue: "-5"))
        XCTAssertNil(XRPCRetryAfter(headerValue: "Sun, 06 Nov 1994 08:49:37 CET"))
    }

    func testProxyHeaderIsValidatedAndSetPerClient() throws {
        let client = XRPCClient(agent: StubAgent(json: "{}"), headers: ["Atproto-Proxy": "old"])
        let proxied = try client.proxied(to: DID(rawValue: "did:web:labeler.example.com"), service: "#atproto_labeler")
        XCTAssertEqual(proxied.headers, ["atproto-proxy": "did:web:labeler.example.com#atproto_labeler"])
        XCTAssertEqual(client.proxied(to: .bskyChat).headers["atproto-proxy"], "did:web:api.bsky.chat#bsky_chat")
        XCTAssertEqual(proxied.unproxied().headers, [:])
        XCTAssertThrowsError(try client.proxied(to: DID(rawValue: "plc:abc"), service: "x")) { error in
            XCTAssertTrue("\(error)".contains("invalid did"), "\(error)")
        }
        XCTAssertThrowsError(try AtprotoProxy(did: DID(rawValue: "did:plc:abc"), serviceID: ""))
        XCTAssertThrowsError(try AtprotoProxy(did: DID(rawValue: "did:plc:abc"), serviceID: "a b"))
        XCTAssertThrowsError(try AtprotoProxy(headerValue: "did:plc:abc"))
        XCTAssertEqual(try AtprotoProxy(headerValue: "did:plc:abc#bsky_appview").serviceID, "bsky_appview")
    }

    func testLabelerHeadersGoOutPerClientAndComeBackParsed() async throws {
        let agent = StubAgent { _ in
            XRPCResponse(
                status: 200,
                headers: [
                    "Content-Type": "application/json", "Atproto-Content-Labelers": "did:plc:a;redact, did:plc:b, bad",
                ],
                body: Data("{}".utf8))
        }
        let client = XRPCClient(agent: agent).acceptingLabelers([
            LabelerPreference(did: "did:plc:a", redact: true), LabelerPreference(did: "did:plc:b"),
        ])
        let result = try await client.queryResult(TestQuery.self, parameters: XRPCNoParameters())
        XCTAssertEqual(agent.requests.first?.header("atproto-accept-labelers"), "did:plc:a;redact, did:plc:b")
        XCTAssertEqual(
            result.response.contentLabelers,
            [LabelerPreference(did: "did:plc:a", redact: true), LabelerPreference(did: "did:plc:b")])
        XCTAssertNil(client.acceptingLabelers([]).headers["atproto-accept-labelers"])
    }
}

/// A query with no parameters and a raw output, for client tests.
enum TestQuery: XRPCQuery {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = XRPCRawBody
    static var nsid: NSID { "com.example.test" }
}

/// What `dump` prints for `value`.
func dumped(_ value: some Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}
