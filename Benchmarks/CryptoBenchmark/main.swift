// ECDSA verifications per second on one core, for secp256k1 and P-256, beside libsecp256k1
// (Python coincurve) and OpenSSL (Python cryptography) doing the same work in the same run:
//
//     swift run -c release crypto-bench [seconds per measurement, default 2]
//
// The reference libraries run from the venv of scripts/pds.sh (.build/pds-venv/bin/python, or the
// python named by CRYPTO_BENCH_PYTHON); without it only the Swift figures are printed.
import AtprotoCrypto
import Foundation

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 2

/// One signature to verify, decoded.
struct Sample {
    var key: PublicKey
    var message: [UInt8]
    var signature: [UInt8]
}

func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
    }
}

func samples(_ curve: KeyCurve) -> [Sample] {
    benchmarkVectors.filter { $0.curve == curve.rawValue }.compactMap { vector in
        guard let key = try? PublicKey(sec1: bytes(vector.publicKey), curve: curve) else { return nil }
        return Sample(key: key, message: bytes(vector.message), signature: bytes(vector.r + vector.s))
    }
}

/// Verifications per second of the Swift implementation over `samples`, for about `seconds`.
func swiftRate(_ samples: [Sample]) -> Double? {
    // Every sample must verify, or the figure means nothing.
    guard !samples.isEmpty, samples.allSatisfy({ $0.key.isValidSignature($0.signature, for: $0.message) }) else {
        return nil
    }
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    var valid = 0
    while clock.now - start < .seconds(seconds) {
        for sample in samples where sample.key.isValidSignature(sample.signature, for: sample.message) {
            valid += 1
        }
        count += samples.count
    }
    let elapsed = clock.now - start
    guard valid == count else { return nil }
    return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
}

func line(_ label: String, _ rate: Double?) -> String {
    let name = label.padding(toLength: 42, withPad: " ", startingAt: 0)
    guard let rate else { return "\(name) (not measured)" }
    let perSecond = String(format: "%9.0f verifications/s", rate)
    return "\(name) \(perSecond)  \(String(format: "%6.1f", 1e6 / rate)) µs each"
}

func ratio(_ swift: Double?, _ reference: Double?, _ label: String) -> String {
    guard let swift, let reference, reference > 0 else { return "\(label): n/a" }
    return "\(label): \(String(format: "%.2f", swift / reference))x"
}

print("crypto-bench: ECDSA verify (SHA-256 of a short message included), one core, \(seconds) s per figure")
let k256 = swiftRate(samples(.secp256k1))
let p256 = swiftRate(samples(.p256))
if k256 == nil || p256 == nil {
    print("error: a benchmark signature did not verify; the figures below are not comparable")
}
print(line("AtprotoCrypto secp256k1 (Swift)", k256))
print(line("AtprotoCrypto P-256 (Swift)", p256))

switch ReferenceLibraries.measure(vectors: benchmarkVectors, seconds: seconds) {
case .success(let rates):
    print(line("libsecp256k1 secp256k1 (coincurve)", rates["coincurve-secp256k1"]))
    print(line("OpenSSL secp256k1 (cryptography)", rates["openssl-secp256k1"]))
    print(line("OpenSSL P-256 (cryptography)", rates["openssl-p256"]))
    print(ratio(k256, rates["coincurve-secp256k1"], "ratio secp256k1 Swift / libsecp256k1"))
    print(ratio(k256, rates["openssl-secp256k1"], "ratio secp256k1 Swift / OpenSSL"))
    print(ratio(p256, rates["openssl-p256"], "ratio P-256 Swift / OpenSSL"))
case .failure(let note):
    print("note: reference libraries not measured: \(note.message)")
}
