import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// Likes, reposts, follows and blocks: each one call that writes one record to the account's
/// repository and returns its reference, whose `uri` undoes it.
///
/// The undo calls take that URI, or the one a view gives for the viewer's own record:
/// `post.viewer?.like`, `post.viewer?.repost`, `profile.viewer?.following`,
/// `profile.viewer?.blocking`. Each checks first that the URI names a record of the right collection
/// and deletes it from the repository the URI names.
///
/// Input is checked before anything is sent: a ``BlueskyActionError`` names what is wrong. The record
/// is then checked against its lexicon (a `LexiconValidationError`, unless `validatesInput` is off)
/// and written with `com.atproto.repo.createRecord`; the server's refusals and failures to reach it
/// are the errors of any call (docs/Errors.md).
extension XRPCClient {
    // MARK: Likes

    /// Likes `subject` (a post, or another record such as a feed generator) as `repo`, the signed-in
    /// account: an `app.bsky.feed.like` record.
    ///
    /// - Parameters:
    ///   - subject: The liked record's URI and CID.
    ///   - via: The repost through which the account saw it (a feed item's `reasonRepost`), so that
    ///     the reposter is told; must be an `app.bsky.feed.repost` record.
    ///   - repo: The signed-in account.
    /// - Returns: The like's URI and CID; `unlike(_:)` takes the URI.
    /// - Throws: ``BlueskyActionError`` before sending (`invalidURI`, `wrongCollection` for a `via` that
    ///   is not a repost), then the errors of `createRecord`.
    @discardableResult
    public func like(_ subject: ComAtprotoRepoStrongRef, via: ComAtprotoRepoStrongRef? = nil, repo: DID)
        async throws -> ComAtprotoRepoStrongRef
    {
        try SocialInput.reference(subject, of: nil, action: "like")
        if let via { try SocialInput.reference(via, of: AppBskyFeedRepost.collection, action: "like") }
        return try await create(AppBskyFeedLike(subject: subject, createdAt: .now(), via: via), repo: repo)
    }

    /// Likes `post` as `repo`, the signed-in account; as its strong reference is.
    @discardableResult
    public func like(_ post: AppBskyFeedDefs.PostView, via: ComAtprotoRepoStrongRef? = nil, repo: DID)
        async throws -> ComAtprotoRepoStrongRef
    {
        try await like(ComAtprotoRepoStrongRef(uri: post.uri, cid: post.cid), via: via, repo: repo)
    }

    /// Undoes a like: deletes the `app.bsky.feed.like` record at `like` (the URI `like(_:via:repo:)`
    /// returned, or a post view's `viewer.like`).
    ///
    /// - Throws: ``BlueskyActionError`` before sending when `like` is not the URI of a like record,
    ///   then the errors of `deleteRecord`. Deleting a like that is already gone succeeds.
    public func unlike(_ like: ATURI) async throws {
        try await delete(AppBskyFeedLike.self, at: like, action: "unlike")
    }

    // MARK: Reposts

    /// Reposts `post` as `repo`, the signed-in account: an `app.bsky.feed.repost` record.
    ///
    /// - Parameters:
    ///   - post: The post's URI and CID; must be an `app.bsky.feed.post` record.
    ///   - via: The repost through which the account saw it, so that the reposter is told.
    ///   - repo: The signed-in account.
    /// - Returns: The repost's URI and CID; `unrepost(_:)` takes the URI.
    /// - Throws: ``BlueskyActionError`` before sending (`invalidURI`, `wrongCollection`), then the errors
    ///   of `createRecord`.
    @discardableResult
    public func repost(_ post: ComAtprotoRepoStrongRef, via: ComAtprotoRepoStrongRef? = nil, repo: DID)
        async throws -> ComAtprotoRepoStrongRef
    {
        try SocialInput.reference(post, of: AppBskyFeedPost.collection, action: "repost")
        if let via { try SocialInput.reference(via, of: AppBskyFeedRepost.collection, action: "repost") }
        return try await create(AppBskyFeedRepost(subject: post, createdAt: .now(), via: via), repo: repo)
    }

    /// Reposts `post` as `repo`; as its strong reference is.
    @discardableResult
    public func repost(_ post: AppBskyFeedDefs.PostView, via: ComAtprotoRepoStrongRef? = nil, repo: DID)
        async throws -> ComAtprotoRepoStrongRef
    {
        try await repost(ComAtprotoRepoStrongRef(uri: post.uri, cid: post.cid), via: via, repo: repo)
    }

    /// Undoes a repost: deletes the `app.bsky.feed.repost` record at `repost` (the URI
    /// `repost(_:via:repo:)` returned, or a post view's `viewer.repost`).
    ///
    /// - Throws: ``BlueskyActionError`` when `repost` is not the URI of a repost record.
    public func unrepost(_ repost: ATURI) async throws {
        try await delete(AppBskyFeedRepost.self, at: repost, action: "unrepost")
    }

    // MARK: Follows and blocks

    /// Follows the account `subject` as `repo`, the signed-in account: an `app.bsky.graph.follow`
    /// record.
    ///
    /// - Returns: The follow's URI and CID; `unfollow(_:)` takes the URI.
    /// - Throws: ``BlueskyActionError`` before sending (`invalidActor`, `subjectIsSelf`), then the
    ///   errors of `createRecord`.
    @discardableResult
    public func follow(_ subject: DID, repo: DID) async throws -> ComAtprotoRepoStrongRef {
        try SocialInput.otherAccount(subject, repo: repo, action: "follow")
        return try await create(AppBskyGraphFollow(subject: subject, createdAt: .now()), repo: repo)
    }

    /// Undoes a follow: deletes the `app.bsky.graph.follow` record at `follow` (the URI
    /// `follow(_:repo:)` returned, or a profile view's `viewer.following`).
    ///
    /// - Throws: ``BlueskyActionError`` when `follow` is not the URI of a follow record.
    public func unfollow(_ follow: ATURI) async throws {
        try await delete(AppBskyGraphFollow.self, at: follow, action: "unfollow")
    }

    /// Blocks the account `subject` as `repo`, the signed-in account: an `app.bsky.graph.block`
    /// record. Neither account then sees the other's posts, replies or interactions.
    ///
    /// - Returns: The block's URI and CID; `unblock(_:)` takes the URI.
    /// - Throws: ``BlueskyActionError`` before sending (`invalidActor`, `subjectIsSelf`), then the
    ///   errors of `createRecord`.
    @discardableResult
    public func block(_ subject: DID, repo: DID) async throws -> ComAtprotoRepoStrongRef {
        try SocialInput.otherAccount(subject, repo: repo, action: "block")
        return try await create(AppBskyGraphBlock(subject: subject, createdAt: .now()), repo: repo)
    }

    /// Undoes a block: deletes the `app.bsky.graph.block` record at `block` (the URI
    /// `block(_:repo:)` returned, or a profile view's `viewer.blocking`).
    ///
    /// - Throws: ``BlueskyActionError`` when `block` is not the URI of a block record.
    public func unblock(_ block: ATURI) async throws {
        try await delete(AppBskyGraphBlock.self, at: block, action: "unblock")
    }

    // MARK: Deleting

    /// Deletes the post at `post` (its replies, likes and reposts stay, pointing at nothing).
    ///
    /// - Throws: ``BlueskyActionError`` when `post` is not the URI of an `app.bsky.feed.post` record.
    public func deletePost(_ post: ATURI) async throws {
        try await delete(AppBskyFeedPost.self, at: post, action: "deletePost")
    }

    /// Deletes the record at `uri`, of any collection, from the repository the URI names
    /// (`com.atproto.repo.deleteRecord`). Deleting a record that does not exist succeeds.
    ///
    /// - Throws: ``BlueskyActionError`` (`invalidURI`) when `uri` does not name a record, then the
    ///   errors of the call.
    public func deleteRecord(at uri: ATURI) async throws {
        let (repo, collection, rkey) = try SocialInput.anyRecord(uri, action: "deleteRecord")
        _ = try await com.atproto.repo.deleteRecord(repo: repo, collection: collection, rkey: rkey)
    }

    // MARK: Shared

    /// Writes `record` to `repo` and returns its reference.
    func create<R: LexiconRecord>(_ record: R, repo: DID) async throws -> ComAtprotoRepoStrongRef {
        try await createRecord(record, repo: ATIdentifier(repo)).strongRef
    }

    /// Deletes the record of type `type` at `uri`, after checking the URI names one.
    func delete<R: LexiconRecord>(_ type: R.Type, at uri: ATURI, action: String) async throws {
        let (repo, rkey) = try SocialInput.record(uri, of: R.collection, action: action)
        try await deleteRecord(R.self, repo: repo, rkey: rkey)
    }
}

extension AppBskyFeedDefs.FeedViewPost {
    /// The repost through which this item reached the feed (its `reasonRepost`'s URI and CID), to
    /// pass as the `via` of a like or repost of `post` so that the reposter is told; `nil` for an
    /// item that is not a repost, or whose reason does not name its repost record.
    public var viaRepost: ComAtprotoRepoStrongRef? {
        guard case .appBskyFeedDefsReasonRepost(let reason)? = reason, let uri = reason.uri, let cid = reason.cid
        else { return nil }
        return ComAtprotoRepoStrongRef(uri: uri, cid: cid)
    }
}
