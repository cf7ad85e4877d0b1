import Foundation
import XCTest

@testable import AtprotoBackfill

/// A repository in memory that writes commits as a PDS would emit them (commit block, record blocks,
/// `prevData` chained) and answers snapshots of its current state. The MST root is stood in for by a
/// hash of the records: the engine compares roots, the proofs are `AtprotoVerification`'s to test.
struct ScriptedRepo {
    let did: DID
    var records: [String: CID] = [:]
    var values: [String: AtprotoDataModelValue] = [:]
    var revision = 0
    var seq = 0

    init(_ did: String) { self.did = DID(rawValue: did) }

    var rev: String { Self.rev(revision) }
    var data: CID {
        let text = records.keys.sorted().map { "\($0)=\(records[$0]!.string)" }.joined(separator: ",")
        return CID(sha256Of: Array("\(did.rawValue):\(text)".utf8))
    }

    static func rev(_ number: Int) -> String {
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz")
        var text = ""
        var value = number
        for _ in 0..<4 {
            text = String(alphabet[value % 32]) + text
            value /= 32
        }
        return "222222222" + text
    }

    /// Writes a post at `rkey` (or deletes it when `text` is nil); returns the firehose commit.
    mutating func write(_ rkey: String, _ text: String?, seq: Int) -> ComAtprotoSyncSubscribeRepos.Commit {
        let path = "app.bsky.feed.post/\(rkey)"
        let prevData = data
        let before = records[path]
        revision += 1
        var blocks: [CARBlock] = []
        var op: ComAtprotoSyncSubscribeRepos.RepoOp
        if let text {
            let value = AtprotoDataModelValue.map([
                "$type": .string("app.bsky.feed.post"), "text": .string(text),
                "createdAt": .string("2026-01-01T00:00:00.000Z"),
            ])
            let bytes = DAGCBOR.encode(value)
            let cid = CID(sha256Of: bytes)
            blocks.append(CARBlock(cid: cid, bytes: Data(bytes)))
            records[path] = cid
            values[path] = value
            op = .init(
                action: before == nil ? "create" : "update", path: path, cid: CIDLink(cid.string),
                prev: before.map { CIDLink($0.string) })
        } else {
            records[path] = nil
            values[path] = nil
            op = .init(action: "delete", path: path, cid: nil, prev: before.map { CIDLink($0.string) })
        }
        let commitBlock = DAGCBOR.encode(
            .map([
                "did": .string(did.rawValue), "version": .integer(3), "rev": .string(rev), "prev": .null,
                "data": .link(data), "sig": .bytes(Data(repeating: 1, count: 64)),
            ]))
        let commitCID = CID(sha256Of: commitBlock)
        blocks.insert(CARBlock(cid: commitCID, bytes: Data(commitBlock)), at: 0)
        let car = CARFile(roots: [commitCID], blocks: blocks).encoded()
        return ComAtprotoSyncSubscribeRepos.Commit(
            seq: seq, rebase: false, tooBig: false, repo: did, commit: CIDLink(commitCID.string),
            rev: TID(rawValue: rev),
            since: nil, blocks: LexiconBytes(Data(car)), ops: [op], blobs: [], time: LexiconDatetime.now(),
            prevData: CIDLink(prevData.string))
    }

    var snapshot: RepoSnapshot {
        let values = values
        return RepoSnapshot(
            rev: rev, data: data, byteCount: 100 * records.count,
            index: records.keys.sorted().map { ($0, records[$0]!) }, read: { values[$0]?.json })
    }
}

/// The network of the offline tests: the repositories, a firehose the test feeds message by message
/// (each `send` returns once the engine handled it), and fetches the test may hold until it lets them go.
actor ScriptedNetwork: RepoSnapshotSource {
    var repos: [DID: ScriptedRepo] = [:]
    /// Every commit ever emitted, by seq, for replays from a cursor.
    var log: [ComAtprotoSyncSubscribeRepos.Message] = []
    var seq = 0
    var queue: [ComAtprotoSyncSubscribeRepos.Message] = []
    var reader: CheckedContinuation<ComAtprotoSyncSubscribeRepos.Message?, Never>?
    var handled: [CheckedContinuation<Void, Never>] = []
    var closed = false
    var holdBefore = false
    var holdAfter = false
    var heldBefore: [CheckedContinuation<Void, Never>] = []
    var heldAfter: [CheckedContinuation<Void, Never>] = []
    var watchers: [CheckedContinuation<Void, Never>] = []
    /// Fetches started, and snapshots taken.
    var started = 0
    var taken = 0
    /// Repositories whose fetch fails.
    var failing: Set<DID> = []

    func add(_ repo: ScriptedRepo) { repos[repo.did] = repo }

    /// Writes to a repository without the firehose seeing it (a commit the engine misses).
    func writeUnseen(_ did: DID, _ rkey: String, _ text: String?) {
        seq += 1
        _ = repos[did]!.write(rkey, text, seq: seq)
    }

    /// Writes to a repository and feeds the commit to the firehose, returning once the engine handled it.
    func write(_ did: DID, _ rkey: String, _ text: String?) async {
        seq += 1
        let commit = repos[did]!.write(rkey, text, seq: seq)
        log.append(.comAtprotoSyncSubscribeReposCommit(commit))
        await send(.comAtprotoSyncSubscribeReposCommit(commit))
    }

    func send(_ message: ComAtprotoSyncSubscribeRepos.Message) async {
        if let reader {
            self.reader = nil
            reader.resume(returning: message)
        } else {
            queue.append(message)
        }
        await withCheckedContinuation { handled.append($0) }
    }

    /// The firehose: the log after `cursor` first (a replay), then what the test sends.
    func run(from cursor: Int?, into engine: BackfillThenLive) async {
        if let cursor {
            for message in log {
                guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message, commit.seq > cursor else {
                    continue
                }
                guard await engine.handle(message) else { return }
            }
        }
        while let message = await nextMessage() {
            let going = await engine.handle(message)
            if !handled.isEmpty { handled.removeFirst().resume() }
            if !going { return }
        }
    }

    private func nextMessage() async -> ComAtprotoSyncSubscribeRepos.Message? {
        if !queue.isEmpty { return queue.removeFirst() }
        if closed { return nil }
        return await withCheckedContinuation { reader = $0 }
    }

    func close() {
        closed = true
        reader?.resume(returning: nil)
        reader = nil
        for waiter in handled { waiter.resume() }
        handled = []
    }

    func reopen() { closed = false }

    /// Holds the fetches that start from now on before their snapshot (`before`) and after it (`after`).
    func hold(before: Bool, after: Bool) {
        holdBefore = before
        holdAfter = after
    }

    func releaseBefore() {
        holdBefore = false
        for fetch in heldBefore { fetch.resume() }
        heldBefore = []
    }

    func releaseAfter() {
        holdAfter = false
        for fetch in heldAfter { fetch.resume() }
        heldAfter = []
    }

    func fail(_ did: DID) { failing.insert(did) }

    /// Returns once `started` fetches have started and `taken` snapshots were taken.
    func waitFor(started: Int = 0, taken: Int = 0) async {
        while self.started < started || self.taken < taken { await withCheckedContinuation { watchers.append($0) } }
    }

    private func notify() {
        for watcher in watchers { watcher.resume() }
        watchers = []
    }

    nonisolated func snapshot(of did: DID) async throws -> RepoSnapshot { try await takeSnapshot(did) }

    private func takeSnapshot(_ did: DID) async throws -> RepoSnapshot {
        started += 1
        notify()
        if holdBefore { await withCheckedContinuation { heldBefore.append($0) } }
        guard let repo = repos[did], !failing.contains(did) else { throw URLError(.fileDoesNotExist) }
        let snapshot = repo.snapshot
        taken += 1
        notify()
        if holdAfter { await withCheckedContinuation { heldAfter.append($0) } }
        return snapshot
    }

    /// A backfill over this network.
    nonisolated func backfill(
        store: any BackfillStateStore, configuration: BackfillThenLive.Configuration = .init(initialBackoff: .zero)
    ) -> BackfillThenLive {
        BackfillThenLive(store: store, source: self, configuration: configuration) { cursor, engine in
            await self.run(from: cursor, into: engine)
        }
    }
}
