import AtprotoLexicons
import Foundation
import XCTest

@testable import Jetstream

/// Both Jetstream endpoints of the PDS of the environment (`../shared/pds`, `jetstream.py`), with
/// records written through a `PasswordSession` while the stream runs. Skipped unless
/// `ATPROTO_PDS_URL`, `ATPROTO_PDS_HANDLE` and `ATPROTO_PDS_PASSWORD` are set.
final class JetstreamIntegrationTests: XCTestCase {
    private struct Fixture {
        var url: URL
        var session: PasswordSession
        var did: DID
        var client: XRPCClient { XRPCClient(agent: session) }
    }

    private func fixture() async throws -> Fixture {
        let variables = ProcessInfo.processInfo.environment
        guard let text = variables["ATPROTO_PDS_URL"], let url = URL(string: text),
            let handle = variables["ATPROTO_PDS_HANDLE"], let password = variables["ATPROTO_PDS_PASSWORD"]
        else {
            throw XCTSkip("set ATPROTO_PDS_URL, _HANDLE and _PASSWORD (eval \"$(scripts/pds.sh start)\")")
        }
        let session = PasswordSession(service: url)
        let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
        return Fixture(url: url, session: session, did: archive.did)
    }

    /// Writes a post and a record of a collection the SDK does not know; returns their rkeys.
    private func write(_ fixture: Fixture, tag: String) async throws -> (post: String, other: String) {
        let post = AppBskyFeedPost(
            text: "jetstream \(tag)", createdAt: LexiconDatetime(rawValue: "2026-01-01T00:00:00.000Z"))
        let repo = ATIdentifier(rawValue: fixture.did.rawValue)
        let made = try await fixture.client.com.atproto.repo.createRecord(
            repo: repo, collection: "app.bsky.feed.post", record: LexiconUnknownValue(encoding: post))
        let other = try await fixture.client.com.atproto.repo.createRecord(
            repo: repo, collection: "com.example.jetstream.thing",
            record: LexiconUnknownValue(
                .object(["$type": .string("com.example.jetstream.thing"), "tag": .string(tag)])))
        return (
            String(made.uri.rawValue.split(separator: "/").last ?? ""),
            String(other.uri.rawValue.split(separator: "/").last ?? "")
        )
    }

    /// Reads from `stream` until `count` events arrived; fails after 60 s.
    private static func take(_ count: Int, from stream: JetstreamStream) async throws -> [JetstreamEvent] {
        try await withThrowingTaskGroup(of: [JetstreamEvent].self) { group in
            group.addTask {
                var events: [JetstreamEvent] = []
                for try await message in stream {
                    if let event = message.event { events.append(event) }
                    if events.count == count { break }
                }
                return events
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                XCTFail("fewer than \(count) events within 60 s")
                return []
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
    }

    /// Now in unix microseconds: a cursor that starts a stream at the first event after it.
    private static func now() -> Int { Int(Date().timeIntervalSince1970 * 1_000_000) }

    private func jetstream(_ fixture: Fixture, _ version: JetstreamEndpoint) -> JetstreamClient {
        JetstreamClient(service: fixture.url, version: version, transport: POSIXWebSocketTransport())
    }

    func testBothEndpointsDeliverTheWritesTypedAndFiltered() async throws {
        let fixture = try await fixture()
        for version in [JetstreamEndpoint.v1, .v2] {
            let filter = JetstreamFilter(
                collections: ["app.bsky.feed.post", "com.example.jetstream.*"], dids: [fixture.did],
                kinds: version == .v2 ? [.commit] : [])
            // Open the stream from now (a time cursor, so a slow connection misses nothing), then
            // write while it runs.
            let stream = try jetstream(fixture, version).subscribe(filter, after: Self.now())
            async let reading = Self.take(2, from: stream)
            let tag = "\(version) \(UUID().uuidString)"
            let keys = try await write(fixture, tag: tag)
            let events = try await reading
            XCTAssertEqual(events.map { $0.commit?.rkey.rawValue }, [keys.post, keys.other], "\(version)")
            let post = events.first?.commit?.record?.as(AppBskyFeedPost.self)
            XCTAssertEqual(post?.text, "jetstream \(tag)", "\(version): the post arrives as AppBskyFeedPost")
            guard case .unknown(let other)? = events.last?.commit?.record else {
                return XCTFail("\(version): a collection the SDK does not know is kept as data")
            }
            XCTAssertEqual(other.json.objectValue?["tag"], .string(tag))
            XCTAssertTrue(events.allSatisfy { $0.did == fixture.did })
        }
    }

    func testAResumptionFromASavedCursorRepeatsNothingAndMissesNothing() async throws {
        let fixture = try await fixture()
        for version in [JetstreamEndpoint.v1, .v2] {
            let filter = JetstreamFilter(collections: ["com.example.jetstream.*"], dids: [fixture.did])
            let client = jetstream(fixture, version)
            let first = try client.subscribe(filter, after: Self.now())
            async let reading = Self.take(2, from: first)
            var written: [String] = []
            for index in 0..<2 { written.append(try await write(fixture, tag: "\(version) a\(index)").other) }
            let seen = try await reading
            let saved = try XCTUnwrap(seen.last?.cursor)
            // The app stopped after two events; more are written while it is away.
            for index in 0..<3 { written.append(try await write(fixture, tag: "\(version) b\(index)").other) }
            let resumed = try await Self.take(3, from: client.subscribe(filter, after: saved))
            XCTAssertEqual(
                (seen + resumed).map { $0.commit?.rkey.rawValue ?? "" }, written,
                "\(version): every write once, in order, across the restart")
        }
    }

    func testASlowReaderHoldsTheSocketBackInsteadOfBuffering() async throws {
        let fixture = try await fixture()
        let transport = CountingTransport(POSIXWebSocketTransport(maximumQueuedMessages: 4))
        let client = JetstreamClient(service: fixture.url, version: .v2, transport: transport)
        // Replay from the start: the history holds far more events than the app reads here.
        let stream = try client.subscribe(.all, after: 0)
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<5 { _ = try await iterator.next() }
        XCTAssertEqual(transport.received, 5, "one frame read per message asked for, none read ahead")
    }
}

// @unchecked Sendable: `count` is read and written under `lock`.
/// A transport whose connections count the messages the client took from them.
final class CountingTransport: XRPCWebSocketTransport, @unchecked Sendable {
    private let wrapped: any XRPCWebSocketTransport
    private let lock = NSLock()
    private var count = 0

    init(_ wrapped: any XRPCWebSocketTransport) { self.wrapped = wrapped }

    var received: Int { lock.withLock { count } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        Connection(try await wrapped.connect(to: url, headers: headers), owner: self)
    }

    fileprivate func add() { lock.withLock { count += 1 } }

    private final class Connection: XRPCWebSocketConnection {
        let wrapped: any XRPCWebSocketConnection
        let owner: CountingTransport

        init(_ wrapped: any XRPCWebSocketConnection, owner: CountingTransport) {
            self.wrapped = wrapped
            self.owner = owner
        }

        func receive() async throws -> XRPCWebSocketMessage? {
            let message = try await wrapped.receive()
            if message != nil { owner.add() }
            return message
        }

        func send(_ message: XRPCWebSocketMessage) async throws { try await wrapped.send(message) }
        func close(code: XRPCWebSocketCloseCode, reason: String) { wrapped.close(code: code, reason: reason) }
    }
}
