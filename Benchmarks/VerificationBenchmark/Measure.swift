import AtprotoCrypto
import AtprotoVerification
import BenchmarkSupport
import Foundation
import XRPCRuntime

/// Runs the comparisons over the frames and the repository and prints them.
/// `records` is how many records the account held before the stream's commits (at least the number
/// asked for: an account grown by an earlier run keeps its records).
func measure(frames: [Data], repository: Data, records: Int) async throws {
    // Only the stream's commits: the repository's growth wrote 200 operations a commit.
    let frames = try frames.filter { data in
        guard case .message(_, let body) = try XRPCEventFrame(decoding: data), case .array(let ops)? = body["ops"]
        else {
            return false
        }
        return ops.count <= 3
    }
    guard !frames.isEmpty else { throw BenchFailure("the firehose sent no #commit frame") }
    // For xrpc-bench (XRPC_BENCH_FRAMES): the frames, each after its length as 4 bytes big-endian.
    if let path = ProcessInfo.processInfo.environment["VERIFY_BENCH_SAVE_FRAMES"] {
        var data = Data()
        for frame in frames {
            withUnsafeBytes(of: UInt32(frame.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(frame)
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
    if let part = ProcessInfo.processInfo.environment["VERIFY_BENCH_PROFILE"] {
        return try await profile(part, frames: frames, repository: repository)
    }
    let reference: ReferenceProcess?
    do {
        reference = try ReferenceProcess(
            script: referenceScript,
            inputData: referenceInput(key: key.compressedBytes, repository: repository, frames: frames))
    } catch {
        reference = nil
        print("note: references not measured: \(error)")
    }
    // The firehose rounds count the process's CPU time (async work changes threads): say what the
    // process spends while idle, which those figures include.
    let idleStart = processCPUTime()
    try await Task.sleep(for: .seconds(1))
    print(
        String(
            format: "process CPU while idle: %.1f ms/s (counted in the firehose figures)",
            (processCPUTime() - idleStart) * 1e3))
    let verifier = FirehoseVerifier(resolver: resolver)
    var commits: [SignedCommit] = []
    var operations = 0
    for data in frames {
        guard case .message(let type, let body) = try XRPCEventFrame(decoding: data),
            case .bytes(let blocks)? = body["blocks"], case .link(let root)? = body["commit"],
            case .array(let ops)? = body["ops"]
        else { throw BenchFailure("a #commit frame without blocks, commit or ops") }
        guard try await verifier.check(type: type, body: body, nsid: "com.atproto.sync.subscribeRepos") else {
            throw BenchFailure("a commit failed")
        }
        let car = try CARFile(reading: blocks)
        guard let block = car.blocks.first(where: { $0.cid == root }) else { throw BenchFailure("no commit block") }
        commits.append(try SignedCommit(block: block.bytes, cid: root))
        operations += ops.count
    }
    let bytes = frames.reduce(0) { $0 + $1.count }
    print(
        "firehose: \(frames.count) #commit frames (\(operations) operations, \(bytes / frames.count) bytes a frame)"
            + " over \(records) records; \(rounds) alternating rounds")
    let proved = try await alternatingAsyncRounds(
        rounds: rounds, operations: frames.count,
        ours: {
            for data in frames {
                guard case .message(let type, let body) = try XRPCEventFrame(decoding: data),
                    try await verifier.check(type: type, body: body, nsid: "com.atproto.sync.subscribeRepos")
                else { throw BenchFailure("a commit failed") }
            }
        },
        reference: reference.map { process in { try process.run("firehose", count: 1) } })
    let report = Report(unit: "commits")
    report.lines(
        proved, ours: "  proved (FirehoseVerifier)", reference: "  libipld + hashlib + coincurve",
        note: "the MST inversion (that the operations turn prevData into data) and the DID-to-key lookup"
    ).forEach { print($0) }
    let signatures = alternatingRounds(
        rounds: rounds, operations: commits.count,
        ours: { for commit in commits where !commit.isSigned(by: key) { print("a signature failed") } },
        reference: nil)
    print(report.line("  floor: one signature verification a commit", signatures.ours))
    print(
        String(
            format: "  proved commit / one signature verification: %.2fx (target <= 1.5x)",
            proved.ours.median / signatures.ours.median))
    // What no verifier that hands the app checked blocks can skip beside the signature: one SHA-256
    // of every block in the frame (the inversion then hashes the nodes it rewrites, on top).
    let frameBlocks = try frames.map { data -> [(CID, Data)] in
        guard case .message(_, let body) = try XRPCEventFrame(decoding: data), case .bytes(let blocks)? = body["blocks"]
        else { throw BenchFailure("a #commit frame without blocks") }
        return try CARFile(reading: blocks).blocks.map { ($0.cid, Data($0.bytes)) }
    }
    let hashes = try alternatingRounds(
        rounds: rounds, operations: frames.count,
        ours: {
            for blocks in frameBlocks {
                for (cid, content) in blocks where try !cid.matches(content) { print("a block's hash failed") }
            }
        },
        reference: nil)
    let floor = signatures.ours.median + hashes.ours.median
    print(report.line("  SHA-256 of every block of the frame", hashes.ours))
    print(
        String(
            format: "  floor with the hashes: %.2f µs = %.2fx one signature; ours beyond it: %.2f µs",
            floor * 1e6, floor / signatures.ours.median, (proved.ours.median - floor) * 1e6))

    print("whole repository: \(repository.count) bytes; \(rounds) alternating rounds")
    var count = 0
    let whole = try alternatingRounds(
        rounds: rounds, operations: 1,
        ours: { count = try VerifiedRepository(car: repository, did: did, key: key).count },
        reference: reference.map { process in { try process.run("repository", count: 1) } })
    let mb = Report(unit: "repositories", bytesPerOperation: repository.count)
    mb.lines(
        whole, ours: "  proved (VerifiedRepository, \(count) records)", reference: "  libipld + hashlib + coincurve",
        note: "the MST walk (keys, order, heights, completeness); it decodes every block, we decode the MST"
    ).forEach { print($0) }
    let anchor = try alternatingRounds(
        rounds: rounds, operations: 1, ours: { _ = try CARFile(reading: repository, verifyingHashes: true) },
        reference: nil)
    print(mb.line("  anchor: our CAR read with hash checks", anchor.ours))
}

/// For a profiler (`perf record -g`): repeats one part (`firehose` or `repository`) for 20 s of CPU
/// time with nothing else running, and prints its mean time.
func profile(_ part: String, frames: [Data], repository: Data) async throws {
    let verifier = FirehoseVerifier(resolver: resolver)
    let start = processCPUTime()
    var count = 0
    while processCPUTime() - start < 20 {
        switch part {
        case "firehose":
            for data in frames {
                guard case .message(let type, let body) = try XRPCEventFrame(decoding: data),
                    try await verifier.check(type: type, body: body, nsid: "com.atproto.sync.subscribeRepos")
                else { throw BenchFailure("a commit failed") }
            }
            count += frames.count
        case "repository":
            _ = try VerifiedRepository(car: repository, did: did, key: key)
            count += 1
        default: throw BenchFailure("VERIFY_BENCH_PROFILE is firehose or repository, not \(part)")
        }
    }
    print(
        String(
            format: "profiled %@: %d runs, %.2f µs each", part, count, (processCPUTime() - start) / Double(count) * 1e6)
    )
}
