import Foundation
import SHA2

/// DPoP proofs (RFC 9449): a JWS per request, signed by the session's key, binding the request's
/// method and URL (and the access token, through `ath`) to that key.
public enum DPoPProof {
    /// The claims of a proof.
    public struct Claims: Sendable, Hashable, Codable {
        /// A unique id (replay protection).
        public var jti: String
        /// The HTTP method.
        public var htm: String
        /// The URL without query and fragment.
        public var htu: String
        /// Issued at, seconds since 1970.
        public var iat: Int
        /// The server's latest nonce for this origin.
        public var nonce: String?
        /// base64url(SHA-256(access token)) on resource requests.
        public var ath: String?
    }

    /// A signed proof for `method` on `url`.
    ///
    /// - Parameters:
    ///   - method: The request's HTTP method (`htm`).
    ///   - url: The request's URL; the proof carries it without query and fragment (`htu`).
    ///   - nonce: The last `DPoP-Nonce` this origin sent, if any.
    ///   - accessToken: The access token sent with the request (resource requests only).
    ///   - signer: The session's key, which signs the proof and whose public key it carries.
    ///   - now: The clock, for tests.
    public static func make(
        method: String, url: URL, nonce: String?, accessToken: String? = nil, signer: any ES256Signer,
        now: Date = Date()
    ) async throws(OAuthError) -> String {
        let claims = Claims(
            jti: SecureRandom.token(byteCount: 16), htm: method.uppercased(), htu: htu(for: url),
            iat: Int(now.timeIntervalSince1970), nonce: nonce, ath: accessToken.map(accessTokenHash))
        return try await CompactJWS.sign(
            header: JWSHeader(typ: "dpop+jwt", jwk: signer.publicJWK), claims: claims, with: signer)
    }

    /// `url` without its query and fragment, as the `htu` claim wants it.
    public static func htu(for url: URL) -> String {
        var text = url.absoluteString
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        return text
    }

    /// base64url(SHA-256(ASCII(token))), the `ath` claim.
    public static func accessTokenHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(Array(token.utf8)))
    }
}
