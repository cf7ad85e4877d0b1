import Foundation

/// Compact JWS serialization (RFC 7515) for ES256: `base64url(header).base64url(claims).base64url(sig)`.
///
/// The signature comes from an ``ES256Signer``; this type only encodes.
public enum CompactJWS {
    /// Signs `claims` under `header` (both encoded as JSON with sorted keys).
    ///
    /// - Throws: ``OAuthError/Code/signing`` when the signer fails or does not return 64 bytes.
    public static func sign(
        header: some Encodable, claims: some Encodable, with signer: any ES256Signer
    ) async throws(OAuthError) -> String {
        let input = try encodeSegment(header) + "." + encodeSegment(claims)
        let signature: [UInt8]
        do {
            signature = try await signer.sign(Array(input.utf8))
        } catch {
            throw OAuthError(.signing, message: "the signer failed: \(type(of: error))")
        }
        guard signature.count == 64 else {
            throw OAuthError(
                .signing, message: "an ES256 signature is 64 bytes (r || s), the signer gave \(signature.count)")
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// The three parts of a compact JWS: the decoded header and claims as JSON bytes, and the
    /// signature; `nil` when it is not three base64url parts.
    public static func split(_ jws: String) -> (header: [UInt8], claims: [UInt8], signature: [UInt8])? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(String(parts[0])),
            let claims = Base64URL.decode(String(parts[1])), let signature = Base64URL.decode(String(parts[2]))
        else { return nil }
        return (header, claims, signature)
    }

    static func encodeSegment(_ value: some Encodable) throws(OAuthError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Base64URL.encode(try encoder.encode(value))
        } catch {
            throw OAuthError(.invalidRequest, message: "could not encode a JWS part: \(error)")
        }
    }
}

/// The JOSE header of an ES256 JWS: `alg`, `typ`, and the public `jwk` (DPoP) or a `kid`.
public struct JWSHeader: Sendable, Hashable, Codable {
    /// `ES256`.
    public var alg: String = "ES256"
    /// `dpop+jwt` for DPoP proofs, `JWT` or none for client assertions.
    public var typ: String?
    /// The public key (DPoP proofs carry it).
    public var jwk: ECPublicJWK?
    /// The key id (client assertions name the registered key).
    public var kid: String?

    /// Creates a header.
    public init(typ: String? = nil, jwk: ECPublicJWK? = nil, kid: String? = nil) {
        self.typ = typ
        self.jwk = jwk
        self.kid = kid
    }
}
