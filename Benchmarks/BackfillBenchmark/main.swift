// Backfill then live against the whole-repository verification of the same repository, from the shared
// PDS (scripts/pds.sh start): a repository of `records` records (posts and likes) fetched once, then in
// alternating rounds
//
// - the whole-repository verification: VerifiedRepository (hashes, signature, MST walk) and every
//   record decoded (`records(decoding: .bluesky)`);
// - the backfill: BackfillThenLive over a source that proves the same CAR (the same verification),
//   every record delivered as a historical event, acknowledged, saved in an InMemoryBackfillStateStore;
//
// and the backfill again with no acknowledgement (the cost of delivery alone); each in MB/s of CAR (median wall time over the rounds), their ratio, and the peak resident memory
// after one pass of each beside the CAR's size.
//
//     eval "$(scripts/pds.sh start)"
//     swift run -c release --package-path Benchmarks backfill-bench [records] [rounds]   (10000, 7)

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

func verifyWhole(_ car: Data, _ did: DID, _ key: AtprotoPublicKey) async throws -> Int {
    let repository = try VerifiedRepository(car: car, did: did, key: key)
    var count = 0
    for try await entry in repository.records(decoding: .bluesky) where !entry.path.isEmpty { count += 1 }
    return count
}

func backfill(
    _ car: Data, _ did: DID, _ key: AtprotoPublicKey, resolver: any IdentityResolver, count expected: Int,
    ack: Bool = true
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
    for try await event in engine.events {
        if ack { try await event.ack() }
        count += 1
        if count == expected { break }
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

    let clock = ContinuousClock()
    var verification: [Double] = []
    var backfills: [Double] = []
    var unacknowledged: [Double] = []
    for _ in 0..<rounds {
        verification.append(seconds(try await clock.measure { _ = try await verifyWhole(car, did, key) }))
        backfills.append(
            seconds(
                try await clock.measure { _ = try await backfill(car, did, key, resolver: resolver, count: existing) }))
        unacknowledged.append(
            seconds(
                try await clock.measure {
                    _ = try await backfill(car, did, key, resolver: resolver, count: existing, ack: false)
                }))
    }
    let medianVerification = verification.sorted()[rounds / 2]
    let medianBackfill = backfills.sorted()[rounds / 2]
    print(
        String(
            format: "whole-repository verification + decode: %.1f MB/s (median %.1f ms of %d rounds)",
            megabytes / medianVerification, medianVerification * 1000, rounds))
    print(
        String(
            format:
                "backfill (verify, decode, deliver, ack, store):  %.1f MB/s (median %.1f ms), %.2fx the verification",
            megabytes / medianBackfill, medianBackfill * 1000, medianBackfill / medianVerification))
    let medianUnacknowledged = unacknowledged.sorted()[rounds / 2]
    print(
        String(
            format:
                "backfill, events not acknowledged:              %.1f MB/s (median %.1f ms), %.2fx the verification",
            megabytes / medianUnacknowledged, medianUnacknowledged * 1000, medianUnacknowledged / medianVerification))
    print(
        String(
            format:
                "peak RSS: %.0f MB before, %.0f MB after one verification, %.0f MB after one backfill (CAR %.1f MB)",
            baseline, afterVerification, afterBackfill, megabytes))
} catch {
    fail("\(error)")
}
