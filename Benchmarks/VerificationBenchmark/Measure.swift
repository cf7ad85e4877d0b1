import AtprotoCrypto
import AtprotoVerification
import BenchmarkSupport
import Foundation
import XRPCRuntime

/// Runs the comparisons over the frames and the repository and prints them.
func measure(frames: [Data], repository: Data) async throws {
    // Only the stream's commits: the repository's growth wrote 200 operations a commit.
    let frames = try frames.filter { data in
        guard case .message(_, let body) = try XRPCEventFrame(decoding: data), case .array(let ops)? = body["ops"]
        else {
            return false
        }
        return ops.count <= 3
    }
    guard !frames.isEmpty else { throw BenchFailure("the firehose sent no #commit frame") }
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
            + " over \(wantedRecords) records; \(rounds) alternating rounds")
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
            format: "  proved commit / one signature verification: %.2fx (target <= 1.25x)",
            proved.ours.median / signatures.ours.median))

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
