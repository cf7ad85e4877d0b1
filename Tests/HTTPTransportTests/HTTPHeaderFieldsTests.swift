import Foundation
import HTTPTransport
import LoopbackHTTPServer
import XCTest

/// The one header model: fields kept in order with repeated names, names matched without regard to
/// case, and repeated fields carried across the wire by the loopback server and the transport.
final class HTTPHeaderFieldsTests: XCTestCase {
    func testRepeatedNamesAreKeptInOrderAndLookedUpWithoutCase() {
        var fields: HTTPHeaderFields = ["Content-Type": "application/json"]
        fields.append("WWW-Authenticate", "DPoP error=\"use_dpop_nonce\"")
        fields.append("www-authenticate", "Bearer realm=\"pds\"")
        XCTAssertEqual(fields.count, 3)
        XCTAssertEqual(fields["CONTENT-TYPE"], "application/json")
        XCTAssertEqual(fields["WWW-Authenticate"], "DPoP error=\"use_dpop_nonce\"", "the first of two")
        XCTAssertEqual(
            fields.values(for: "Www-Authenticate"), ["DPoP error=\"use_dpop_nonce\"", "Bearer realm=\"pds\""])
        XCTAssertEqual(fields.names, ["Content-Type", "WWW-Authenticate"], "each as first written")
        XCTAssertEqual(fields.joinedByName["WWW-Authenticate"], "DPoP error=\"use_dpop_nonce\", Bearer realm=\"pds\"")

        fields["www-authenticate"] = "Basic"
        XCTAssertEqual(fields.values(for: "WWW-Authenticate"), ["Basic"], "setting replaces every field of the name")
        XCTAssertEqual(fields.map { $0.name }, ["Content-Type", "www-authenticate"], "where the first one was")
        fields["content-type"] = nil
        XCTAssertFalse(fields.contains("Content-Type"))
        XCTAssertEqual(fields, ["WWW-AUTHENTICATE": "Basic"], "equal whatever the names' case")
        XCTAssertNotEqual(fields, ["WWW-Authenticate": "basic"], "values compare exactly")
    }

    func testMergingReplacesEveryFieldOfANameTheOtherHasAndKeepsTheRest() {
        var fields: HTTPHeaderFields = ["Authorization": "Bearer old", "X-Trace": "a"]
        fields.append("authorization", "Bearer older")
        var own: HTTPHeaderFields = ["AUTHORIZATION": "Bearer mine"]
        own.append("Sec-WebSocket-Protocol", "xrpc.v1.json")
        fields.merge(own)
        XCTAssertEqual(
            fields.map { "\($0.name): \($0.value)" },
            ["X-Trace: a", "AUTHORIZATION: Bearer mine", "Sec-WebSocket-Protocol: xrpc.v1.json"])
        fields.merge([:])
        XCTAssertEqual(fields.count, 3, "merging nothing changes nothing")
    }

    func testTheDescriptionShowsNamesOnly() {
        let fields: HTTPHeaderFields = ["Authorization": "Bearer secret", "DPoP": "proof"]
        XCTAssertEqual(fields.description, "[Authorization, DPoP]")
        XCTAssertFalse(
            HTTPTransportRequest(method: "GET", url: URL(fileURLWithPath: "/"), headers: fields)
                .description.contains("secret"))
    }

    func testRepeatedFieldsCrossTheWireBothWays() async throws {
        let server = try LoopbackHTTPServer { request in
            var answer = HTTPHeaderFields()
            for value in request.headers.values(for: "X-Seen") { answer.append("X-Echo", value) }
            answer.append("Set-Cookie", "a=1")
            answer.append("Set-Cookie", "b=2")
            return .init(headers: answer)
        }
        defer { server.stop() }
        var sent = HTTPHeaderFields()
        sent.append("X-Seen", "one")
        sent.append("X-Seen", "two")
        let response = try await URLSessionTransport().send(
            HTTPTransportRequest(method: "GET", url: server.baseURL, headers: sent, timeout: .seconds(10)))
        // URLRequest and URLSession carry one value per name: repeated fields travel joined by commas.
        XCTAssertEqual(response.headers.values(for: "x-echo").joined(separator: ", "), "one, two")
        XCTAssertEqual(response.headers.values(for: "set-cookie").joined(separator: ", "), "a=1, b=2")
    }
}
