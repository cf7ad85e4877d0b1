// Backfill then live against the whole-repository verification of the same repository, from the shared
// PDS (scripts/pds.sh start): a repository of `records` records (posts and likes) fetched once, then in
// alternating rounds
//
// - the whole-repository verification: VerifiedRepository (hashes, signature, MST walk) and every
//   record decoded (`records(decoding: .bluesky)`);
// - the backfill: BackfillThenLive over a source that proves the same CAR (the same verification),
//   every record delivered as a historical event, acknowledged, saved in an InMemoryBackfillStateStore;
//
// the backfill again read in batches (`eventBatches`), each batch acknowledged at once (`acknowledge(_:)`),
// and the backfill again with no acknowledgement (the cost of delivery alone); each as the median over the
// rounds of the process's CPU time (every thread; other builds on the machine stretch wall time, not this)
// and of wall time, the backfill's CPU time over the verification's in the same round, the peak resident
// memory after one pass of each beside the CAR's size, and after a backfill of `repositories` repositories of
// that size (copies of the CAR under made-up DIDs, two fetched at once, into a store that keeps nothing): held
// a fetch at a time, the peak does not grow with their number; held all at once, it would by a CAR and its
// index each.
//
//     eval "$(scripts/pds.sh start)"
//     swift run -c release --package-path Benchmarks backfill-bench [records] [rounds] [repositories]   (10000, 7, 8)

import AtprotoBackfill
import Foundation
import XRPCRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let wantedRecords = arguments.first ?? 10_000
let rounds = arguments.dropFirst().first ?? 7
guard let pdsText = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], let pds = URL(string: pdsText) else {
    print("backfill-bench: set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\")")
    exit(1)
}

func fail(_ message: String) -> Never {
    print("backfill-bench: \(message)")
    exit(1)
}

/// The account of this benchmark, created on first use.
func session(handle: String, password: String) async throws -> (PasswordSession, DID) {
    let session = PasswordSession(service: pds)
    if let archive = try? await session.login(ATIdentifier(rawValue: handle), password: password) {
        return (session, archive.did)
    }
    _ = try await XRPCClient(agent: URLSessionAgent(serviceURL: pds)).com.atproto.server.createAccount(
        handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
    return (session, try await session.login(ATIdentifier(rawValue: handle), password: password).did)
}

/// Grows the repository to `count` records, 200 per applyWrites.
func grow(_ session: PasswordSession, _ did: DID, from existing: Int, to count: Int) async throws {
    var total = existing
    while total < count {
        let writes = (total..<min(count, total + 200)).map { index in
            let record =
                index % 3 == 0
                ? #"{"$type": "app.bsky.feed.post", "text": "backfill bench post \#(index)", "createdAt": "2026-11-25T00:00:00.000Z"}"#
                : #"{"$type": "app.bsky.feed.like", "subject": {"uri": "at://\#(did.rawValue)/app.bsky.feed.post/3kabcdefgh2\#(index % 10)", "cid": "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"}, "createdAt": "2026-11-25T00:00:00.000Z"}"#
            let collection = index % 3 == 0 ? "app.bsky.feed.post" : "app.bsky.feed.like"
            return
                #"{"$type": "com.atproto.repo.applyWrites#create", "collection": "\#(collection)", "value": \#(record)}"#
        }
        let body = #"{"repo": "\#(did.rawValue)", "writes": [\#(writes.joined(separator: ","))]}"#
        let response = try await session.send(
            XRPCRequest(
                method: .post, nsid: "com.atproto.repo.applyWrites", body: Data(body.utf8),
                contentType: "application/json"))
        guard response.isSuccess else { fail("applyWrites: HTTP \(response.status)") }
        total += writes.count
    }
}

/// Answers every fetch with the same CAR, proved as `VerifiedRepoSource` proves it.
struct FixedCARSource: RepoSnapshotSource {
    let car: Data
    let key: AtprotoPublicKey

    func snapshot(of did: DID) async throws -> RepoSnapshot {
        RepoSnapshot(try VerifiedRepository(car: car, did: did, key: key))
    }
}

/// Serves a copy of the same CAR, proved, for whichever repository is asked: many repositories of
/// the same size without writing them, each fetch holding its own bytes as a real fetch does.
struct CopiedCARSource: RepoSnapshotSource {
    let car: Data
    let did: DID
    let key: AtprotoPublicKey

    func snapshot(of asked: DID) async throws -> RepoSnapshot {
        let copy = car.withUnsafeBytes { Data($0) }
        return RepoSnapshot(try VerifiedRepository(car: copy, did: did, key: key))
    }
}

/// Keeps nothing: the memory of a backfill of many repositories without the app's state growing with them
/// (an in-memory store holds every record's CID, about 2 MB per 10,000-record repository).
struct DiscardingStateStore: BackfillStateStore {
    func cursor() async throws -> Int? { nil }
    func setCursor(_ cursor: Int) async throws {}
    func repositories() async throws -> [DID: RepoSyncState] { [:] }
    func setState(_ state: RepoSyncState, of repo: DID) async throws {}
    func removeRepository(_ repo: DID) async throws {}
    func recordCIDs(of repo: DID) async throws -> [String: CID] { [:] }
    func recordCID(at path: String, of repo: DID) async throws -> CID? { nil }
    func setRecordCID(_ cid: CID?, at path: String, of repo: DID) async throws {}
}

/// Backfills `repositories` repositories (copies of the CAR under made-up DIDs), acknowledging every
/// event: the peak memory after it, beside one repository's, says whether repositories are held
/// one fetch at a time or all at once.
func backfillMany(
    _ car: Data, _ did: DID, _ key: AtprotoPublicKey, resolver: any IdentityResolver, repositories: Int, each: Int
) async throws -> Int {
    var firehose = XRPCClient(agent: URLSessionAgent(serviceURL: pds))
    firehose.eventStreams.serviceURL = pds
    let engine = BackfillThenLive(
        firehose: firehose, resolver: resolver, store: DiscardingStateStore(),
        source: CopiedCARSource(car: car, did: did, key: key))
    try await engine.start()
    try await engine.add(repos: (0..<repositories).map { DID(rawValue: "did:plc:backfillbenchcopy\($0)") })
    var count = 0
    for try await event in engine.events {
        try await event.ack()
        count += 1
        if count == repositories * each { break }
    }
    await engine.stop()
    return count
}

func verifyWhole(_ car: Data, _ did: DID, _ key: AtprotoPublicKey) async throws -> Int {
    let repository = try VerifiedRepository(car: car, did: did, key: key)
    var count = 0
    for try await entry in repository.records(decoding: .bluesky) where !entry.path.isEmpty { count += 1 }
    return count
}

/// How the app of a backfill round reads and acknowledges.
enum Acknowledging {
    /// Each event read from `events` and acknowledged with `ack()`.
    case each
    /// Each batch read from `eventBatches` and acknowledged with `acknowledge(_:)`.
    case batches
    /// Each event read from `events`, none acknowledged.
    case none
}

func backfill(
    _ car: Data, _ did: DID, _ key: AtprotoPublicKey, resolver: any IdentityResolver, count expected: Int,
    acknowledging: Acknowledging = .each
) async throws -> Int {
    // The PDS's firehose is open but quiet: nothing writes during the rounds.
    var firehose = XRPCClient(agent: URLSessionAgent(serviceURL: pds))
    firehose.eventStreams.serviceURL = pds
    let engine = BackfillThenLive(
        firehose: firehose, resolver: resolver, store: InMemoryBackfillStateStore(),
        source: FixedCARSource(car: car, key: key))
    try await engine.start()
    try await engine.add(repos: [did])
    var count = 0
    if acknowledging == .batches {
        for try await batch in engine.eventBatches {
            try await engine.acknowledge(batch)
            count += batch.count
            if count >= expected { break }
        }
    } else {
        for try await event in engine.events {
            if acknowledging == .each { try await event.ack() }
            count += 1
            if count == expected { break }
        }
    }
    await engine.stop()
    return count
}

func peakResidentMB() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1_048_576
    #else
        return Double(usage.ru_maxrss) / 1_024
    #endif
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The CPU time of the process so far, every thread's, in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One round: elapsed time, and CPU time of the process (which other builders on the machine do not
/// inflate, where they stretch the elapsed time).
struct Measure {
    var wall: Double
    var cpu: Double
}

func measure(_ body: () async throws -> Void) async throws -> Measure {
    let clock = ContinuousClock()
    let cpu = processCPUSeconds()
    let wall = try await clock.measure { try await body() }
    return Measure(wall: seconds(wall), cpu: processCPUSeconds() - cpu)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

do {
    let (session, did) = try await session(handle: "backfillbench.test", password: "backfill-bench")
    let resolver = CachingIdentityResolver(
        wrapping: StandardIdentityResolver(
            handles: WellKnownHandleResolver(),
            dids: StandardDIDResolver(
                plc: PLCDirectoryResolver(directory: pds.appendingPathComponent("plc")), web: WebDIDResolver())))
    guard let key = try await resolver.resolveDID(did).signingKey() else { fail("no #atproto key") }
    func fetch() async throws -> Data {
        let response = try await session.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRepo",
                queryItems: [URLQueryItem(name: "did", value: did.rawValue)], timeout: .seconds(600)))
        guard response.isSuccess else { fail("getRepo: HTTP \(response.status)") }
        return response.body
    }
    var car = try await fetch()
    var existing = try VerifiedRepository(car: car, did: did, key: key).count
    if existing < wantedRecords {
        print("writing \(wantedRecords - existing) records...")
        try await grow(session, did, from: existing, to: wantedRecords)
        car = try await fetch()
        existing = try VerifiedRepository(car: car, did: did, key: key).count
    }
    let megabytes = Double(car.count) / 1_048_576
    print(String(format: "repository: %d records, CAR %.2f MB", existing, megabytes))

    let baseline = peakResidentMB()
    guard try await verifyWhole(car, did, key) == existing else { fail("the verification read another count") }
    let afterVerification = peakResidentMB()
    guard try await backfill(car, did, key, resolver: resolver, count: existing) == existing else {
        fail("the backfill delivered another count")
    }
    let afterBackfill = peakResidentMB()

    let repositories = arguments.dropFirst(2).first ?? 8
    guard
        try await backfillMany(car, did, key, resolver: resolver, repositories: repositories, each: existing)
            == repositories * existing
    else { fail("the backfill of \(repositories) repositories delivered another count") }
    let afterMany = peakResidentMB()

    var verification: [Measure] = []
    var backfills: [Measure] = []
    var batched: [Measure] = []
    var unacknowledged: [Measure] = []
    // BACKFILL_BENCH_ONLY=batches runs only the batched backfill's rounds: a profile of it alone.
    if ProcessInfo.processInfo.environment["BACKFILL_BENCH_ONLY"] == "batches" {
        for _ in 0..<rounds {
            _ = try await backfill(car, did, key, resolver: resolver, count: existing, acknowledging: .batches)
        }
        exit(0)
    }
    for _ in 0..<rounds {
        verification.append(try await measure { _ = try await verifyWhole(car, did, key) })
        backfills.append(
            try await measure { _ = try await backfill(car, did, key, resolver: resolver, count: existing) })
        batched.append(
            try await measure {
                _ = try await backfill(car, did, key, resolver: resolver, count: existing, acknowledging: .batches)
            })
        unacknowledged.append(
            try await measure {
                _ = try await backfill(car, did, key, resolver: resolver, count: existing, acknowledging: .none)
            })
    }
    print("median of \(rounds) rounds; CPU is the process's (every thread), wall is elapsed time")
    func line(_ name: String, _ measures: [Measure]) {
        let wall = median(measures.map(\.wall))
        let cpu = median(measures.map(\.cpu))
        var text = name.padding(toLength: 48, withPad: " ", startingAt: 0)
        text += String(format: "CPU %6.1f ms (%5.1f MB/s)  wall %6.1f ms", cpu * 1000, megabytes / cpu, wall * 1000)
        if measures.count == verification.count, name != "whole-repository verification + decode" {
            let ratios = zip(measures, verification).map { $0.cpu / $1.cpu }.sorted()
            text += String(
                format: "  CPU %.2fx the verification's (quartiles %.2f-%.2f)", median(ratios),
                ratios[ratios.count / 4], ratios[(ratios.count * 3) / 4])
        }
        print(text)
    }
    line("whole-repository verification + decode", verification)
    line("backfill (verify, decode, deliver, ack, store)", backfills)
    line("backfill, batches acknowledged (eventBatches)", batched)
    line("backfill, events not acknowledged", unacknowledged)
    print(
        String(
            format:
                "peak RSS: %.0f MB before, %.0f MB after one verification, %.0f MB after one backfill (CAR %.1f MB), "
                + "%.0f MB after a backfill of %d such repositories",
            baseline, afterVerification, afterBackfill, megabytes, afterMany, repositories))
} catch {
    fail("\(error)")
}
