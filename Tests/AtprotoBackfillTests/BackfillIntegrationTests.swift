import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoBackfill

/// Backfill then live against the shared PDS (`scripts/pds.sh start`), with accounts writing while
/// it runs: every repository ends exactly as the PDS holds it, nothing delivered twice, across a
/// restart. Skipped unless ATPROTO_PDS_URL is set.
final class BackfillIntegrationTests: XCTestCase {
    struct Account: Sendable {
        var did: DID
        var client: XRPCClient
    }

    /// What the app built from the events, and every event that repeated what it already held.
    actor AppModel {
        var records: [DID: [String: CID]] = [:]
        var repeats: [String] = []
        /// Events with a CID whose record did not reach the app as a post (the writers write only posts).
        var notPosts: [String] = []

        func apply(_ event: BackfillEvent) {
            if event.cid != nil, event.record?.as(AppBskyFeedPost.self) == nil {
                notPosts.append(
                    "\(event.isHistorical ? "historical" : "live") \(event.path): \(String(describing: event.record))")
            }
            let held = records[event.repo]?[event.path]
            let repeated =
                switch event.action {
                case .delete: held == nil
                case .create: held != nil
                default: held == event.cid
                }
            if repeated {
                repeats.append("\(event.isHistorical ? "historical" : "live") \(event.action) \(event.path)")
            }
            records[event.repo, default: [:]][event.path] = event.cid
        }
    }

    func pdsURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], let url = URL(string: text) else {
            throw XCTSkip(
                "set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\") to run the backfill integration tests")
        }
        return url
    }

    func account(_ pds: URL) async throws -> Account {
        let handle = "backfill\(UInt32.random(in: 0...UInt32.max)).test"
        let password = "pw-\(UUID().uuidString)"
        _ = try await XRPCClient(agent: URLSessionAgent(serviceURL: pds)).com.atproto.server.createAccount(
            handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
        let session = PasswordSession(service: pds)
        let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
        return Account(did: archive.did, client: XRPCClient(agent: session))
    }

    /// Creates, edits and deletes posts: `count` operations.
    static func write(_ account: Account, _ count: Int, tag: String) async throws {
        var keys: [RecordKey] = []
        for index in 0..<count {
            let post = AppBskyFeedPost(text: "\(tag) \(index)", createdAt: LexiconDatetime.now())
            switch index % 5 {
            case 3 where !keys.isEmpty:
                _ = try await account.client.putRecord(
                    AppBskyFeedPost(text: "\(tag) \(index) edited", createdAt: LexiconDatetime.now()),
                    repo: ATIdentifier(account.did), rkey: keys[keys.count / 2])
            case 4 where !keys.isEmpty:
                try await account.client.deleteRecord(
                    AppBskyFeedPost.self, repo: ATIdentifier(account.did), rkey: keys.removeFirst())
            default:
                let created = try await account.client.createRecord(post, repo: ATIdentifier(account.did))
                if let key = created.uri.rkey { keys.append(key) }
            }
        }
    }

    /// The posts each repository holds now, proved.
    func expected(_ accounts: [Account], _ pds: URL, _ resolver: any IdentityResolver) async throws -> [DID: [String:
        CID]]
    {
        var expected: [DID: [String: CID]] = [:]
        let source = VerifiedRepoSource(resolver: resolver)
        for account in accounts {
            let snapshot = try await source.snapshot(of: account.did)
            expected[account.did] = Dictionary(
                uniqueKeysWithValues: snapshot.index.filter { $0.path.hasPrefix("app.bsky.feed.post/") }.map {
                    ($0.path, $0.cid)
                })
        }
        return expected
    }

    func backfill(_ pds: URL, _ resolver: any IdentityResolver, _ store: any BackfillStateStore) -> BackfillThenLive {
        var firehose = XRPCClient(agent: URLSessionAgent(serviceURL: pds))
        firehose.eventStreams.serviceURL = pds
        firehose.eventStreams.reconnectPolicy = .default
        return BackfillThenLive(
            firehose: firehose, resolver: resolver, store: store,
            configuration: .init(
                collections: [AppBskyFeedPost.collection], maximumBufferedCommits: 50,
                initialBackoff: .milliseconds(20), maximumEventsAhead: 16))
    }

    /// Reads and acknowledges events until the model holds `expected` (a watchdog stops the backfill
    /// after 90 s, ending the sequence, so a gap fails rather than hangs).
    func catchUp(_ engine: BackfillThenLive, _ model: AppModel, to expected: [DID: [String: CID]]) async throws {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(90))
            await engine.stop()
        }
        defer { watchdog.cancel() }
        if await model.records == expected { return }
        for try await event in engine.events {
            await model.apply(event)
            try await event.ack()
            if await model.records == expected { return }
        }
        let held = await model.records
        XCTFail("the events ended before the app held what the PDS holds: \(held) vs \(expected)")
    }

    func testReposBackfilledWhileTheyAreWrittenEndAsThePDSHoldsThemAcrossARestart() async throws {
        let pds = try pdsURL()
        let resolver = CachingIdentityResolver(
            wrapping: StandardIdentityResolver(
                handles: WellKnownHandleResolver(),
                dids: StandardDIDResolver(
                    plc: PLCDirectoryResolver(directory: pds.appendingPathComponent("plc")), web: WebDIDResolver())))
        var accounts: [Account] = []
        for _ in 0..<3 { accounts.append(try await account(pds)) }
        for account in accounts { try await Self.write(account, 30, tag: "before") }

        let store = InMemoryBackfillStateStore()
        let model = AppModel()
        let engine = backfill(pds, resolver, store)
        // A gap makes the test fail, not hang: the reads below end when the backfill is stopped.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(180))
            await engine.stop()
        }
        defer { watchdog.cancel() }
        try await engine.start()
        // The firehose is open once it handled a message: write until it has (a write made before the
        // socket opened is never sent to it).
        for _ in 0..<100 where await engine.firehoseSequence == nil {
            try await Self.write(accounts[0], 1, tag: "warm-up")
            try await Task.sleep(for: .milliseconds(100))
        }
        let opened = await engine.firehoseSequence
        XCTAssertNotNil(opened, "the firehose delivered nothing")

        // Writers go on while the repositories are fetched and delivered.
        try await engine.add(repos: accounts.map(\.did))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for account in accounts { group.addTask { try await Self.write(account, 25, tag: "during") } }
            group.addTask {
                // Reads the events while the writers write, without waiting for a final state.
                var read = 0
                for try await event in engine.events {
                    await model.apply(event)
                    try await event.ack()
                    read += 1
                    if read >= 30 { return }
                }
            }
            try await group.waitForAll()
        }
        try await catchUp(engine, model, to: try await expected(accounts, pds, resolver))
        let notPosts = await model.notPosts
        XCTAssertEqual(notPosts, [], "every record written reaches the app decoded into its type")
        let progress = await engine.progress
        XCTAssertEqual(progress.repositories, 3)
        XCTAssertGreaterThan(progress.records, 0)
        XCTAssertGreaterThan(progress.bytes, 0)
        print("backfill then live against the PDS:", progress)
        await engine.stop()

        // Written while nothing runs; then a new backfill over the same store resumes from it.
        for account in accounts { try await Self.write(account, 10, tag: "stopped") }
        let resumed = backfill(pds, resolver, store)
        try await resumed.start()
        for account in accounts { try await Self.write(account, 10, tag: "resumed") }
        try await catchUp(resumed, model, to: try await expected(accounts, pds, resolver))
        print("after the restart:", await resumed.progress)
        await resumed.stop()

        let repeats = await model.repeats
        XCTAssertEqual(repeats, [], "events the app already held")
    }
}
