import Foundation
import HTTPTransport
import OAuthCore
import XRPCAgents
import XRPCCore

/// What a session needs besides its state: its agent and HTTP transport, discovery for the issuer
/// check, client authentication, the refresh lock and the app's stored-archive reader.
struct OAuthSessionContext: Sendable {
    var agent: any XRPCAgent
    var http: any HTTPTransport
    var discovery: OAuthDiscovery
    var clientID: String
    var authentication: ClientAuthentication
    var refreshLock: any OAuthRefreshLock
    var store: (any OAuthSessionStore)?
    var logger: XRPCLogger

    func authorizationServerClient(_ metadata: AuthorizationServerMetadata, nonces: DPoPNonceStore)
        -> AuthorizationServerClient
    {
        AuthorizationServerClient(
            metadata: metadata, clientID: clientID, authentication: authentication, transport: http, nonces: nonces)
    }
}

/// What a refresh gave: new tokens, or only the rotated refresh token of an answer the client could
/// not use (kept so the spent one is never replayed), with the error the callers get.
enum OAuthRefreshOutcome: Sendable {
    case refreshed(OAuthSessionArchive)
    case salvaged(OAuthSessionArchive, OAuthSessionError)
}

/// One refresh, run under the refresh lock: the stored archive first (another process may have
/// refreshed), then the issuer binding, then the `refresh_token` grant, then the store.
///
/// A 2xx answer has spent the refresh token. When it cannot be used (no `token_type`, bad JSON), the
/// rotated refresh token is kept if it can be read and the session goes on; otherwise the session
/// ends, since the only refresh token left is spent. Tokens the client refuses (another `sub`,
/// another token type) are revoked, best effort, and end the session.
struct OAuthRefresher: Sendable {
    var context: OAuthSessionContext
    var signer: any ES256Signer
    var nonces: DPoPNonceStore

    func refreshed(_ archive: OAuthSessionArchive) async throws(OAuthSessionError) -> OAuthRefreshOutcome {
        let account = archive.did.rawValue
        if let newer = await newerStoredArchive(than: archive) { return .refreshed(newer) }
        guard let refreshToken = archive.refreshToken else {
            throw OAuthSessionError(
                .sessionEnded, message: "the access token of \(account) expired and no refresh token was issued")
        }
        let pds: URL
        do {
            (_, pds) = try await context.discovery.verifyBinding(did: archive.did, issuer: archive.issuer)
        } catch {
            throw Self.failure(
                error, "\(account) is no longer bound to \(archive.issuer)",
                endsOn: [.bindingMismatch, .identity, .invalidMetadata])
        }
        let client = context.authorizationServerClient(archive.authorizationServer, nonces: nonces)
        let answer: TokenAnswer
        do {
            answer = try await client.refreshAnswer(refreshToken: refreshToken.value, signer: signer)
        } catch {
            if error.serverCode == "invalid_grant", let newer = await newerStoredArchive(than: archive) {
                return .refreshed(newer)
            }
            throw Self.failure(
                error, "the refresh of \(account) failed", endsOn: [],
                endingCodes: ["invalid_grant", "unauthorized_client", "invalid_client"])
        }
        let tokens: OAuthTokenResponse
        switch answer.checked {
        case .success(let checked) where checked.sub == account:
            tokens = checked
        case .success(let checked):
            let reason = OAuthError(
                .bindingMismatch,
                message: "the refresh answer names \(checked.sub?.prefix(200) ?? "no account"), not \(account)")
            await client.revokeRefused(answer, signer: signer, logger: context.logger)
            throw OAuthSessionError(
                .sessionEnded, message: "the refreshed tokens are for another account than \(account)",
                underlying: reason)
        case .failure(let reason) where answer.hasOtherTokenType:
            await client.revokeRefused(answer, signer: signer, logger: context.logger)
            throw OAuthSessionError(
                .sessionEnded, message: "the refreshed tokens of \(account) are not DPoP-bound", underlying: reason)
        case .failure(let reason):
            guard let rotated = answer.refreshToken else {
                throw OAuthSessionError(
                    .sessionEnded,
                    message: "the refresh answer of \(account) is unusable and carries no refresh token: the one "
                        + "sent is spent", underlying: reason)
            }
            var kept = archive
            kept.refreshToken = XRPCSessionToken(rotated)
            kept.nonces = nonces.snapshot
            try await save(kept)
            return .salvaged(
                kept,
                OAuthSessionError(
                    .requestFailed,
                    message: "the refresh answer of \(account) is unusable; its new refresh token was kept",
                    underlying: reason))
        }
        var next = archive
        let now = Date()
        next.pdsEndpoint = pds
        next.accessToken = XRPCSessionToken(tokens.accessToken)
        next.refreshToken = tokens.refreshToken.map(XRPCSessionToken.init) ?? archive.refreshToken
        next.scope = tokens.scope ?? archive.scope
        next.issuedAt = now
        next.expiresAt = now.addingTimeInterval(TimeInterval(tokens.expiresIn ?? 300))
        next.nonces = nonces.snapshot
        try await save(next)
        return .refreshed(next)
    }

    /// Stores `archive` before it counts; tokens the store refuses end the session.
    private func save(_ archive: OAuthSessionArchive) async throws(OAuthSessionError) {
        guard let store = context.store else { return }
        do {
            try await store.save(archive)
        } catch {
            throw OAuthSessionError(
                .sessionEnded,
                message: "the refreshed tokens of \(archive.did.rawValue) could not be stored: \(type(of: error))")
        }
    }

    /// The app's stored archive of this account when it holds other, newer tokens.
    private func newerStoredArchive(than archive: OAuthSessionArchive) async -> OAuthSessionArchive? {
        guard let store = context.store, let stored = try? await store.archive(for: archive.did),
            stored.did == archive.did, stored.issuer == archive.issuer, stored.refreshToken != archive.refreshToken,
            stored.issuedAt > archive.issuedAt, stored.dpopKey == archive.dpopKey
        else { return nil }
        return stored
    }

    /// An ending error for the kinds and server codes that mean the grant is dead, else a passing one.
    static func failure(
        _ error: OAuthError, _ message: String, endsOn kinds: Set<OAuthError.Code>, endingCodes: Set<String> = []
    ) -> OAuthSessionError {
        let ends = kinds.contains(error.code) || error.serverCode.map(endingCodes.contains) == true
        return OAuthSessionError(ends ? .sessionEnded : .requestFailed, message: message, underlying: error)
    }
}

extension AuthorizationServerClient {
    /// Revokes the grant of tokens the client refused, best effort: a failure is logged, never thrown,
    /// so it cannot hide why the tokens were refused.
    func revokeRefused(_ answer: TokenAnswer, signer: any ES256Signer, logger: XRPCLogger) async {
        guard let token = answer.grantToken else { return }
        do {
            try await revoke(token: token, signer: signer)
            logger.log(.info, "AtprotoOAuth", "revoked refused tokens", ["issuer": metadata.issuer])
        } catch {
            logger.log(.warning, "AtprotoOAuth", "could not revoke refused tokens: \(error.message)")
        }
    }
}
