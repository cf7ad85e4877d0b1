import AtprotoSyntax
import Foundation

/// Where the app keeps session archives, by DID, when refreshes must be coordinated with other
/// processes (an app and its extensions) or must not outrun persistence.
///
/// With a store, a refresh runs under the ``OAuthRefreshLock`` as: read the stored archive (another
/// process may have refreshed: its newer tokens are adopted), refresh, and save the new archive
/// before the lock is released; when saving fails, the session ends rather than keep tokens the store
/// does not know. Without one, the app persists what ``OAuthSession/updates()`` publishes.
///
/// The package ships no implementation: the Keychain (iOS, macOS: a generic password item per DID,
/// in an access group shared with extensions) or a file the app protects are the app's choice.
public protocol OAuthSessionStore: Sendable {
    /// The stored archive of `did`, or `nil`.
    func archive(for did: DID) async throws -> OAuthSessionArchive?
    /// Stores `archive`, replacing the one of its DID.
    func save(_ archive: OAuthSessionArchive) async throws
    /// Forgets the archive of `did` (after sign-out, or when the session ended).
    func delete(_ did: DID) async throws
}
