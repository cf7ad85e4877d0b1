import AtprotoLexicons
import Foundation
import Jetstream
import XCTest

// @unchecked Sendable: `count` is read and written under `lock`.
/// A transport that refuses every connection and counts the attempts.
final class CountingRefusingTransport: XRPCWebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var attempts: Int { lock.withLock { count } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        lock.withLock { count += 1 }
        throw XRPCWebSocketError(.cannotConnect, message: "refused by the test")
    }
}

/// Filters and parameters are refused before connecting; v1 events decode into types.
final class JetstreamFilterTests: XCTestCase {
    private let service = URL(string: "https://jetstream.example.com")!

    private func refusal(
        _ filter: JetstreamFilter, _ version: JetstreamEndpoint, extra: [URLQueryItem] = []
    ) -> JetstreamError? {
        let transport = CountingRefusingTransport()
        let client = JetstreamClient(
            service: service, version: version, transport: transport, extraQueryItems: extra)
        defer { XCTAssertEqual(transport.attempts, 0, "nothing may connect") }
        do {
            _ = try client.subscribe(filter)
            return nil
        } catch {
            return error
        }
    }

    func testFiltersOverTheirLimitsOrMalformedAreRefusedBeforeConnecting() {
        let tooManyCollections = (0...100).map { "com.example.c\($0)" }
        let error = refusal(JetstreamFilter(collections: tooManyCollections), .v2)
        XCTAssertEqual(error?.code, .invalidFilter)
        XCTAssertEqual(error?.parameter, "collections")
        XCTAssertNil(
            refusal(JetstreamFilter(collections: Array(tooManyCollections.prefix(100)) + ["com.example.c0"]), .v2))
        let dids = (0...10_000).map { DID(rawValue: "did:plc:a\($0)") }
        XCTAssertEqual(refusal(JetstreamFilter(dids: dids), .v1)?.parameter, "wantedDids")
        XCTAssertNil(refusal(JetstreamFilter(dids: Array(dids.prefix(10_000))), .v1))
        XCTAssertEqual(refusal(JetstreamFilter(dids: ["handle.test"]), .v2)?.parameter, "dids[0]")
        XCTAssertEqual(
            refusal(JetstreamFilter(collections: ["app.bsky.feed.post", "not an nsid"]), .v2)?.parameter,
            "collections[1]")
        XCTAssertEqual(refusal(JetstreamFilter(collections: ["app.*"]), .v2)?.code, .invalidFilter)
        XCTAssertNil(refusal(JetstreamFilter(collections: ["app.*"]), .v1), "v1 does not check a prefix")
        XCTAssertNil(refusal(JetstreamFilter(collections: ["app.bsky.*"]), .v2))
        XCTAssertEqual(
            refusal(JetstreamFilter(collections: ["app.bsky.feed.post"], kinds: [.identity]), .v2)?.parameter,
            "collections")
        XCTAssertEqual(refusal(JetstreamFilter(maximumMessageSize: -1), .v2)?.parameter, "maxMessageSizeBytes")
    }

    func testAParameterOfTheOtherVersionOrZstdIsRefusedBeforeConnecting() {
        let kindsOnV1 = refusal(JetstreamFilter(kinds: [.commit]), .v1)
        XCTAssertEqual(kindsOnV1?.code, .wrongEndpoint)
        XCTAssertEqual(kindsOnV1?.parameter, "kinds")
        for name in ["wantedCollections", "wantedDids", "requireHello"] {
            let error = refusal(.all, .v2, extra: [URLQueryItem(name: name, value: "x")])
            XCTAssertEqual(error?.code, .wrongEndpoint, name)
            XCTAssertEqual(error?.parameter, name)
        }
        for name in ["collections", "dids", "kinds"] {
            XCTAssertEqual(
                refusal(.all, .v1, extra: [URLQueryItem(name: name, value: "x")])?.code, .wrongEndpoint, name)
        }
        XCTAssertEqual(refusal(.all, .v1, extra: [URLQueryItem(name: "compress", value: "true")])?.code, .unsupported)
        XCTAssertEqual(
            refusal(.all, .v2, extra: [URLQueryItem(name: "zstdDictionary", value: "1")])?.code, .unsupported)
        XCTAssertEqual(refusal(.all, .v2, extra: [URLQueryItem(name: "cursor", value: "1")])?.code, .invalidFilter)
    }

    func testTheURLCarriesTheFilterUnderEachVersionsNames() throws {
        let filter = JetstreamFilter(
            collections: ["app.bsky.feed.post", "app.bsky.feed.post"], dids: ["did:plc:abc"], maximumMessageSize: 0)
        let v1 = try JetstreamClient(service: service, version: .v1).subscribe(filter).url
        XCTAssertEqual(
            v1.absoluteString,
            "wss://jetstream.example.com/subscribe?wantedCollections=app.bsky.feed.post&wantedDids=did:plc:abc"
                + "&maxMessageSizeBytes=0")
        var withKinds = filter
        withKinds.kinds = [.commit, .identity]
        let v2 = try JetstreamClient(service: URL(string: "http://127.0.0.1:8080/")!).subscribe(withKinds).url
        XCTAssertEqual(
            v2.absoluteString,
            "ws://127.0.0.1:8080/xrpc/network.bsky.jetstream.subscribeEvents?collections=app.bsky.feed.post"
                + "&dids=did:plc:abc&kinds=commit&kinds=identity&maxMessageSizeBytes=0")
    }
}
