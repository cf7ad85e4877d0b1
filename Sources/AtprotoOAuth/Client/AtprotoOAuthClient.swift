import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation
import HTTPTransport
import OAuthCore
import XRPCAgents
import XRPCCore

/// The atproto OAuth client: signs accounts in (resolution, PAR with PKCE and DPoP, the user step,
/// the code exchange and the checks that bind the token to the account) and restores sessions.
///
/// ```swift
/// let client = AtprotoOAuthClient(
///     configuration: try .publicClient(metadataURL: clientMetadataURL, redirectURI: "com.example.app:/callback"),
///     keyFactory: CryptoKitES256KeyFactory(), resolver: CachingIdentityResolver(wrapping: try StandardIdentityResolver()))
/// let session = try await client.signIn(.account("alice.bsky.social"), with: authenticator)
/// Task { for await update in session.updates() { persist(update) } }
/// let agent: any XRPCAgent = session
/// ```
public struct AtprotoOAuthClient: Sendable {
    /// Makes the agent that sends a session's calls to its PDS.
    public typealias AgentFactory = @Sendable (URL) -> any XRPCAgent

    /// Who the app is.
    public var configuration: OAuthClientConfiguration
    /// Makes each session's fresh DPoP key, and restores keys from archives.
    public var keyFactory: any ES256KeyFactory
    /// Cross-process refresh coordination; in-process by default.
    public var refreshLock: any OAuthRefreshLock
    /// The app's archive store, when refreshes must be persisted before they count (cross-process).
    public var store: (any OAuthSessionStore)?
    /// Where the client and its sessions log: OAuth requests (method, URL without query, status),
    /// sign-ins, calls, DPoP nonce retries, refreshes, sign-outs. Never a token, key, code, verifier or
    /// client assertion.
    public let logger: XRPCLogger
    private let discovery: OAuthDiscovery
    private let agentFactory: AgentFactory

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Who the app is (client id, redirect URI, scopes).
    ///   - keyFactory: Makes each session's DPoP key, and restores keys from archives.
    ///   - resolver: Resolves handles and DIDs to the account's PDS.
    ///   - httpTransport: The HTTP transport of OAuth requests (metadata, PAR, tokens, revocation)
    ///     and, unless `agentFactory` says otherwise, of each session's calls: an app's own HTTP stack
    ///     written once. By default OAuth requests go through a `URLSessionTransport` without cookies
    ///     or cache, and each session's calls through a `URLSessionAgent` of its own.
    ///   - agentFactory: Makes the agent of each session's calls; a `URLSessionAgent` (logging to
    ///     `logger`, sending through `httpTransport` when one is given) by default.
    ///   - refreshLock: Cross-process refresh coordination; in-process by default.
    ///   - store: The app's archive store, when refreshes must be persisted before they count.
    ///   - logger: Where the client and its sessions log; nothing by default.
    public init(
        configuration: OAuthClientConfiguration,
        keyFactory: any ES256KeyFactory,
        resolver: any IdentityResolver,
        httpTransport: (any HTTPTransport)? = nil,
        agentFactory: AgentFactory? = nil,
        refreshLock: any OAuthRefreshLock = OAuthInProcessRefreshLock.shared,
        store: (any OAuthSessionStore)? = nil,
        logger: XRPCLogger = .disabled
    ) {
        self.configuration = configuration
        self.keyFactory = keyFactory
        self.refreshLock = refreshLock
        self.store = store
        self.logger = logger
        let http = httpTransport ?? URLSessionTransport.oauthDefault()
        self.discovery = OAuthDiscovery(resolver: resolver, http: LoggingHTTPTransport(inner: http, logger: logger))
        if let agentFactory {
            self.agentFactory = agentFactory
        } else if let httpTransport {
            self.agentFactory = { URLSessionAgent(serviceURL: $0, transport: httpTransport, logger: logger) }
        } else {
            self.agentFactory = { URLSessionAgent(serviceURL: $0, logger: logger) }
        }
    }

    /// The whole sign-in: ``authorize(_:redirectURI:)``, the user step, ``complete(_:callback:)``.
    public func signIn(_ start: OAuthSignInStart, with authenticator: any OAuthUserAuthenticator) async throws
        -> OAuthSession
    {
        let redirectURI = try await authenticator.redirectURI(registered: configuration.redirectURI)
        let pending = try await authorize(start, redirectURI: redirectURI)
        let callback = try await authenticator.authenticate(pending.authorizationURL, redirectURI: redirectURI)
        return try await complete(pending, callback: callback)
    }

    /// Finds the authorization server, pushes the request (PKCE, DPoP with a fresh key, `login_hint`,
    /// scopes) and returns the URL of the user step with what the callback will be checked against.
    public func authorize(_ start: OAuthSignInStart, redirectURI: String? = nil) async throws
        -> OAuthPendingAuthorization
    {
        let target: OAuthAuthorizationTarget
        var loginHint: String?
        switch start {
        case .account(let identifier):
            target = try await discovery.target(for: identifier)
            loginHint = identifier
        case .server(let url):
            target = try await discovery.target(forServer: url)
        }
        let signer = try await keyFactory.makeKey()
        let nonces = DPoPNonceStore()
        let pkce = PKCE()
        let state = SecureRandom.token(byteCount: 24)
        let redirect = redirectURI ?? configuration.redirectURI
        let scope = OAuthScope.parameter(configuration.scopes)
        let request = PushedAuthorizationRequest(
            redirectURI: redirect, scope: scope, state: state, pkce: pkce, loginHint: loginHint)
        let client = authorizationServerClient(target.metadata, nonces: nonces)
        let pushed = try await client.push(request, signer: signer)
        logger.log(.info, "AtprotoOAuthClient", "pushed the authorization request", ["issuer": target.issuer])
        let endpoint = try target.metadata.endpoint(target.metadata.authorizationEndpoint, "authorization_endpoint")
        return OAuthPendingAuthorization(
            authorizationURL: try pushed.authorizationURL(endpoint: endpoint, clientID: configuration.clientID),
            state: state, pkce: pkce, dpopKey: try signer.exportForArchive(), issuer: target.issuer,
            authorizationServer: target.metadata, redirectURI: redirect, expectedDID: target.identity?.did,
            loginHint: loginHint, scope: scope, nonces: nonces.snapshot, createdAt: Date())
    }

    /// Checks the callback (`state`, `iss`), exchanges the code, checks the token's `sub` (the
    /// account asked for, and bound to this issuer through its PDS) and returns the session. Tokens
    /// that fail a check are revoked, best effort, before the check's error is thrown.
    public func complete(_ pending: OAuthPendingAuthorization, callback: URL) async throws -> OAuthSession {
        let parameters = CallbackParameters(callback)
        guard parameters.state == pending.state else {
            throw OAuthError(.invalidCallback, message: "the callback's state does not belong to this sign-in")
        }
        guard parameters.issuer == pending.issuer else {
            throw OAuthError(
                .invalidCallback,
                message:
                    "the callback names the issuer \(parameters.issuer?.prefix(200) ?? "nothing"), not \(pending.issuer)"
            )
        }
        if let error = parameters.error {
            throw OAuthError(
                .server, serverCode: error,
                serverDescription: parameters.errorDescription.map { String($0.prefix(300)) },
                message: "the authorization server refused the sign-in: \(error.prefix(100))")
        }
        guard let code = parameters.code, !code.isEmpty else {
            throw OAuthError(.invalidCallback, message: "the callback carries no code")
        }
        let signer = try await keyFactory.restoreKey(from: pending.dpopKey)
        let nonces = DPoPNonceStore(pending.nonces)
        let client = authorizationServerClient(pending.authorizationServer, nonces: nonces)
        let answer = try await client.exchangeAnswer(
            code: code, redirectURI: pending.redirectURI, pkce: pending.pkce, signer: signer)
        do {
            let archive = try await checkedArchive(try answer.checked.get(), pending, signer: signer, nonces: nonces)
            try await store?.save(archive)
            logger.log(
                .info, "AtprotoOAuthClient", "signed in", ["did": archive.did.rawValue, "issuer": pending.issuer])
            return OAuthSession(archive: archive, signer: signer, context: context(for: archive))
        } catch {
            // Refused tokens are revoked, best effort; the refusal is what the caller learns.
            await client.revokeRefused(answer, signer: signer, logger: logger)
            throw error
        }
    }

    /// The checks of the code exchange's tokens (their `sub` is the account asked for, bound to this
    /// issuer through its PDS; the scope has `atproto`) and the session state they give.
    private func checkedArchive(
        _ tokens: OAuthTokenResponse, _ pending: OAuthPendingAuthorization, signer: any ES256Signer,
        nonces: DPoPNonceStore
    ) async throws -> OAuthSessionArchive {
        let issuedAt = Date()
        guard let sub = tokens.sub, DID.syntaxError(in: sub) == nil else {
            throw OAuthError(.invalidResponse, message: "the token answer names no account DID (sub)")
        }
        let did = DID(rawValue: sub)
        if let expected = pending.expectedDID, expected != did {
            throw OAuthError(
                .bindingMismatch,
                message: "the sign-in was for \(expected.rawValue), the tokens are for \(did.rawValue)")
        }
        guard OAuthScope.parse(tokens.scope ?? pending.scope).contains(.atproto) else {
            throw OAuthError(.invalidResponse, message: "the granted scope lacks atproto")
        }
        let (identity, pds) = try await discovery.verifyBinding(did: did, issuer: pending.issuer)
        return OAuthSessionArchive(
            did: did, handle: identity.verifiedHandle, pdsEndpoint: pds, issuer: pending.issuer,
            authorizationServer: pending.authorizationServer, clientID: configuration.clientID,
            scope: tokens.scope ?? pending.scope, accessToken: XRPCSessionToken(tokens.accessToken),
            refreshToken: tokens.refreshToken.map(XRPCSessionToken.init), issuedAt: issuedAt,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(tokens.expiresIn ?? 300)),
            dpopKey: try signer.exportForArchive(), nonces: nonces.snapshot)
    }

    /// Resumes a stored session; its tokens are used as they are (an expired one is refreshed on the
    /// first call, after the issuer check).
    public func restore(_ archive: OAuthSessionArchive) async throws -> OAuthSession {
        guard archive.clientID == configuration.clientID else {
            throw OAuthError(.invalidRequest, message: "the archive belongs to another client id")
        }
        let signer = try await keyFactory.restoreKey(from: archive.dpopKey)
        return OAuthSession(archive: archive, signer: signer, context: context(for: archive))
    }

    private func context(for archive: OAuthSessionArchive) -> OAuthSessionContext {
        OAuthSessionContext(
            agent: agentFactory(archive.pdsEndpoint), http: discovery.http, discovery: discovery,
            clientID: configuration.clientID, authentication: configuration.authentication, refreshLock: refreshLock,
            store: store, logger: logger)
    }

    private func authorizationServerClient(_ metadata: AuthorizationServerMetadata, nonces: DPoPNonceStore)
        -> AuthorizationServerClient
    {
        AuthorizationServerClient(
            metadata: metadata, clientID: configuration.clientID, authentication: configuration.authentication,
            transport: discovery.http, nonces: nonces)
    }
}
