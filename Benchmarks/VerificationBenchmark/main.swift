// Verification figures on realistic workloads from the shared PDS (scripts/pds.sh start), each
// beside a Python reference (libipld + hashlib + coincurve, doing what it can of the same work) in
// alternating rounds: the median CPU time per operation over the rounds, with the spread.
//
// - the firehose: #commit frames of one to three operations over a repository of `records` records
//   (see Workload for the shares assumed), decoded and proved by FirehoseVerifier (signature + the
//   sync 1.1 inversion), beside one signature verification per commit: the floor no verifier beats;
// - the whole repository (com.atproto.sync.getRepo): VerifiedRepository (hashes, signature, MST
//   walk) in MB/s, beside our own CAR read with hash checks.
//
//     eval "$(scripts/pds.sh start)"
//     swift run -c release --package-path Benchmarks verify-bench [records] [commits] [rounds]
//     (defaults 10000, 500, 11; records 100000 makes the large repository, once: writing takes minutes)
//
// VERIFY_BENCH_PROFILE=firehose (or repository) repeats that part alone for 20 s, for a profiler:
//     VERIFY_BENCH_PROFILE=firehose perf record -g Benchmarks/.build/release/verify-bench 10000 300

import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoVerification
import BenchmarkSupport
import Foundation
import HostFetching
import XRPCRuntime

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let wantedRecords = arguments.first ?? 10_000
let wantedCommits = arguments.dropFirst().first ?? 500
let rounds = arguments.dropFirst(2).first ?? 11
let environment = ProcessInfo.processInfo.environment
guard let pdsText = environment["ATPROTO_PDS_URL"], let pds = URL(string: pdsText) else {
    print("verify-bench: set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\")")
    exit(1)
}
let handle = environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"
let password = environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2"

func fail(_ message: String) -> Never {
    print("verify-bench: \(message)")
    exit(1)
}

let session = PasswordSession(service: pds)
let did: DID
do {
    did = try await session.login(ATIdentifier(rawValue: handle), password: password).did
} catch { fail("login: \(error)") }

func fetchRepository() async -> Data {
    do {
        let response = try await session.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRepo",
                queryItems: [URLQueryItem(name: "did", value: did.rawValue)],
                // The Python PDS takes tens of seconds to write a 100,000-record repository.
                timeout: .seconds(600)))
        guard response.isSuccess else { fail("getRepo: HTTP \(response.status)") }
        return response.body
    } catch { fail("getRepo: \(error)") }
}

// The account's key, resolved as an app would.
let resolver = CachingIdentityResolver(
    wrapping: StandardIdentityResolver(
        handles: WellKnownHandleResolver(transport: LocalHostTransport([handle: pds])),
        dids: StandardDIDResolver(
            plc: PLCDirectoryResolver(directory: pds.appendingPathComponent("plc")), web: WebDIDResolver())))
let key: AtprotoPublicKey
do {
    key = try await resolver.resolveIdentity(ATIdentifier(did)).signingKey()
} catch { fail("resolving \(did.rawValue): \(error)") }

// The workload: the repository grown to `wantedRecords`, then `wantedCommits` realistic commits.
func run() async throws {
    var workload = Workload(session: session, did: did)
    let existing = try VerifiedRepository(car: await fetchRepository(), did: did, key: key).count
    if existing < wantedRecords { print("writing \(wantedRecords - existing) records to \(handle)...") }
    try await workload.grow(from: existing, to: wantedRecords)
    let sequenceBefore = try await latestSequence()
    try await workload.commits(wantedCommits)
    let frames = try await commitFrames(after: sequenceBefore)
    let repository = await fetchRepository()
    try await measure(frames: frames, repository: repository, records: max(existing, wantedRecords))
}
do { try await run() } catch { fail("\(error)") }

/// The `#commit` frames with a sequence number above `sequence`, replayed from the PDS.
func commitFrames(after sequence: Int) async throws -> [Data] {
    var frames: [Data] = []
    try await replay(from: sequence) { data in
        if case .message(let type, _) = try XRPCEventFrame(decoding: data), type == "#commit" { frames.append(data) }
    }
    return frames
}

/// The sequence number of the newest event on the PDS (0 when none).
func latestSequence() async throws -> Int {
    var latest = 0
    try await replay(from: 0) { data in
        if case .message(_, let body) = try XRPCEventFrame(decoding: data), case .integer(let seq)? = body["seq"] {
            latest = max(latest, seq)
        }
    }
    return latest
}

/// Calls `handle` with each frame of subscribeRepos from `cursor` until the PDS is quiet for 2 s.
func replay(from cursor: Int, _ handle: (Data) throws -> Void) async throws {
    var components = URLComponents(url: pds, resolvingAgainstBaseURL: false)
    components?.scheme = pds.scheme == "https" ? "wss" : "ws"
    components?.path = "/xrpc/com.atproto.sync.subscribeRepos"
    components?.queryItems = [URLQueryItem(name: "cursor", value: String(cursor))]
    guard let url = components?.url else { fail("no WebSocket URL for \(pds)") }
    let connection = try await POSIXWebSocketTransport().connect(to: url, headers: [:])
    defer { connection.close(code: .normalClosure, reason: "") }
    while true {
        let next = try await withThrowingTaskGroup(of: XRPCWebSocketMessage?.self) { group in
            group.addTask { try await connection.receive() }
            group.addTask {
                try await Task.sleep(for: .seconds(2))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard case .binary(let data)? = next else { return }
        try handle(data)
    }
}
