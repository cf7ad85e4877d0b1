import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation

/// An inter-service JWT read into its parts, not yet checked: the header's algorithm, the claims,
/// and the bytes the signature covers.
struct ServiceAuthToken: Sendable {
    /// The curve of `alg`: `ES256K` is secp256k1, `ES256` is P-256.
    var curve: AtprotoKeyCurve
    /// `iss`: the DID, without any `#service` fragment.
    var issuer: DID
    /// `iss` as sent (`did:plc:...#atproto_labeler` keeps its fragment here).
    var issuerClaim: String
    /// The verification method of the issuer's DID document that must have signed: `atproto_label`
    /// for a labeler (`iss` with the service fragment `#atproto_labeler`, the spec's one mapping),
    /// `atproto` for everything else.
    var keyID: String {
        issuerClaim.utf8.dropFirst(issuer.rawValue.utf8.count).elementsEqual(("#" + Self.labelerService).utf8)
            ? Self.labelKeyID : Self.accountKeyID
    }
    var audience: String
    var expiration: Int
    var issuedAt: Int?
    var method: String?
    var tokenID: String?
    /// `header.payload` as sent: what the signature signs.
    var signedBytes: [UInt8]
    var signature: [UInt8]

    /// The service fragment of a labeler's `iss`, and the key ID it maps to.
    static let labelerService = "atproto_labeler"
    static let labelKeyID = "atproto_label"
    /// The key ID of an `iss` without that fragment.
    static let accountKeyID = "atproto"

    /// The longest token read, in bytes.
    static let maximumLength = 8 * 1024

    /// Reads a compact JWS (`header.payload.signature`, base64url without padding).
    ///
    /// - Throws: 401 `BadJwt` saying which part is malformed.
    init(parsing text: String) throws(XRPCServerError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Self.bad("the token is longer than \(Self.maximumLength) bytes")
        }
        // The two dots, found with `firstIndex` (a generic `split` cost as much as decoding the parts).
        let utf8 = text.utf8
        guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")),
            let secondDot = utf8[utf8.index(after: firstDot)...].firstIndex(of: UInt8(ascii: ".")),
            !utf8[utf8.index(after: secondDot)...].contains(UInt8(ascii: "."))
        else { throw Self.bad("the token is not a JWT: expected 3 dot-separated parts") }
        guard let headerBytes = Self.base64URLDecoded(utf8[..<firstDot]),
            let payloadBytes = Self.base64URLDecoded(utf8[utf8.index(after: firstDot)..<secondDot]),
            let signature = Self.base64URLDecoded(utf8[utf8.index(after: secondDot)...])
        else { throw Self.bad("the token is not base64url") }
        guard let header = try? JSONValue.parse(headerBytes).objectValue else {
            throw Self.bad("the token's header is not a JSON object")
        }
        guard let claims = try? JSONValue.parse(payloadBytes).objectValue else {
            throw Self.bad("the token's payload is not a JSON object")
        }
        switch header["alg"]?.stringValue {
        case "ES256K": curve = .secp256k1
        case "ES256": curve = .p256
        case let other?: throw Self.bad("alg \(ParameterSchema.quoted(other)) is not ES256K or ES256")
        case nil: throw Self.bad("the token's header has no alg")
        }
        // Tokens of other kinds (access, refresh, DPoP) must not pass for service auth.
        if let type = header["typ"]?.stringValue, !["jwt", "JWT"].contains(type) {
            throw Self.bad("typ \(ParameterSchema.quoted(type)) is not a service-auth token")
        }
        try Self.checkCritical(header["crit"])
        guard let issuerClaim = claims["iss"]?.stringValue else { throw Self.bad("the token has no string iss") }
        let did = issuerClaim.utf8.firstIndex(of: UInt8(ascii: "#")).map { String(issuerClaim[..<$0]) } ?? issuerClaim
        guard DID.syntaxError(in: did) == nil else {
            throw Self.bad("iss \(ParameterSchema.quoted(issuerClaim)) is not a DID")
        }
        guard let audience = claims["aud"]?.stringValue else { throw Self.bad("the token has no string aud") }
        guard case .integer(let expiration)? = claims["exp"] else { throw Self.bad("the token has no integer exp") }
        if let iat = claims["iat"] {
            guard case .integer(let issuedAt) = iat else { throw Self.bad("iat is not an integer") }
            self.issuedAt = issuedAt
        }
        if let lxm = claims["lxm"] {
            guard case .string(let method) = lxm else { throw Self.bad("lxm is not a string") }
            self.method = method
        }
        if let jti = claims["jti"] {
            guard case .string(let tokenID) = jti, !tokenID.isEmpty, tokenID.utf8.count <= 256 else {
                throw Self.bad("jti is not a string of 1 to 256 bytes")
            }
            self.tokenID = tokenID
        }
        self.issuer = DID(rawValue: did)
        self.issuerClaim = issuerClaim
        self.audience = audience
        self.expiration = expiration
        self.signedBytes = Array(utf8[..<secondDot])
        self.signature = signature
    }

    /// The header parameters this verifier understands when a token marks them critical: none (it
    /// implements no JWS extension, such as RFC 7797's `b64`).
    static let understoodCriticalParameters: Set<String> = []

    /// RFC 7515 4.1.11: `crit`, when present, is a non-empty array of strings, and a token whose
    /// `crit` names a parameter the recipient does not understand is refused (it would change what the
    /// signature means).
    static func checkCritical(_ crit: JSONValue?) throws(XRPCServerError) {
        guard let crit else { return }
        guard case .array(let items) = crit, !items.isEmpty else {
            throw bad("crit is not a non-empty array of strings")
        }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item else { throw bad("crit is not a non-empty array of strings") }
            names.append(name)
        }
        if let unknown = names.first(where: { !understoodCriticalParameters.contains($0) }) {
            throw bad(
                "crit names \(ParameterSchema.quoted(unknown)), a header parameter this verifier does not understand")
        }
    }

    static func bad(_ message: String) -> XRPCServerError {
        XRPCServerError(.badJwt, message: message)
    }

    /// base64url without padding (padding tolerated), or `nil` for any other character.
    static func base64URLDecoded(_ text: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero and fewer than a byte (2 or 4 of them, or none).
        guard bits != 6, accumulator & ((1 << UInt32(bits)) - 1) == 0, padding <= 2 else { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        let value = sextets[Int(byte)]
        return value == 0xFF ? nil : value
    }

    /// The value of each base64url byte, 0xFF for the others: a table read instead of a range test per byte.
    private static let sextets: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return 0xFF
        }
    }
}
