// ECDSA verification and SHA-256 on one core, beside libsecp256k1 (Python coincurve) and OpenSSL
// (Python cryptography, hashlib) doing the same work in a child process, in alternating rounds:
// each figure is the median CPU time per operation over the rounds, with its interquartile spread.
//
//     swift run -c release --package-path Benchmarks crypto-bench [rounds, default 15]
//
// The references run from the venv of scripts/pds.sh (.build/pds-venv/bin/python, or $BENCH_PYTHON);
// without it only our figures are printed. The Python side pays its interpreter's call overhead on
// each verification and each small hash (about 0.1-0.3 µs a call): negligible beside a verification
// or a 16 MB hash, not beside a 250-byte hash. Our SHA-256 is measured as apps reach it, through
// `CID(sha256Of:)` (the hash and a 36-byte CID around it).
import AtprotoCrypto
import AtprotoData
import BenchmarkSupport
import Foundation

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 15

/// One signature to verify, decoded.
struct Sample {
    var key: AtprotoPublicKey
    var message: [UInt8]
    var signature: [UInt8]
}

func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
    }
}

func samples(_ curve: AtprotoKeyCurve) -> [Sample] {
    benchmarkVectors.filter { $0.curve == curve.rawValue }.compactMap { vector in
        guard let key = try? AtprotoPublicKey(sec1: bytes(vector.publicKey), curve: curve) else { return nil }
        return Sample(key: key, message: bytes(vector.message), signature: bytes(vector.r + vector.s))
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// Verifies every sample `repeats` times; any rejection is an error (the figure would mean nothing).
func verifyAll(_ samples: [Sample], repeats: Int) throws {
    for _ in 0..<repeats {
        for sample in samples where !sample.key.isValidSignature(sample.signature, for: sample.message) {
            throw Failure(description: "a benchmark signature did not verify")
        }
    }
}

let largeBytes = 16 << 20
let smallBytes = 250
let smallCount = 2000
let large = (0..<largeBytes).map { UInt8($0 % 251) }
let small = (0..<smallCount).map { index in (0..<smallBytes).map { UInt8((index + $0) % 251) } }

let reference: ReferenceProcess?
var referenceNote: String?
do {
    reference = try ReferenceProcess(
        script: referenceScript,
        inputData: referenceInput(largeBytes: largeBytes, smallBytes: smallBytes, smallCount: smallCount))
} catch {
    reference = nil
    referenceNote = "\(error)"
}

/// The last byte of `cid` (its digest's), so that the hash is not optimized away.
func digestByte(_ cid: CID) -> UInt8 {
    cid.withUnsafeBytes { $0.last ?? 0 }
}

/// The reference's round of `task` (`count` calls), or nil without a reference.
@MainActor func theirs(_ task: String, _ count: Int) -> (() throws -> Double)? {
    guard let reference else { return nil }
    return { try reference.run(task, count: count) }
}

print("crypto-bench: median CPU time per operation over \(rounds) alternating rounds (ours, then the reference)")
if let referenceNote { print("note: references not measured: \(referenceNote)") }
do {
    var sink: UInt8 = 0
    let hashLarge = try alternatingRounds(
        rounds: rounds, operations: 1, ours: { sink ^= digestByte(CID(sha256Of: large)) },
        reference: theirs("sha256-large", 1))
    print("SHA-256 of 16 MB:")
    Report(unit: "hashes", bytesPerOperation: largeBytes).lines(
        hashLarge, ours: "  CID(sha256Of:) (ours)", reference: "  OpenSSL (hashlib)"
    ).forEach { print($0) }
    let hashSmall = try alternatingRounds(
        rounds: rounds, operations: smallCount,
        ours: { for block in small { sink ^= digestByte(CID(sha256Of: block)) } },
        reference: theirs("sha256-small", 1))
    print("SHA-256 of \(smallBytes)-byte blocks (a record's size), \(smallCount) per round:")
    Report(unit: "hashes", bytesPerOperation: smallBytes).lines(
        hashSmall, ours: "  CID(sha256Of:) (ours)", reference: "  OpenSSL (hashlib)",
        note: "nothing; it pays Python's call overhead on each block"
    ).forEach { print($0) }

    let repeats = 25
    for (curve, name, task, label) in [
        (AtprotoKeyCurve.secp256k1, "secp256k1", "libsecp256k1", "libsecp256k1 (coincurve)"),
        (AtprotoKeyCurve.secp256k1, "secp256k1", "openssl-k256", "OpenSSL (cryptography)"),
        (AtprotoKeyCurve.p256, "P-256", "openssl-p256", "OpenSSL (cryptography)"),
    ] {
        let set = samples(curve)
        let comparison = try alternatingRounds(
            rounds: rounds, operations: set.count * repeats, ours: { try verifyAll(set, repeats: repeats) },
            reference: theirs(task, repeats))
        print("ECDSA verify, \(name) (SHA-256 of a short message included):")
        Report(unit: "verifications").lines(comparison, ours: "  AtprotoCrypto (ours)", reference: "  \(label)")
            .forEach { print($0) }
    }
    if sink == 0xFF { print("") }
} catch {
    print("crypto-bench: \(error)")
    exit(1)
}
