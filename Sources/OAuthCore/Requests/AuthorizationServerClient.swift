import Foundation
import HTTPTransport

/// Calls an authorization server's endpoints with DPoP: PAR (RFC 9126), the `authorization_code`
/// and `refresh_token` grants, and revocation (RFC 7009).
///
/// Every request carries a fresh DPoP proof with the origin's latest nonce; a `use_dpop_nonce`
/// answer (400) is retried exactly once with the nonce it brought.
public struct AuthorizationServerClient: Sendable {
    /// The server's checked metadata.
    public var metadata: AuthorizationServerMetadata
    /// The client's id.
    public var clientID: String
    /// How the client authenticates.
    public var authentication: ClientAuthentication
    /// The HTTP transport every request goes through.
    public var transport: any HTTPTransport
    /// The nonces, shared with the session.
    public var nonces: DPoPNonceStore

    /// Creates a client.
    public init(
        metadata: AuthorizationServerMetadata, clientID: String, authentication: ClientAuthentication,
        transport: any HTTPTransport, nonces: DPoPNonceStore
    ) {
        self.metadata = metadata
        self.clientID = clientID
        self.authentication = authentication
        self.transport = transport
        self.nonces = nonces
    }

    /// Pushes `request` and returns the `request_uri`.
    public func push(_ request: PushedAuthorizationRequest, signer: any ES256Signer) async throws(OAuthError)
        -> PushedAuthorizationResponse
    {
        guard let text = metadata.pushedAuthorizationRequestEndpoint else {
            throw OAuthError(.invalidMetadata, message: "\(metadata.issuer) has no PAR endpoint")
        }
        let url = try metadata.endpoint(text, "PAR endpoint")
        let response = try await post(url, request.fields(clientID: clientID), signer: signer, what: "PAR")
        guard response.status == 201 || response.status == 200 else {
            throw OAuthError.fromResponse(response, "the pushed authorization request")
        }
        let answer: PushedAuthorizationResponse = try Self.decode(response, "the PAR answer")
        guard !answer.requestURI.isEmpty, answer.requestURI.utf8.count <= 2048 else {
            throw OAuthError(.invalidResponse, message: "the PAR answer has no usable request_uri")
        }
        return answer
    }

    /// Exchanges an authorization code (with its PKCE verifier) for tokens.
    public func exchange(code: String, redirectURI: String, pkce: PKCE, signer: any ES256Signer)
        async throws(OAuthError) -> OAuthTokenResponse
    {
        try await exchangeAnswer(code: code, redirectURI: redirectURI, pkce: pkce, signer: signer).checked.get()
    }

    /// The code exchange's 2xx answer, usable or not; throws for any other answer.
    package func exchangeAnswer(code: String, redirectURI: String, pkce: PKCE, signer: any ES256Signer)
        async throws(OAuthError) -> TokenAnswer
    {
        try await token(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("code_verifier", pkce.verifier), ("client_id", clientID),
            ], signer: signer, what: "the code exchange")
    }

    /// Uses `refreshToken` for new tokens (the answer carries the rotated refresh token).
    public func refresh(refreshToken: String, signer: any ES256Signer) async throws(OAuthError) -> OAuthTokenResponse {
        try await refreshAnswer(refreshToken: refreshToken, signer: signer).checked.get()
    }

    /// The refresh grant's 2xx answer, usable or not; throws for any other answer. The server has
    /// spent `refreshToken` once it answered 2xx, even when the answer is unusable.
    package func refreshAnswer(refreshToken: String, signer: any ES256Signer) async throws(OAuthError)
        -> TokenAnswer
    {
        try await token(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)],
            signer: signer, what: "the refresh")
    }

    /// Revokes `token` (an access or refresh token); a server without a revocation endpoint is a no-op.
    public func revoke(token: String, signer: any ES256Signer) async throws(OAuthError) {
        guard let text = metadata.revocationEndpoint else { return }
        let url = try metadata.endpoint(text, "revocation endpoint")
        let response = try await post(
            url, [("token", token), ("client_id", clientID)], signer: signer, what: "revocation")
        guard response.isSuccess else { throw OAuthError.fromResponse(response, "the revocation") }
    }

    private func token(_ fields: [(String, String)], signer: any ES256Signer, what: String) async throws(OAuthError)
        -> TokenAnswer
    {
        let url = try metadata.endpoint(metadata.tokenEndpoint, "token endpoint")
        let response = try await post(url, fields, signer: signer, what: what)
        // Any 2xx: the server acted on the grant (a refresh token is spent), so its tokens are read.
        guard response.isSuccess else { throw OAuthError.fromResponse(response, what) }
        return TokenAnswer(body: response.body)
    }

    /// POSTs `fields` (plus client authentication) with a DPoP proof; retries once on `use_dpop_nonce`.
    public func post(_ url: URL, _ fields: [(String, String)], signer: any ES256Signer, what: String)
        async throws(OAuthError) -> HTTPTransportResponse
    {
        var attempt = 0
        while true {
            attempt += 1
            let proof = try await DPoPProof.make(
                method: "POST", url: url, nonce: nonces.nonce(for: url), signer: signer)
            let all = fields + (try await authentication.fields(issuer: metadata.issuer))
            let response = try await transport.sendOAuth(.postForm(url, all, headers: ["DPoP": proof]))
            let changed = nonces.update(from: url, headerValue: response.header("DPoP-Nonce"))
            if attempt == 1, response.status == 400, changed || nonces.nonce(for: url) != nil,
                OAuthError.fromResponse(response, what).isUseDPoPNonce
            {
                continue
            }
            return response
        }
    }

    static func decode<Answer: Decodable>(_ response: HTTPTransportResponse, _ what: String) throws(OAuthError)
        -> Answer
    {
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw OAuthError(.invalidResponse, message: "\(what) is not usable JSON: \(type(of: error))")
        }
    }
}
