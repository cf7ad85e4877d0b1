import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// What a mute of an account hides: everything it posts, or only its reposts, or only its quote
/// posts (`app.bsky.graph.muteActor`'s `onlyReposts` and `onlyQuoteposts`).
public struct MuteScope: Sendable, Hashable {
    /// Hides only the account's reposts; its own posts still show.
    public var onlyReposts: Bool
    /// Hides only the account's quote posts.
    public var onlyQuotePosts: Bool

    /// A scope of the two parts; both `false` is ``everything``.
    public init(onlyReposts: Bool = false, onlyQuotePosts: Bool = false) {
        self.onlyReposts = onlyReposts
        self.onlyQuotePosts = onlyQuotePosts
    }

    /// Everything the account posts, reposts and quotes: a full mute.
    public static let everything = MuteScope()
    /// Only the account's reposts (a profile then reads `viewer.mutedOnlyReposts`).
    public static let reposts = MuteScope(onlyReposts: true)
    /// Only the account's quote posts (a profile then reads `viewer.mutedOnlyQuoteposts`).
    public static let quotePosts = MuteScope(onlyQuotePosts: true)
}

/// Mutes, and mutes and blocks through moderation lists. Mutes are private, kept by the AppView
/// (`app.bsky.graph.muteActor` and its siblings, through the PDS): nothing is written to the
/// repository. A list block is a record, `app.bsky.graph.listblock`, in the account's repository.
extension XRPCClient {
    // MARK: Accounts

    /// Mutes `actor` (a DID or handle) for the signed-in account: everything it posts, or only its
    /// reposts or its quote posts. Muting again replaces the scope.
    ///
    /// - Throws: ``BlueskyActionError`` (`invalidActor`) before sending when `actor` is neither a DID nor
    ///   a handle, then the errors of `app.bsky.graph.muteActor` (the server refuses the account
    ///   itself).
    public func mute(_ actor: ATIdentifier, scope: MuteScope = .everything) async throws {
        if let reason = ATIdentifier.syntaxError(in: actor.rawValue) {
            throw BlueskyActionError(
                .invalidActor, action: "mute", value: actor.rawValue,
                message: "is neither a DID nor a handle: \(reason)")
        }
        _ = try await app.bsky.graph.muteActor(
            actor: actor, onlyQuoteposts: scope.onlyQuotePosts ? true : nil,
            onlyReposts: scope.onlyReposts ? true : nil)
    }

    /// Unmutes `actor`, whatever the scope of its mute.
    ///
    /// - Throws: ``BlueskyActionError`` (`invalidActor`) before sending when `actor` is neither a DID nor
    ///   a handle, then the errors of `app.bsky.graph.unmuteActor`.
    public func unmute(_ actor: ATIdentifier) async throws {
        if let reason = ATIdentifier.syntaxError(in: actor.rawValue) {
            throw BlueskyActionError(
                .invalidActor, action: "unmute", value: actor.rawValue,
                message: "is neither a DID nor a handle: \(reason)")
        }
        _ = try await app.bsky.graph.unmuteActor(actor: actor)
    }

    // MARK: Lists

    /// Mutes every account on the list `list` (an `app.bsky.graph.list` record; a moderation list's
    /// mute hides its members, as muting each would). Private, like an account's mute.
    ///
    /// - Throws: ``BlueskyActionError`` before sending when `list` is not the URI of a list record
    ///   (`invalidURI`, `wrongCollection`), then the errors of `app.bsky.graph.muteActorList`.
    public func muteList(_ list: ATURI) async throws {
        _ = try SocialInput.record(list, of: AppBskyGraphList.collection, action: "muteList")
        _ = try await app.bsky.graph.muteActorList(list: list)
    }

    /// Undoes ``muteList(_:)``.
    ///
    /// - Throws: ``BlueskyActionError`` before sending when `list` is not the URI of a list record.
    public func unmuteList(_ list: ATURI) async throws {
        _ = try SocialInput.record(list, of: AppBskyGraphList.collection, action: "unmuteList")
        _ = try await app.bsky.graph.unmuteActorList(list: list)
    }

    /// Blocks every account on the moderation list `list` as `repo`, the signed-in account: an
    /// `app.bsky.graph.listblock` record. The list's view then has `viewer.blocked`, and its members'
    /// profiles `viewer.blockingByList`. A curation list's block blocks nobody.
    ///
    /// - Returns: The list block's URI and CID.
    /// - Throws: ``BlueskyActionError`` before sending when `list` is not the URI of a list record
    ///   (`invalidURI`, `wrongCollection`), then the errors of `createRecord`.
    @discardableResult
    public func blockList(_ list: ATURI, repo: DID) async throws -> ComAtprotoRepoStrongRef {
        _ = try SocialInput.record(list, of: AppBskyGraphList.collection, action: "blockList")
        return try await create(AppBskyGraphListblock(subject: list, createdAt: .now()), repo: repo)
    }

    /// Undoes the signed-in account's block of the list `list`: reads the list's `viewer.blocked`
    /// (`app.bsky.graph.getList`) and deletes that list block.
    ///
    /// - Returns: The URI of the list block deleted, or `nil` when the account did not block the list.
    /// - Throws: ``BlueskyActionError`` before sending when `list` is not the URI of a list record,
    ///   `unexpectedAnswer` when the list's `viewer.blocked` is not a list block (nothing is deleted),
    ///   then the errors of `getList` and `deleteRecord`.
    @discardableResult
    public func unblockList(_ list: ATURI) async throws -> ATURI? {
        _ = try SocialInput.record(list, of: AppBskyGraphList.collection, action: "unblockList")
        let view = try await app.bsky.graph.getList(list: list, limit: 1).list
        guard let blocked = view.viewer?.blocked else { return nil }
        guard blocked.collection == AppBskyGraphListblock.collection, blocked.rkey != nil else {
            throw BlueskyActionError(
                .unexpectedAnswer, action: "unblockList", value: blocked.rawValue,
                expected: AppBskyGraphListblock.collection,
                message: "is the list's viewer.blocked, and not a list block")
        }
        try await delete(AppBskyGraphListblock.self, at: blocked, action: "unblockList")
        return blocked
    }
}
