import AtprotoSyntax
import Foundation

/// Several signed-in accounts at once, keyed by DID: each its own ``OAuthSession`` (own DPoP key,
/// tokens, nonces and archive), all made by one ``AtprotoOAuthClient``.
///
/// ```swift
/// let accounts = OAuthAccounts(client: client)
/// let alice = try await accounts.signIn(.account("alice.example.com"), with: authenticator)
/// try await accounts.restore(storedArchives)      // next launch
/// let agent = await accounts.session(for: did)   // an XRPCAgent
/// ```
public actor OAuthAccounts {
    /// The client that signs in and restores.
    public nonisolated let client: AtprotoOAuthClient
    private var sessions: [String: OAuthSession] = [:]

    /// Creates an empty set of accounts.
    public init(client: AtprotoOAuthClient) {
        self.client = client
    }

    /// The DIDs with a session, sorted.
    public var dids: [DID] { sessions.keys.sorted().map { DID(rawValue: $0) } }

    /// The session of `did`, if it was signed in or restored here.
    public func session(for did: DID) -> OAuthSession? { sessions[did.rawValue] }

    /// Signs an account in; a session of the same DID is replaced (the old one is left to the app).
    @discardableResult
    public func signIn(_ start: OAuthSignInStart, with authenticator: any OAuthUserAuthenticator) async throws
        -> OAuthSession
    {
        let session = try await client.signIn(start, with: authenticator)
        sessions[session.did.rawValue] = session
        return session
    }

    /// Restores every archive; returns the DIDs whose archive could not be restored (their keys
    /// unreadable, another client id), which the app should forget.
    @discardableResult
    public func restore(_ archives: [OAuthSessionArchive]) async -> [DID] {
        var failed: [DID] = []
        for archive in archives {
            do {
                sessions[archive.did.rawValue] = try await client.restore(archive)
            } catch {
                failed.append(archive.did)
            }
        }
        return failed
    }

    /// Signs `did` out (revoking its grant) and forgets its session.
    public func signOut(_ did: DID) async throws {
        guard let session = sessions.removeValue(forKey: did.rawValue) else { return }
        try await session.signOut()
    }
}
