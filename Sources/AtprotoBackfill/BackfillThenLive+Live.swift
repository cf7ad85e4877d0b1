import AtprotoLexicons
import AtprotoVerification

// The firehose: commits of live repositories delivered as they come, those of repositories being
// fetched held (up to the bound), and every commit checked to follow from the last one delivered.
extension BackfillThenLive {
    enum Applied {
        case applied
        case stopped
        case broken(String)
    }

    /// Handles one firehose message; `false` when the backfill stopped.
    func handle(_ message: ComAtprotoSyncSubscribeRepos.Message) async -> Bool {
        guard !Task.isCancelled else { return false }
        let sequence: Int?
        switch message {
        case .comAtprotoSyncSubscribeReposCommit(let commit):
            sequence = commit.seq
            await handle(commit)
        case .comAtprotoSyncSubscribeReposSync(let sync):
            sequence = sync.seq
            await handleSync(of: sync.did, rev: sync.rev, sequence: sync.seq)
        case .comAtprotoSyncSubscribeReposIdentity(let identity): sequence = identity.seq
        case .comAtprotoSyncSubscribeReposAccount(let account): sequence = account.seq
        default: sequence = nil
        }
        if let sequence { ledger.handled(sequence) }
        do {
            try await saveCursor(interval: configuration.cursorSaveInterval)
        } catch {
            await finish(throwing: error)
            return false
        }
        return !Task.isCancelled
    }

    func handle(_ commit: ComAtprotoSyncSubscribeRepos.Commit) async {
        guard let repo = repos[commit.repo] else { return }
        switch repo.status {
        case .live:
            if case .broken(let reason) = await apply(commit, of: commit.repo, drained: false) {
                await resync(commit.repo, because: reason, sequence: commit.seq, backoff: true)
            }
        case .pending, .backfilling, .resyncing:
            if repo.bufferLost { return }
            if repo.buffer.count >= configuration.maximumBufferedCommits {
                // Over the bound: drop what is held and fetch again once this fetch is delivered.
                repos[commit.repo]?.buffer = []
                repos[commit.repo]?.bufferLost = true
            } else {
                repos[commit.repo]?.buffer.append(commit)
            }
        case .failed:
            return
        }
    }

    /// A `#sync` event: the repository's state was replaced; past what was delivered, fetch it again.
    func handleSync(of did: DID, rev: String, sequence: Int) async {
        guard let repo = repos[did] else { return }
        switch repo.status {
        case .live where rev > (repo.rev ?? ""):
            await resync(did, because: "a #sync event to rev \(rev)", sequence: sequence, backoff: false)
        case .pending, .backfilling, .resyncing: repos[did]?.bufferLost = true
        default: break
        }
    }

    /// A commit failed its proof (reported by the `FirehoseVerifier`, before the next message).
    func verificationFailed(_ failure: FirehoseFailure) async {
        guard let text = failure.repo else { return }
        let did = DID(rawValue: text)
        guard let repo = repos[did] else { return }
        switch repo.status {
        case .live:
            await resync(
                did, because: "a commit failed its proof: \(failure)", sequence: failure.sequence, backoff: true)
        case .pending, .backfilling, .resyncing: repos[did]?.bufferLost = true
        case .failed: break
        }
    }

    /// Delivers `commit` of `did` when it follows from what was delivered (a revision not past it
    /// is skipped). A live commit's operations the app already holds (replayed after a restart) are
    /// skipped too; a drained one's are all new (past the snapshot).
    func apply(_ commit: ComAtprotoSyncSubscribeRepos.Commit, of did: DID, drained: Bool) async -> Applied {
        guard let repo = repos[did] else { return .stopped }
        if let rev = repo.rev, commit.rev.rawValue <= rev { return .applied }
        if commit.tooBig { return .broken("a tooBig commit at rev \(commit.rev.rawValue)") }
        let data: CID
        let operations: [RepoOperation]
        do {
            let blocks = try RepoCommitBlocks(car: commit.blocks.data)
            let cid = try CID(commit.commit)
            guard let block = blocks.car.blocksByCID[cid] else {
                return .broken("the commit block of rev \(commit.rev.rawValue) is not in its CAR")
            }
            data = try SignedCommit(block: block, cid: cid).data
            let prevData = try commit.prevData.map { try CID($0) }
            guard prevData == repo.data else {
                return .broken(
                    "rev \(commit.rev.rawValue) follows \(prevData?.string ?? "no prevData"), not \(repo.data?.string ?? "nothing") (rev \(repo.rev ?? "none"))"
                )
            }
            operations = try commit.operations(decoding: configuration.recordTypes)
        } catch {
            return .broken("the commit at rev \(commit.rev.rawValue) does not read: \(error)")
        }
        let epoch = repo.epoch
        for operation in operations where wants(operation.path) {
            if !drained {
                do {
                    let held = try await deliveredCID(at: operation.path, of: did)
                    if held == operation.cid { continue }
                } catch {
                    await finish(throwing: error)
                    return .stopped
                }
            }
            guard
                await emit(
                    did, action: operation.action, path: operation.path, cid: operation.cid, record: operation.record,
                    historical: false, rev: commit.rev.rawValue, sequence: commit.seq, holdsCursor: !drained),
                repos[did]?.epoch == epoch
            else { return .stopped }
        }
        repos[did]?.rev = commit.rev.rawValue
        repos[did]?.data = data
        if !drained {
            do {
                try await enqueue(
                    RepoSyncState(status: .live, rev: commit.rev.rawValue, data: data), of: did, holding: commit.seq)
            } catch {
                await finish(throwing: error)
                return .stopped
            }
        }
        return .applied
    }
}
