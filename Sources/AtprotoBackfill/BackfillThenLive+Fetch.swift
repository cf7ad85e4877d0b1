import AtprotoLexicons
import Foundation

// Fetching repositories: a queue of at most `maximumConcurrentFetches` at once, each snapshot
// compared with what the app holds, then the held live commits drained before the repository goes live.
extension BackfillThenLive {
    /// Fetches `did` after `delay`; any fetch of it scheduled before is dropped.
    func scheduleFetch(_ did: DID, after delay: Duration) {
        guard var repo = repos[did] else { return }
        repo.epoch += 1
        repos[did] = repo
        let epoch = repo.epoch
        if delay <= .zero {
            waitingFetches.append((did, epoch))
            startFetches()
            return
        }
        run { engine in
            do { try await Task.sleep(for: delay) } catch { return }
            engine.queueFetch(did, epoch)
        }
    }

    func queueFetch(_ did: DID, _ epoch: UInt64) {
        waitingFetches.append((did, epoch))
        startFetches()
    }

    func startFetches() {
        while activeFetches < configuration.maximumConcurrentFetches, !waitingFetches.isEmpty {
            let (did, epoch) = waitingFetches.removeFirst()
            guard repos[did]?.epoch == epoch else { continue }
            activeFetches += 1
            run { engine in
                await engine.fetch(did, epoch)
                engine.fetchEnded()
            }
        }
    }

    func fetchEnded() {
        activeFetches -= 1
        startFetches()
    }

    func isCurrent(_ did: DID, _ epoch: UInt64) -> Bool { repos[did]?.epoch == epoch && !Task.isCancelled }

    /// One fetch: the snapshot's difference from what the app holds, as historical events; then the
    /// held commits; then live.
    func fetch(_ did: DID, _ epoch: UInt64) async {
        guard var repo = repos[did], isCurrent(did, epoch) else { return }
        if repo.status == .pending { repo.status = .backfilling }
        // Commits held so far are in the snapshot about to be fetched; hold only the ones after.
        repo.buffer = []
        repo.bufferLost = false
        repos[did] = repo
        let snapshot: RepoSnapshot
        do {
            snapshot = try await source.snapshot(of: did)
        } catch {
            await retry(did, epoch, after: "fetching the repository failed: \(error)")
            return
        }
        guard isCurrent(did, epoch) else { return }
        counters.bytes += snapshot.byteCount
        do {
            guard try await deliver(snapshot, of: did, epoch) else { return }
        } catch let error as BackfillError {
            await finish(throwing: error)
            return
        } catch {
            await retry(did, epoch, after: "the repository's records do not read: \(error)")
            return
        }
        repos[did]?.rev = snapshot.rev
        repos[did]?.data = snapshot.data
        await drain(did, epoch)
    }

    /// The historical events of `snapshot`: records the app does not hold at that CID, and deletes
    /// of the ones it holds that the snapshot has not. `false` when stopped or superseded.
    func deliver(_ snapshot: RepoSnapshot, of did: DID, _ epoch: UInt64) async throws -> Bool {
        var held = try await deliveredCIDs(of: did)
        guard isCurrent(did, epoch) else { return false }
        // Prepared in runs: nothing suspends between preparing an event and the run's delivery.
        var run = DeliveryRun(
            acknowledgements: ledger.acknowledgements(of: did), eventsAhead: configuration.maximumEventsAhead)
        if let repository = snapshot.repository {
            // Read in key order, each block handed over undecoded (the app's reader decodes it; a
            // record the app holds at that CID, or of a collection not wanted, is never decoded).
            var blocks = repository.recordBlocks
            let filtered = configuration.collections != nil
            while let (path, cid, block) = try blocks.next() {
                if filtered, !wants(path) { continue }
                let before = held.isEmpty ? nil : held.removeValue(forKey: path)
                if before == cid { continue }
                run.add(
                    prepare(
                        did, action: before == nil ? .create : .update, path: path, cid: cid, record: nil,
                        encodedRecord: block, historical: true, rev: snapshot.rev, sequence: nil,
                        holdsCursor: false, into: run.acknowledgements))
                if run.isFull { guard await handOver(&run, of: did, epoch) else { return false } }
            }
        } else {
            for (path, cid) in snapshot.index where wants(path) {
                let before = held.removeValue(forKey: path)
                if before == cid { continue }
                let collection = NSID(rawValue: String(path.prefix { $0 != "/" }))
                let record = try snapshot.read(path).map {
                    configuration.recordTypes.record($0, collection: collection)
                }
                run.add(
                    prepare(
                        did, action: before == nil ? .create : .update, path: path, cid: cid, record: record,
                        historical: true, rev: snapshot.rev, sequence: nil, holdsCursor: false,
                        into: run.acknowledgements))
                if run.isFull { guard await handOver(&run, of: did, epoch) else { return false } }
            }
        }
        for path in held.keys.sorted() {
            run.add(
                prepare(
                    did, action: .delete, path: path, cid: nil, record: nil, historical: true, rev: snapshot.rev,
                    sequence: nil, holdsCursor: false, into: run.acknowledgements))
            if run.isFull { guard await handOver(&run, of: did, epoch) else { return false } }
        }
        return await handOver(&run, of: did, epoch)
    }

    /// Delivers the held commits in order, then (the buffer empty, nothing awaited in between) the
    /// repository goes live.
    func drain(_ did: DID, _ epoch: UInt64) async {
        while isCurrent(did, epoch), let repo = repos[did] {
            if repo.bufferLost {
                await resync(
                    did, because: "live commits were dropped while it was fetched", sequence: nil, backoff: false)
                return
            }
            guard let commit = repo.buffer.first else {
                repos[did]?.status = .live
                repos[did]?.attempts = 0
                do {
                    try await enqueue(
                        RepoSyncState(status: .live, rev: repo.rev, data: repo.data), of: did, holding: nil)
                } catch {
                    await finish(throwing: error)
                }
                return
            }
            repos[did]?.buffer.removeFirst()
            switch await apply(commit, of: did, drained: true) {
            case .applied: continue
            case .stopped: return
            case .broken(let reason):
                await resync(did, because: reason, sequence: nil, backoff: true)
                return
            }
        }
    }

    /// A fetch failed: fetch again after a backoff, or give up after `maximumAttempts`.
    func retry(_ did: DID, _ epoch: UInt64, after reason: String) async {
        guard isCurrent(did, epoch), var repo = repos[did] else { return }
        repo.attempts += 1
        repo.buffer = []
        repos[did] = repo
        if repo.attempts >= configuration.maximumAttempts {
            repos[did]?.status = .failed
            repos[did]?.epoch += 1
            do {
                try await enqueue(RepoSyncState(status: .failed, reason: reason), of: did, holding: nil)
            } catch {
                await finish(throwing: error)
            }
            return
        }
        scheduleFetch(did, after: backoff(attempts: repo.attempts))
    }

    /// Sends `did` to resync: its commits are held from now and it is fetched again. `sequence`
    /// (the commit that did not follow) holds the cursor until the resync is saved.
    func resync(_ did: DID, because reason: String, sequence: Int?, backoff counted: Bool) async {
        guard var repo = repos[did] else { return }
        if counted { repo.attempts += 1 }
        repo.status = .resyncing
        repo.buffer = []
        repo.bufferLost = false
        repos[did] = repo
        counters.resyncs += 1
        scheduleFetch(did, after: counted ? backoff(attempts: repo.attempts) : .zero)
        do {
            try await enqueue(
                RepoSyncState(status: .resyncing, rev: repo.rev, data: repo.data, reason: reason), of: did,
                holding: sequence)
        } catch {
            await finish(throwing: error)
        }
    }

    nonisolated func backoff(attempts: Int) -> Duration {
        guard attempts > 0 else { return .zero }
        var delay = configuration.initialBackoff
        for _ in 1..<attempts where delay < configuration.maximumBackoff { delay *= 2 }
        return min(delay, configuration.maximumBackoff)
    }
}
