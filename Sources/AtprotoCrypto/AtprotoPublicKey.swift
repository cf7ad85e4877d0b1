import AtprotoData
import AtprotoSyntax

/// The elliptic curve of an atproto signing key: atproto allows exactly these two.
public enum AtprotoKeyCurve: String, Sendable, Hashable, Codable, CaseIterable {
    /// secp256k1 ("k256"), multicodec `0xe7`.
    case secp256k1
    /// NIST P-256 ("p256"), multicodec `0x1200`.
    case p256

    /// The multicodec code that prefixes a key of this curve in a multikey or `did:key`.
    public var multicodec: UInt64 {
        switch self {
        case .secp256k1: 0xE7
        case .p256: 0x1200
        }
    }
}

/// A public key that atproto signs with: its curve and its point, checked to be on the curve.
///
/// Read one from a DID document's `Multikey` (`publicKeyMultibase`), from a `did:key` string, or from
/// the legacy `EcdsaSecp256k1VerificationKey2019` / `EcdsaSecp256r1VerificationKey2019` forms, and
/// check signatures with ``isValidSignature(_:for:)``. Public data only: no private key ever passes
/// through this type.
public struct AtprotoPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The curve of the key.
    public let curve: AtprotoKeyCurve
    /// The point in SEC1 compressed form (33 bytes: `02` or `03`, then x).
    public let compressedBytes: [UInt8]
    /// The point in SEC1 uncompressed form (65 bytes: `04`, x, then y).
    public let uncompressedBytes: [UInt8]

    /// Reads a SEC1 point, compressed (33 bytes) or uncompressed (65 bytes), and checks it is on `curve`.
    ///
    /// - Throws: ``AtprotoPublicKeyError`` when the length or prefix is wrong or the point is not on the curve.
    public init(sec1 bytes: some Collection<UInt8>, curve: AtprotoKeyCurve) throws(AtprotoPublicKeyError) {
        let point = try CurvePointCheck.checkedPoint(Array(bytes), on: curve)
        self.curve = curve
        self.compressedBytes = point.compressed
        self.uncompressedBytes = point.uncompressed
    }

    /// Reads a `Multikey` value (`publicKeyMultibase`): multibase `z` (base58btc) of the multicodec
    /// varint of the curve followed by the compressed point.
    public init(multikey: String) throws(AtprotoPublicKeyError) {
        let utf8 = Array(multikey.utf8)
        guard utf8.first == UInt8(ascii: "z") else {
            throw AtprotoPublicKeyError(
                .unsupportedEncoding, message: "a multikey must be base58btc (start with \"z\")")
        }
        let decoded: [UInt8]
        do {
            decoded = try Base58.decode(utf8.dropFirst())
        } catch {
            throw AtprotoPublicKeyError(.unsupportedEncoding, message: "not base58btc: \(error.message)")
        }
        var offset = 0
        let read = decoded.withUnsafeBytes { buffer in
            Result { () throws(AtprotoBinaryDecodingError) in try Varint.read(buffer, at: &offset, "multicodec") }
        }
        let code: UInt64
        switch read {
        case .success(let value): code = value
        case .failure(let error):
            throw AtprotoPublicKeyError(.unsupportedEncoding, message: "no multicodec prefix: \(error.message)")
        }
        guard let curve = AtprotoKeyCurve.allCases.first(where: { $0.multicodec == code }) else {
            throw AtprotoPublicKeyError(
                .unsupportedCurve, message: "multicodec 0x\(String(code, radix: 16)) is not a supported key type")
        }
        try self.init(sec1: decoded[offset...], curve: curve)
    }

    /// Reads a `did:key:z...` string.
    public init(didKey: String) throws(AtprotoPublicKeyError) {
        guard didKey.hasPrefix("did:key:") else {
            throw AtprotoPublicKeyError(.unsupportedEncoding, message: "a did:key string starts with \"did:key:\"")
        }
        try self.init(multikey: String(didKey.dropFirst("did:key:".count)))
    }

    /// Reads a verification method of the legacy kinds, whose `publicKeyMultibase` holds an
    /// uncompressed point with no multicodec prefix: `EcdsaSecp256k1VerificationKey2019` or
    /// `EcdsaSecp256r1VerificationKey2019`.
    public init(legacyType type: String, multibase: String) throws(AtprotoPublicKeyError) {
        let curve: AtprotoKeyCurve
        switch type {
        case "EcdsaSecp256k1VerificationKey2019": curve = .secp256k1
        case "EcdsaSecp256r1VerificationKey2019": curve = .p256
        default:
            throw AtprotoPublicKeyError(.unsupportedCurve, message: "verification method type \(type) is not supported")
        }
        let utf8 = Array(multibase.utf8)
        guard utf8.first == UInt8(ascii: "z") else {
            throw AtprotoPublicKeyError(
                .unsupportedEncoding, message: "a legacy key must be base58btc (start with \"z\")")
        }
        let decoded: [UInt8]
        do {
            decoded = try Base58.decode(utf8.dropFirst())
        } catch {
            throw AtprotoPublicKeyError(.unsupportedEncoding, message: "not base58btc: \(error.message)")
        }
        try self.init(sec1: decoded, curve: curve)
    }

    /// The key as a `Multikey` value (`z` + base58btc of the multicodec and the compressed point).
    public var multikey: String {
        var bytes: [UInt8] = []
        Varint.append(curve.multicodec, to: &bytes)
        return "z" + Base58.encode(bytes + compressedBytes)
    }

    /// The key as a `did:key` string.
    public var didKey: String { "did:key:" + multikey }

    public var description: String { didKey }
}

/// Why a public key could not be read.
public struct AtprotoPublicKeyError: AtprotoError, Hashable {
    /// The kind of problem, for code to act on.
    public var code: Code
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "public key: \(message)" }

    /// A kind of problem with a public key. An open set: new codes may be added, so a `switch` needs
    /// a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not base58btc, no multicodec prefix, or not a `did:key`.
        public static let unsupportedEncoding: Code = "unsupportedEncoding"
        /// A curve or key type atproto does not sign with.
        public static let unsupportedCurve: Code = "unsupportedCurve"
        /// A point of the wrong length or prefix.
        public static let malformedPoint: Code = "malformedPoint"
        /// Coordinates that are not a point of the curve.
        public static let notOnCurve: Code = "notOnCurve"
    }
}
