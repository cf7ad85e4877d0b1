import AtprotoLexicons
import Foundation
import LoopbackHTTPServer
import XCTest

/// `subscribeRepos` from a real PDS through a loopback TCP proxy that cuts the socket, mid-frame
/// and while live: with a reconnect policy the stream resumes from its last `seq` and delivers
/// exactly the events an uncut stream does, none lost, none twice. Skipped unless `ATPROTO_PDS_URL`,
/// `ATPROTO_PDS_HANDLE` and `ATPROTO_PDS_PASSWORD` are set.
final class StreamResumeIntegrationTests: XCTestCase {
    private typealias Message = ComAtprotoSyncSubscribeRepos.Message

    private struct TimedOut: Error, CustomStringConvertible {
        var description: String
    }

    private static func sequence(_ message: Message) -> Int? {
        switch message {
        case .comAtprotoSyncSubscribeReposCommit(let value): return value.seq
        case .comAtprotoSyncSubscribeReposIdentity(let value): return value.seq
        case .comAtprotoSyncSubscribeReposAccount(let value): return value.seq
        case .comAtprotoSyncSubscribeReposSync(let value): return value.seq
        default: return nil
        }
    }

    private static func texts(_ message: Message) -> [String] {
        guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message else { return [] }
        return ((try? commit.operations()) ?? []).compactMap { $0.record?.as(AppBskyFeedPost.self)?.text }
    }

    /// Reads `iterator` up to the first message for which `isLast` holds; throws after `seconds`, a
    /// bound for a hang, not a measured time. `isLast` sees each message once: a replay from cursor 0
    /// holds every event of the PDS's life, so a check of all messages so far after each one would
    /// cost the square of that (with a CAR decoded per commit, over 60 s at ~400 events).
    private static func read(
        _ iterator: XRPCEventStream<ComAtprotoSyncSubscribeRepos>.AsyncIterator, seconds: Double = 60,
        until isLast: @escaping @Sendable (Message) -> Bool
    ) async throws -> ([Message], XRPCEventStream<ComAtprotoSyncSubscribeRepos>.AsyncIterator) {
        try await withThrowingTaskGroup(
            of: ([Message], XRPCEventStream<ComAtprotoSyncSubscribeRepos>.AsyncIterator)?.self
        ) {
            group in
            group.addTask {
                var iterator = iterator
                var messages: [Message] = []
                while let message = try await iterator.next() {
                    messages.append(message)
                    if isLast(message) { return (messages, iterator) }
                }
                throw TimedOut(description: "the stream ended after \(messages.count) messages")
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw TimedOut(description: "the awaited messages did not arrive within \(seconds) s")
            }
            return result
        }
    }

    func testACutStreamResumesFromItsLastSequenceWithoutLosingOrRepeatingEvents() async throws {
        let variables = ProcessInfo.processInfo.environment
        guard let text = variables["ATPROTO_PDS_URL"], !text.isEmpty, let url = URL(string: text),
            let port = url.port, let handle = variables["ATPROTO_PDS_HANDLE"],
            let password = variables["ATPROTO_PDS_PASSWORD"]
        else {
            throw XCTSkip("ATPROTO_PDS_URL (a loopback PDS), ATPROTO_PDS_HANDLE and ATPROTO_PDS_PASSWORD are not set")
        }
        let session = PasswordSession(service: url)
        let account = try await session.login(ATIdentifier(rawValue: handle), password: password)
        let writer = XRPCClient(agent: RetryingAgent(wrapping: session))
        let marker = "resume \(UUID().uuidString)"
        func post(_ number: Int) async throws {
            let record = AppBskyFeedPost(text: "\(marker) \(number)", createdAt: "2024-06-01T12:00:00.000Z")
            _ = try await writer.com.atproto.repo.createRecord(
                repo: ATIdentifier(rawValue: account.did.rawValue), collection: "app.bsky.feed.post",
                record: LexiconUnknownValue(encoding: record))
        }
        for number in 0..<4 { try await post(number) }

        // The first three connections are cut after 1,500 bytes from the PDS: mid-frame.
        let proxy = try LoopbackTCPProxy(upstreamPort: port, cutAfterBytes: 1500, cutConnections: 3)
        defer { proxy.stop() }
        var client = XRPCClient(agent: session)
        client.eventStreams.serviceURL = URL(string: "ws://127.0.0.1:\(proxy.port)")
        client.eventStreams.reconnectPolicy = XRPCReconnectPolicy(
            maximumAttempts: 10, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
        var (messages, iterator) = try await Self.read(
            client.com.atproto.sync.subscribeRepos(cursor: 0).makeAsyncIterator()
        ) {
            Self.texts($0).contains("\(marker) 3")
        }
        let cutsWhileReplaying = proxy.cutCount

        // Live: cut the open connection, then write; the stream must reconnect and deliver them once.
        proxy.severAll()
        for number in 4..<6 { try await post(number) }
        let live: [Message]
        (live, iterator) = try await Self.read(iterator) { Self.texts($0).contains("\(marker) 5") }
        messages += live
        _ = iterator

        let sequences = messages.compactMap(Self.sequence)
        let last = try XCTUnwrap(sequences.last)
        let reference = try await Self.read(
            XRPCClient(agent: session).com.atproto.sync.subscribeRepos(cursor: 0).makeAsyncIterator()
        ) { (Self.sequence($0) ?? 0) >= last }.0.compactMap(Self.sequence).filter { $0 <= last }
        print(
            "stream resume: \(sequences.count) events up to seq \(last) over \(proxy.connectionCount) connections, "
                + "\(cutsWhileReplaying) cut mid-frame while replaying, 1 severed live")
        XCTAssertGreaterThanOrEqual(cutsWhileReplaying, 1, "the proxy must have cut the replay")
        XCTAssertGreaterThanOrEqual(proxy.connectionCount, 3, "the stream must have reconnected")
        XCTAssertEqual(sequences.count, messages.count, "every event has a seq")
        XCTAssertEqual(Set(sequences).count, sequences.count, "an event arrived twice")
        XCTAssertEqual(sequences, reference, "the cut stream differs from an uncut one")
    }
}
