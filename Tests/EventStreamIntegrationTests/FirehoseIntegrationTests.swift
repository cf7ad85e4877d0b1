import AtprotoLexicons
import Foundation
import XCTest

/// `com.atproto.sync.subscribeRepos` against a real PDS (the arroba PDS of `../shared/pds`):
/// skipped unless `ATPROTO_PDS_URL`, `ATPROTO_PDS_HANDLE` and `ATPROTO_PDS_PASSWORD` are set.
final class FirehoseIntegrationTests: XCTestCase {
    private typealias Message = ComAtprotoSyncSubscribeRepos.Message

    private struct TimedOut: Error, CustomStringConvertible {
        var description: String
    }

    private struct Account {
        var client: XRPCClient
        var did: DID
    }

    /// A client logged in to the PDS of the environment, streaming from it: the session names its
    /// PDS as the stream's service and authenticates the upgrade (no `eventStreams.serviceURL`).
    private func account(file: StaticString = #filePath, line: UInt = #line) async throws -> Account {
        let variables = ProcessInfo.processInfo.environment
        guard let text = variables["ATPROTO_PDS_URL"], !text.isEmpty else {
            throw XCTSkip(
                "ATPROTO_PDS_URL is not set: these tests need a PDS (../shared/pds/serve.py), with "
                    + "ATPROTO_PDS_HANDLE and ATPROTO_PDS_PASSWORD naming an account on it", file: file, line: line)
        }
        guard let url = URL(string: text) else { throw XCTSkip("ATPROTO_PDS_URL \"\(text)\" is not a URL") }
        guard let handle = variables["ATPROTO_PDS_HANDLE"], let password = variables["ATPROTO_PDS_PASSWORD"] else {
            throw XCTSkip("ATPROTO_PDS_HANDLE and ATPROTO_PDS_PASSWORD must name an account on \(text)")
        }
        let session = PasswordSession(service: url)
        let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
        let client = XRPCClient(agent: RetryingAgent(wrapping: session))
        return Account(client: client, did: archive.did)
    }

    /// Messages from `stream` until `done` says so; throws after `seconds` (a generous bound, not a
    /// measured time: the PDS answers in milliseconds). `done` runs after every message, so it looks
    /// at the newest one: a replay from cursor 0 holds every event of the PDS's life.
    private func collect(
        _ stream: XRPCEventStream<ComAtprotoSyncSubscribeRepos>, seconds: Double = 60,
        until done: @escaping @Sendable ([Message]) -> Bool
    ) async throws -> [Message] {
        try await withThrowingTaskGroup(of: [Message]?.self) { group in
            group.addTask {
                var messages: [Message] = []
                for try await message in stream {
                    messages.append(message)
                    if done(messages) { return messages }
                }
                return messages
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let messages = first else {
                throw TimedOut(description: "no matching firehose messages within \(seconds) s")
            }
            return messages
        }
    }

    private static func commits(_ messages: [Message]) -> [ComAtprotoSyncSubscribeRepos.Commit] {
        messages.compactMap {
            if case .comAtprotoSyncSubscribeReposCommit(let commit) = $0 { return commit }
            return nil
        }
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

    private static func createPost(_ account: Account, text: String) async throws -> ComAtprotoRepoCreateRecord.Output {
        let post = AppBskyFeedPost(text: text, createdAt: LexiconDatetime(rawValue: "2024-06-01T12:00:00.000Z"))
        return try await account.client.com.atproto.repo.createRecord(
            repo: ATIdentifier(rawValue: account.did.rawValue), collection: "app.bsky.feed.post",
            record: LexiconUnknownValue(encoding: post))
    }

    func testRecordsWrittenThroughTheSDKArriveAsCommitOperationsWithTheirRecords() async throws {
        let account = try await account()
        let text = "firehose test \(UUID().uuidString)"
        let post = try await Self.createPost(account, text: text)
        let like = AppBskyFeedLike(
            subject: ComAtprotoRepoStrongRef(uri: post.uri, cid: post.cid), createdAt: "2024-06-01T12:00:01.000Z")
        let liked = try await account.client.com.atproto.repo.createRecord(
            repo: ATIdentifier(rawValue: account.did.rawValue), collection: "app.bsky.feed.like",
            record: LexiconUnknownValue(encoding: like))
        let postPath = post.uri.rawValue.components(separatedBy: "/").suffix(2).joined(separator: "/")
        let likePath = liked.uri.rawValue.components(separatedBy: "/").suffix(2).joined(separator: "/")

        // Replay from the start, so the commits are in the stream whenever the socket opened; the like
        // was written after the post, so the stream holds both once it reaches the like.
        let messages = try await collect(account.client.com.atproto.sync.subscribeRepos(cursor: 0)) { messages in
            Self.commits(messages.suffix(1)).contains { $0.ops.contains { $0.path == likePath } }
        }
        var operations: [String: RepoOperation] = [:]
        for commit in Self.commits(messages) where commit.repo == account.did {
            for operation in try commit.operations(decoding: [AppBskyFeedPost.self, AppBskyFeedLike.self]) {
                operations[operation.path] = operation
            }
        }
        let postOperation = try XCTUnwrap(operations[postPath])
        XCTAssertEqual(postOperation.action, .create)
        XCTAssertEqual(postOperation.cid?.string, post.cid.rawValue)
        XCTAssertEqual(postOperation.record?.as(AppBskyFeedPost.self)?.text, text)
        let likeOperation = try XCTUnwrap(operations[likePath])
        XCTAssertEqual(likeOperation.cid?.string, liked.cid.rawValue)
        XCTAssertEqual(likeOperation.record?.as(AppBskyFeedLike.self)?.subject.uri, post.uri)
    }

    func testALiveSubscriptionSeesANewWrite() async throws {
        let account = try await account()
        let stream = account.client.com.atproto.sync.subscribeRepos()
        let text = "live \(UUID().uuidString)"
        // Writes until the live stream shows one of them: no guess of when the socket is open.
        let writer = Task {
            for attempt in 0..<40 {
                _ = try await FirehoseIntegrationTests.createPost(account, text: "\(text) \(attempt)")
                try await Task.sleep(nanoseconds: 500_000_000)
            }
        }
        defer { writer.cancel() }
        let messages = try await collect(stream) { messages in
            FirehoseIntegrationTests.commits(messages.suffix(1)).contains { commit in
                (try? commit.operations())?.contains {
                    $0.record?.as(AppBskyFeedPost.self)?.text.hasPrefix(text) == true
                } == true
            }
        }
        XCTAssertFalse(Self.commits(messages).isEmpty)
    }

    func testReplayFromCursorZeroIsInOrderAndACursorResumesAfterItsSequence() async throws {
        let account = try await account()
        _ = try await Self.createPost(account, text: "replay marker")
        let replay = try await collect(account.client.com.atproto.sync.subscribeRepos(cursor: 0)) { $0.count >= 3 }
        let sequences = replay.compactMap(Self.sequence)
        XCTAssertEqual(sequences.count, replay.count, "every replayed message has a seq: \(replay)")
        XCTAssertEqual(sequences, sequences.sorted())
        XCTAssertEqual(Set(sequences).count, sequences.count, "no seq twice")
        let resumeAfter = try XCTUnwrap(sequences.first)
        let resumed = try await collect(account.client.com.atproto.sync.subscribeRepos(cursor: resumeAfter)) {
            $0.count >= 3
        }
        // The reference PDS sends the events after the cursor; arroba includes the cursor's own event.
        let resumedSequences = resumed.compactMap(Self.sequence)
        XCTAssertTrue([resumeAfter, sequences[1]].contains(resumedSequences.first ?? -1), "\(resumedSequences)")
        XCTAssertEqual(Array(resumedSequences.filter { $0 > resumeAfter }.prefix(2)), Array(sequences[1...2]))
    }

    func testACursorAheadOfTheServerEndsWithFutureCursor() async throws {
        let account = try await account()
        do {
            for try await message in account.client.com.atproto.sync.subscribeRepos(cursor: 1_000_000_000) {
                XCTFail("no message expected before the error: \(message)")
            }
            XCTFail("the stream must end with FutureCursor")
        } catch {
            XCTAssertEqual(error.code, .errorFrame, "\(error)")
            XCTAssertEqual(error.code(for: ComAtprotoSyncSubscribeRepos.self), .futureCursor, "\(error)")
        }
    }
}
