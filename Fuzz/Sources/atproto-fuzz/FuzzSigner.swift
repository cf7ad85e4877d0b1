import AtprotoData
import Foundation

@testable import AtprotoCrypto

/// A signing key for the server harnesses' tokens, made with AtprotoCrypto's own curve arithmetic
/// (reached through `@testable`, as the package signs nothing): so that fuzzed claims get a valid
/// signature and the verifier's checks after the signature (replay, remembered keys) are reached.
/// Deterministic (the key from a seed, each nonce from the key and the digest), not constant-time,
/// for fuzzing only. The same construction as the server tests' `TestSigningKey`.
struct FuzzSigningKey: Sendable {
    let curve: AtprotoKeyCurve
    let secret: UInt256
    let publicKey: AtprotoPublicKey

    init?(curve: AtprotoKeyCurve, seed: String) {
        self.curve = curve
        let digest = sha256(Array(seed.utf8))
        let point: [UInt8]
        switch curve {
        case .secp256k1:
            secret = Secp256k1.Scalar(reducing: UInt256(bigEndian: digest) ?? .one).value
            point = Self.publicPoint(secret, Secp256k1.self)
        case .p256:
            secret = P256.Scalar(reducing: UInt256(bigEndian: digest) ?? .one).value
            point = Self.publicPoint(secret, P256.self)
        }
        guard let key = try? AtprotoPublicKey(sec1: point, curve: curve) else { return nil }
        self.publicKey = key
    }

    /// `alg` for this key's curve.
    var algorithm: String { curve == .secp256k1 ? "ES256K" : "ES256" }

    /// A compact, low-S r||s signature of SHA-256(`message`).
    func sign(_ message: [UInt8]) -> [UInt8] {
        let digest = sha256(message)
        switch curve {
        case .secp256k1: return Self.sign(digest, secret: secret, Secp256k1.self)
        case .p256: return Self.sign(digest, secret: secret, P256.self)
        }
    }

    private static func publicPoint<Curve: ShortWeierstrassCurve>(_ secret: UInt256, _: Curve.Type) -> [UInt8] {
        Curve.linearCombination(secret, .zero, Curve.generator).affine?.uncompressedBytes ?? []
    }

    private static func sign<Curve: ShortWeierstrassCurve>(_ digest: [UInt8], secret: UInt256, _: Curve.Type)
        -> [UInt8]
    {
        let e = Curve.Scalar(reducing: UInt256(bigEndian: digest) ?? .zero)
        let d = Curve.Scalar(reducing: secret)
        let halfOrder = Curve.OrderModulus.modulus.shiftedRightOne()
        var counter: UInt8 = 0
        while true {
            let nonce = Curve.Scalar(
                reducing: UInt256(bigEndian: sha256(secret.bigEndianBytes + digest + [counter])) ?? .one)
            counter &+= 1
            guard !nonce.isZero, let point = Curve.linearCombination(nonce.value, .zero, Curve.generator).affine
            else { continue }
            let r = Curve.Scalar(reducing: point.x.value)
            guard !r.isZero else { continue }
            var s = nonce.inverse() * (e + r * d)
            guard !s.isZero else { continue }
            if halfOrder < s.value { s = -s }
            return r.value.bigEndianBytes + s.value.bigEndianBytes
        }
    }
}

/// SHA-256 (SHA2's own type is package-internal; a CID's digest is the same hash).
func sha256(_ bytes: [UInt8]) -> [UInt8] {
    Array(CID(sha256Of: bytes).digest)
}

/// base64url without padding.
func fuzzBase64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}
