import Foundation

/// The parameters of an authorization request pushed to the server (RFC 9126) with PKCE and the
/// atproto profile's fields.
public struct PushedAuthorizationRequest: Sendable, Hashable {
    /// Where the server sends the user back.
    public var redirectURI: String
    /// The space-separated scopes.
    public var scope: String
    /// The opaque value the callback must carry back.
    public var state: String
    /// The PKCE pair; only its challenge is sent.
    public var pkce: PKCE
    /// The account to sign in (handle or DID), when known.
    public var loginHint: String?
    /// Extra parameters (`prompt`, `ui_locales`, ...).
    public var extra: [(String, String)]

    /// Creates a request.
    public init(
        redirectURI: String, scope: String, state: String, pkce: PKCE, loginHint: String? = nil,
        extra: [(String, String)] = []
    ) {
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.pkce = pkce
        self.loginHint = loginHint
        self.extra = extra
    }

    /// The form fields, without client authentication.
    public func fields(clientID: String) -> [(String, String)] {
        var fields = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI), ("scope", scope),
            ("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method),
        ]
        if let loginHint { fields.append(("login_hint", loginHint)) }
        return fields + extra
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.redirectURI == rhs.redirectURI && lhs.scope == rhs.scope && lhs.state == rhs.state && lhs.pkce == rhs.pkce
            && lhs.loginHint == rhs.loginHint && lhs.extra.elementsEqual(rhs.extra, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(pkce)
    }
}

/// The server's answer to a pushed request: the `request_uri` to send the user's browser with.
public struct PushedAuthorizationResponse: Sendable, Hashable, Codable {
    /// The reference to the pushed request.
    public var requestURI: String
    /// How long it stays valid, in seconds.
    public var expiresIn: Int?

    private enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }

    /// The URL of the user step: the authorization endpoint with `client_id` and `request_uri`.
    public func authorizationURL(endpoint: URL, clientID: String) throws(OAuthError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw OAuthError(.invalidMetadata, message: "the authorization endpoint is not a URL")
        }
        let query = [("client_id", clientID), ("request_uri", requestURI)]
        components.percentEncodedQuery =
            (components.percentEncodedQuery.map { $0 + "&" } ?? "")
            + String(decoding: FormEncoding.encode(query), as: UTF8.self)
        guard let url = components.url else {
            throw OAuthError(.invalidResponse, message: "the request_uri cannot be put in a URL")
        }
        return url
    }
}
