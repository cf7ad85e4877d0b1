// Verification figures against the shared PDS (scripts/pds.sh start), each beside its anchor in the
// same run:
//
// - a whole repository (com.atproto.sync.getRepo): VerifiedRepository (hashes, signature, MST walk)
//   and reading every record, in MB/s, against parsing the same CAR with hash checks alone;
// - the firehose: #commit frames decoded and proved by FirehoseVerifier (signature + sync 1.1
//   inversion) per second, against the same frames decoded only.
//
//     eval "$(scripts/pds.sh start)"; swift run -c release verify-bench [records] [runs]

import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoVerification
import Foundation
import XRPCRuntime

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let wantedRecords = arguments.first ?? 2000
let runs = arguments.dropFirst().first ?? 5
let environment = ProcessInfo.processInfo.environment
guard let pdsText = environment["ATPROTO_PDS_URL"], let pds = URL(string: pdsText) else {
    print("verify-bench: set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\")")
    exit(1)
}
let handle = environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"
let password = environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2"

func seconds(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func best(_ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        fastest = min(fastest, seconds(start))
    }
    return fastest
}

func fail(_ message: String) -> Never {
    print("verify-bench: \(message)")
    exit(1)
}

let session = PasswordSession(service: pds)
let did: DID
do {
    did = try await session.login(ATIdentifier(rawValue: handle), password: password).did
} catch { fail("login: \(error)") }

func send(_ request: XRPCRequest) async -> XRPCResponse {
    do {
        let response = try await session.send(request)
        guard response.isSuccess else { fail("\(request.nsid): HTTP \(response.status)") }
        return response
    } catch { fail("\(request.nsid): \(error)") }
}

// Grow the repository to `wantedRecords` posts, 100 per applyWrites.
let listed = await send(
    XRPCRequest(
        method: .get, nsid: "com.atproto.sync.getRepo", queryItems: [URLQueryItem(name: "did", value: did.rawValue)]))
var existing = (try? CARFile(reading: listed.body).blocks.count) ?? 0
while existing < wantedRecords {
    let writes = (0..<100).map { index in
        #"{"$type": "com.atproto.repo.applyWrites#create", "collection": "app.bsky.feed.post", "value": {"$type": "app.bsky.feed.post", "text": "bench \#(existing + index)", "createdAt": "2026-11-25T00:00:00.000Z"}}"#
    }
    let body = #"{"repo": "\#(did.rawValue)", "writes": [\#(writes.joined(separator: ","))]}"#
    _ = await send(
        XRPCRequest(
            method: .post, nsid: "com.atproto.repo.applyWrites", body: Data(body.utf8), contentType: "application/json")
    )
    existing += 100
}

// The account's key, resolved as an app would.
let resolver = CachingIdentityResolver(
    wrapping: StandardIdentityResolver(
        handles: WellKnownHandleResolver(hostOverrides: HostOverrides([handle: pds])),
        dids: StandardDIDResolver(
            plc: PLCDirectoryResolver(directory: pds.appendingPathComponent("plc")), web: WebDIDResolver())))
let key: PublicKey
do {
    key = try await resolver.resolveIdentity(ATIdentifier(did)).signingKey()
} catch { fail("resolving \(did.rawValue): \(error)") }

// 1. A whole repository.
let repo = await send(
    XRPCRequest(
        method: .get, nsid: "com.atproto.sync.getRepo", queryItems: [URLQueryItem(name: "did", value: did.rawValue)]))
let megabytes = Double(repo.body.count) / 1_000_000
do {
    let parse = try best { _ = try CARFile(reading: repo.body, verifyingHashes: true) }
    var count = 0
    let verify = try best {
        let verified = try VerifiedRepository(car: repo.body, did: did, key: key)
        count = verified.count
    }
    var readAll = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        let verified = try VerifiedRepository(car: repo.body, did: did, key: key)
        for try await _ in verified.records() {}
        readAll = min(readAll, seconds(start))
    }
    print("whole repository (\(count) records, \(String(format: "%.2f", megabytes)) MB, best of \(runs)):")
    print(
        String(
            format: "  proved: %.1f MB/s (%.1f ms); with every record read: %.1f MB/s", megabytes / verify,
            verify * 1e3, megabytes / readAll))
    print(
        String(
            format: "  anchor: CAR parsed with hash checks only %.1f MB/s; proving costs %.2fx the anchor's time",
            megabytes / parse, verify / parse))
} catch { fail("repository: \(error)") }

// 2. The firehose: every #commit frame the PDS has, replayed from the start.
var frames: [Data] = []
do {
    var components = URLComponents(url: pds, resolvingAgainstBaseURL: false)
    components?.scheme = pds.scheme == "https" ? "wss" : "ws"
    components?.path = "/xrpc/com.atproto.sync.subscribeRepos"
    components?.queryItems = [URLQueryItem(name: "cursor", value: "0")]
    guard let url = components?.url else { fail("no WebSocket URL for \(pds)") }
    let connection = try await POSIXWebSocketTransport().connect(to: url, headers: [:])
    while frames.count < 5000 {
        let next = try await withThrowingTaskGroup(of: WebSocketMessage?.self) { group in
            group.addTask { try await connection.receive() }
            group.addTask {
                try await Task.sleep(for: .seconds(2))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard case .binary(let data)? = next else { break }
        if case .message(let type, _) = try XRPCEventFrame(decoding: data), type == "#commit" { frames.append(data) }
    }
    connection.close(code: .normalClosure, reason: "")
} catch { fail("firehose: \(error)") }
guard !frames.isEmpty else { fail("the firehose sent no #commit frame") }
let verifier = FirehoseVerifier(resolver: resolver)
do {
    let bodies = try frames.map { data -> [String: DataModelValue] in
        guard case .message(_, let body) = try XRPCEventFrame(decoding: data) else { return [:] }
        return body
    }
    for body in bodies {
        _ = try await verifier.check(type: "#commit", body: body, nsid: "com.atproto.sync.subscribeRepos")
    }
    let decodeOnly = try best { for data in frames { _ = try XRPCEventFrame(decoding: data) } }
    var proved = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        for data in frames {
            guard case .message(let type, let body) = try XRPCEventFrame(decoding: data) else { continue }
            guard try await verifier.check(type: type, body: body, nsid: "com.atproto.sync.subscribeRepos") else {
                fail("a commit failed")
            }
        }
        proved = min(proved, seconds(start))
    }
    let count = Double(frames.count)
    print("firehose (\(frames.count) #commit frames of this PDS, signed with secp256k1, best of \(runs)):")
    print(String(format: "  proved: %.0f commits/s (%.1f µs each)", count / proved, proved / count * 1e6))
    print(
        String(
            format: "  anchor: decoded only %.0f commits/s; proving costs %.1fx the anchor's time", count / decodeOnly,
            proved / decodeOnly))
} catch { fail("firehose verification: \(error)") }
