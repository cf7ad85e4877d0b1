import Foundation
import OAuthCore
import XRPCRuntime

/// What a session needs besides its state: transports, discovery for the issuer check, client
/// authentication, the refresh lock and the app's stored-archive reader.
struct OAuthSessionContext: Sendable {
    var transport: any XRPCAgent
    var http: any OAuthHTTPClient
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
            metadata: metadata, clientID: clientID, authentication: authentication, http: http, nonces: nonces)
    }
}

/// One refresh, run under the refresh lock: the stored archive first (another process may have
/// refreshed), then the issuer binding, then the `refresh_token` grant, then the store.
struct OAuthRefresher: Sendable {
    var context: OAuthSessionContext
    var signer: any ES256Signer
    var nonces: DPoPNonceStore

    func refreshed(_ archive: OAuthSessionArchive) async throws(OAuthSessionError) -> OAuthSessionArchive {
        let account = archive.did.rawValue
        if let newer = await newerStoredArchive(than: archive) { return newer }
        guard let refreshToken = archive.refreshToken else {
            throw OAuthSessionError(
                code: .sessionEnded, message: "the access token of \(account) expired and no refresh token was issued")
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
        let tokens: TokenResponse
        do {
            tokens = try await client.refresh(refreshToken: refreshToken.value, signer: signer)
        } catch {
            if error.serverCode == "invalid_grant", let newer = await newerStoredArchive(than: archive) { return newer }
            throw Self.failure(
                error, "the refresh of \(account) failed", endsOn: [],
                endingCodes: ["invalid_grant", "unauthorized_client", "invalid_client"])
        }
        guard tokens.sub == account else {
            throw OAuthSessionError(
                code: .sessionEnded, message: "the refreshed tokens are for another account than \(account)")
        }
        var next = archive
        let now = Date()
        next.pdsEndpoint = pds
        next.accessToken = SessionToken(tokens.accessToken)
        next.refreshToken = tokens.refreshToken.map(SessionToken.init) ?? archive.refreshToken
        next.scope = tokens.scope ?? archive.scope
        next.issuedAt = now
        next.expiresAt = now.addingTimeInterval(TimeInterval(tokens.expiresIn ?? 300))
        next.nonces = nonces.snapshot
        guard let store = context.store else { return next }
        do {
            try await store.save(next)
        } catch {
            throw OAuthSessionError(
                code: .sessionEnded,
                message: "the refreshed tokens of \(account) could not be stored: \(type(of: error))")
        }
        return next
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
        _ error: OAuthError, _ message: String, endsOn kinds: Set<OAuthError.Kind>, endingCodes: Set<String> = []
    ) -> OAuthSessionError {
        let ends = kinds.contains(error.kind) || error.serverCode.map(endingCodes.contains) == true
        return OAuthSessionError(code: ends ? .sessionEnded : .requestFailed, message: message, underlying: error)
    }
}
