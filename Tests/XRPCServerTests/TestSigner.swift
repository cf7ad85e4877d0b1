import AtprotoData
import Foundation
import SHA2

@testable import AtprotoCrypto

/// A signing key for test tokens only, made with AtprotoCrypto's own curve arithmetic (`@testable`):
/// the package signs nothing and holds no private key, so the tests bring this one. Deterministic:
/// the key comes from a seed, each nonce from the key and the message. Not constant-time, not for use
/// outside tests.
struct TestSigningKey: Sendable {
    let curve: AtprotoKeyCurve
    let secret: UInt256
    let publicKey: AtprotoPublicKey

    init(curve: AtprotoKeyCurve, seed: String) throws {
        self.curve = curve
        let secret = Self.reduced(SHA256.hash(Array(seed.utf8)), curve: curve)
        self.secret = secret
        let point: [UInt8]
        switch curve {
        case .secp256k1: point = Self.publicPoint(secret, Secp256k1.self)
        case .p256: point = Self.publicPoint(secret, P256.self)
        }
        self.publicKey = try AtprotoPublicKey(sec1: point, curve: curve)
    }

    /// The `#atproto` multikey of a DID document.
    var multikey: String { publicKey.multikey }

    /// A compact r||s signature of SHA-256(`message`): low-S, or its high-S twin (valid ECDSA that
    /// atproto refuses) when `highS` is set.
    func sign(_ message: [UInt8], highS: Bool = false) -> [UInt8] {
        let digest = SHA256.hash(message)
        switch curve {
        case .secp256k1: return Self.sign(digest, secret: secret, highS: highS, Secp256k1.self)
        case .p256: return Self.sign(digest, secret: secret, highS: highS, P256.self)
        }
    }

    private static func reduced(_ bytes: [UInt8], curve: AtprotoKeyCurve) -> UInt256 {
        let value = UInt256(bigEndian: bytes) ?? .one
        switch curve {
        case .secp256k1: return Secp256k1.Scalar(reducing: value).value
        case .p256: return P256.Scalar(reducing: value).value
        }
    }

    private static func publicPoint<Curve: ShortWeierstrassCurve>(_ secret: UInt256, _: Curve.Type) -> [UInt8] {
        guard let point = Curve.linearCombination(secret, .zero, Curve.generator).affine else { return [] }
        return point.uncompressedBytes
    }

    private static func sign<Curve: ShortWeierstrassCurve>(
        _ digest: [UInt8], secret: UInt256, highS: Bool, _: Curve.Type
    ) -> [UInt8] {
        let n = Curve.OrderModulus.modulus
        let e = Curve.Scalar(reducing: UInt256(bigEndian: digest) ?? .zero)
        let d = Curve.Scalar(reducing: secret)
        var counter: UInt8 = 0
        while true {
            let nonce = Curve.Scalar(
                reducing: UInt256(bigEndian: SHA256.hash(secret.bigEndianBytes + digest + [counter])) ?? .one)
            counter &+= 1
            guard !nonce.isZero, let point = Curve.linearCombination(nonce.value, .zero, Curve.generator).affine
            else { continue }
            let r = Curve.Scalar(reducing: point.x.value)
            guard !r.isZero else { continue }
            var s = nonce.inverse() * (e + r * d)
            guard !s.isZero else { continue }
            let halfN = n.shiftedRightOne()
            let isHigh = halfN < s.value
            if isHigh != highS { s = -s }
            return r.value.bigEndianBytes + s.value.bigEndianBytes
        }
    }
}

/// Compact JWS (`header.payload.signature`) service-auth tokens, signed by a test key.
enum TestTokens {
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A token with `claims`, `alg` as given (by default the key's), signed by `key`; `extraHeader`
    /// adds JOSE header parameters (`crit`, `kid`...).
    static func make(
        _ claims: [String: JSONValue], key: TestSigningKey, alg: String? = nil, typ: String? = "JWT",
        highS: Bool = false, extraHeader: [String: JSONValue] = [:]
    ) -> String {
        var header: [String: JSONValue] = ["alg": .string(alg ?? (key.curve == .secp256k1 ? "ES256K" : "ES256"))]
        if let typ { header["typ"] = .string(typ) }
        header.merge(extraHeader) { _, extra in extra }
        let signed =
            base64URL(Array(JSONValue.object(header).serialized())) + "."
            + base64URL(Array(JSONValue.object(claims).serialized()))
        return signed + "." + base64URL(key.sign(Array(signed.utf8), highS: highS))
    }
}
