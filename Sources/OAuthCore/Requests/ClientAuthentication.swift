import Foundation

/// How a client authenticates at the PAR, token and revocation endpoints: `none` (public clients)
/// or `private_key_jwt` (RFC 7523), whose assertion may come from the app's backend.
public struct ClientAuthentication: Sendable {
    /// Makes a fresh client assertion (a signed JWT) for the authorization server `issuer`.
    public typealias AssertionProvider = @Sendable (_ issuer: String) async throws -> String

    /// `none` or `private_key_jwt`.
    public let method: String
    private let assertion: AssertionProvider?

    /// A public client: `client_id` only.
    public static let none = ClientAuthentication(method: "none", assertion: nil)

    /// A confidential client whose assertion comes from `provider`, called once per request (an
    /// assertion's `jti` is single-use).
    public static func privateKeyJWT(_ provider: @escaping AssertionProvider) -> ClientAuthentication {
        ClientAuthentication(method: "private_key_jwt", assertion: provider)
    }

    /// A confidential client signing its assertions here with `signer` (its `kid` is sent), valid for
    /// 60 seconds.
    public static func privateKeyJWT(clientID: String, signer: any ES256Signer, keyID: String?)
        -> ClientAuthentication
    {
        privateKeyJWT { issuer in
            try await ClientAssertion.make(clientID: clientID, audience: issuer, signer: signer, keyID: keyID)
        }
    }

    /// The form fields to add to a request to `issuer`.
    public func fields(issuer: String) async throws(OAuthError) -> [(String, String)] {
        guard let assertion else { return [] }
        let value: String
        do {
            value = try await assertion(issuer)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError(.signing, message: "the client assertion provider failed: \(type(of: error))")
        }
        return [
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", value),
        ]
    }
}

/// Client assertions for `private_key_jwt` (RFC 7523 section 2.2), as a backend would make them.
public enum ClientAssertion {
    private struct Claims: Encodable {
        var iss: String
        var sub: String
        var aud: String
        var jti: String
        var iat: Int
        var exp: Int
    }

    /// A signed assertion: `iss` = `sub` = `clientID`, `aud` = the issuer, a random `jti`.
    public static func make(
        clientID: String, audience: String, signer: any ES256Signer, keyID: String?, lifetime: Int = 60,
        now: Date = Date()
    ) async throws(OAuthError) -> String {
        let issued = Int(now.timeIntervalSince1970)
        let claims = Claims(
            iss: clientID, sub: clientID, aud: audience, jti: SecureRandom.token(byteCount: 16), iat: issued,
            exp: issued + lifetime)
        return try await CompactJWS.sign(header: JWSHeader(kid: keyID), claims: claims, with: signer)
    }
}
