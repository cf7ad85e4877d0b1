import AtprotoLexicons
import FeedGenerator
import Foundation
import Jetstream
import XCTest
import XRPCRuntime

/// The feed generator on Jetstream against the shared PDS (its v2 stream): posts written while the
/// generator is down reach the index after a restart from its checkpoint, a post deleted while it
/// was down is gone, and nothing is there twice. Skipped unless ATPROTO_PDS_URL is set.
final class JetstreamRestartTests: XCTestCase {
    func testARestartFromTheCheckpointMissesNothingAndCountsNothingTwice() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_URL"], let pds = URL(string: text) else {
            throw XCTSkip(
                "set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\" in the package root) to run these tests")
        }
        let session = PasswordSession(service: pds)
        let account = try await session.login(
            ATIdentifier(rawValue: environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"),
            password: environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2")
        let client = XRPCClient(agent: session)
        let word = "jetfeed\(UInt32.random(in: 0...UInt32.max))"
        let file = FeedCheckpointFile(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("feed-checkpoint-\(word).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        func post(_ text: String) async throws -> ATURI {
            try await client.createRecord(
                AppBskyFeedPost(text: "\(text) \(word)", createdAt: LexiconDatetime.now()),
                repo: ATIdentifier(account.did)
            ).uri
        }
        func follow(_ index: FeedIndex, from cursor: Int?) -> Task<Void, any Error> {
            let follower = JetstreamFollower(client: JetstreamClient(service: pds), index: index, checkpoint: file)
            return Task { try await follower.run(from: cursor) }
        }
        func waitUntil(_ index: FeedIndex, holds expected: [ATURI]) async throws -> [ATURI] {
            let deadline = ContinuousClock.now + .seconds(30)
            var uris: [ATURI] = []
            while ContinuousClock.now < deadline {
                uris = try await index.page(limit: 100, cursor: nil).uris
                if uris == expected { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return uris
        }

        // First run: from a time just before the first post (a v2 cursor in unix microseconds).
        let start = Int(Date().timeIntervalSince1970 * 1_000_000) - 2_000_000
        let first = FeedIndex(rule: FeedIndex.containing(word: word))
        let running = follow(first, from: start)
        let a = try await post("first")
        let b = try await post("second")
        let seen = try await waitUntil(first, holds: [b, a])
        XCTAssertEqual(seen, [b, a])
        running.cancel()
        _ = await running.result
        let saved = try XCTUnwrap(try file.load(), "the follower saves a checkpoint when it stops")
        XCTAssertNotNil(saved.cursor)

        // While it is down: two posts written, one of the indexed ones deleted.
        let c = try await post("third")
        let d = try await post("fourth")
        let rkey = try XCTUnwrap(a.rkey)
        _ = try await client.deleteRecord(AppBskyFeedPost.self, repo: ATIdentifier(account.did), rkey: rkey)

        // Restart with an empty index: the checkpoint restores the index and the cursor (the `from:`
        // given here, the live tip, is not used while a checkpoint exists).
        let second = FeedIndex(rule: FeedIndex.containing(word: word))
        let resumed = follow(second, from: nil)
        let after = try await waitUntil(second, holds: [d, c, b])
        resumed.cancel()
        _ = await resumed.result
        XCTAssertEqual(after, [d, c, b], "the posts written while down, once each, and the deleted one gone")
        let count = await second.count
        XCTAssertEqual(count, 3)
    }
}
