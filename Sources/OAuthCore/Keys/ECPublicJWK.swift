import Foundation
import SHA2

/// A public EC P-256 key as a JWK (RFC 7517): `{"kty":"EC","crv":"P-256","x":...,"y":...}`.
public struct ECPublicJWK: Sendable, Hashable, Codable {
    /// `EC`.
    public let kty: String
    /// `P-256`.
    public let crv: String
    /// The x coordinate, 32 bytes base64url.
    public let x: String
    /// The y coordinate, 32 bytes base64url.
    public let y: String
    /// The key's id, when it has one (client assertion keys).
    public var kid: String?

    /// A key from its coordinates (32 bytes each, big-endian).
    ///
    /// - Throws: ``OAuthError/Code/invalidRequest`` when a coordinate is not 32 bytes.
    public init(x: some Collection<UInt8>, y: some Collection<UInt8>, kid: String? = nil) throws(OAuthError) {
        guard x.count == 32, y.count == 32 else {
            throw OAuthError(.invalidRequest, message: "a P-256 coordinate is 32 bytes")
        }
        self.kty = "EC"
        self.crv = "P-256"
        self.x = Base64URL.encode(x)
        self.y = Base64URL.encode(y)
        self.kid = kid
    }

    /// A key from its uncompressed SEC1 form, `04 || x || y` (65 bytes).
    public init(uncompressed bytes: some Collection<UInt8>, kid: String? = nil) throws(OAuthError) {
        let array = Array(bytes)
        guard array.count == 65, array[0] == 0x04 else {
            throw OAuthError(.invalidRequest, message: "an uncompressed P-256 key is 04 || x || y, 65 bytes")
        }
        try self.init(x: array[1..<33], y: array[33..<65], kid: kid)
    }

    /// The uncompressed SEC1 form, `04 || x || y`, or `nil` when a coordinate is not 32 bytes.
    public var uncompressed: [UInt8]? {
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y), xBytes.count == 32,
            yBytes.count == 32
        else { return nil }
        return [0x04] + xBytes + yBytes
    }

    /// The RFC 7638 SHA-256 thumbprint, base64url: the DPoP `jkt` tokens are bound to.
    public var thumbprint: String {
        JWKThumbprint.sha256(["crv": crv, "kty": kty, "x": x, "y": y])
    }
}

/// JWK thumbprints (RFC 7638).
public enum JWKThumbprint {
    /// base64url(SHA-256(the key's required members as JSON, names sorted, no whitespace)).
    ///
    /// `members` are the required members of the key type (`crv kty x y` for EC, `e kty n` for RSA).
    public static func sha256(_ members: [String: String]) -> String {
        Base64URL.encode(SHA256.hash(Array(canonicalJSON(members).utf8)))
    }

    /// `{"a":"...","b":"..."}` with names in code-point order and strings escaped as JSON requires.
    static func canonicalJSON(_ members: [String: String]) -> String {
        let fields = members.sorted {
            Array($0.key.unicodeScalars.map(\.value)).lexicographicallyPrecedes(
                $1.key.unicodeScalars.map(\.value))
        }
        return "{" + fields.map { quoted($0.key) + ":" + quoted($0.value) }.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
