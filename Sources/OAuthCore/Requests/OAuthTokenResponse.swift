import Foundation

/// A token endpoint's answer (RFC 6749 section 5.1 with DPoP): printing it never shows a token.
public struct OAuthTokenResponse: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The access token. Secret.
    public var accessToken: String
    /// The token type; ``validate()`` requires `DPoP`.
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int?
    /// The refresh token. Secret.
    public var refreshToken: String?
    /// The granted scopes, space-separated.
    public var scope: String?
    /// The account the tokens are for (atproto: its DID).
    public var sub: String?

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case sub
    }

    /// Creates a response.
    public init(
        accessToken: String, tokenType: String, expiresIn: Int?, refreshToken: String?, scope: String?, sub: String?
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
        self.sub = sub
    }

    /// The checks: a non-empty access token, `token_type` DPoP (any case), a positive `expires_in`
    /// when present.
    public func validate() throws(OAuthError) {
        guard !accessToken.isEmpty else {
            throw OAuthError(.invalidResponse, message: "the token answer has no access_token")
        }
        guard tokenType.lowercased() == "dpop" else {
            throw OAuthError(.invalidResponse, message: "the token type is \(tokenType.prefix(40)), not DPoP")
        }
        if let expiresIn, expiresIn <= 0 {
            throw OAuthError(.invalidResponse, message: "expires_in is not positive")
        }
    }

    /// The scopes, the subject and the expiry; never the tokens.
    public var description: String {
        "OAuthTokenResponse(sub: \(sub ?? "-"), scope: \(scope ?? "-"), expires_in: \(expiresIn.map(String.init) ?? "-"), "
            + "tokens: <redacted>)"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the tokens.
    public var customMirror: Mirror {
        Mirror(self, children: ["sub": sub as Any, "scope": scope as Any, "expiresIn": expiresIn as Any])
    }
}
