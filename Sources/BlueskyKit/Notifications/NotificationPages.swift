import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// One notification ready to show: the notification, its moderation decision, and the post it is
/// about when it is about one.
public struct BlueskyNotification: Sendable, Hashable {
    /// The notification as listed (`reason`, `author`, `record`, `isRead`, ...).
    public var notification: AppBskyNotificationListNotifications.Notification
    /// The decision for the notification (its labels, its author's relationships and labels):
    /// `decision.ui(.contentList)` says whether to leave it out, cover it or warn.
    public var decision: ModerationDecision
    /// The post the notification shows, as the official client shows it: for a like or a repost
    /// (also through a repost), the account's own post that was liked or reposted (`reasonSubject`);
    /// for a reply, a mention, a quote or a post of a subscribed account, that post itself (`uri`).
    /// `nil` for a follow and the other reasons, and when the post is gone or not visible.
    public var subject: AppBskyFeedDefs.PostView?
    /// The decision for ``subject``, when there is one (its labels, muted words, its author).
    public var subjectDecision: ModerationDecision?

    /// Creates an item.
    public init(
        notification: AppBskyNotificationListNotifications.Notification, decision: ModerationDecision,
        subject: AppBskyFeedDefs.PostView? = nil, subjectDecision: ModerationDecision? = nil
    ) {
        self.notification = notification
        self.decision = decision
        self.subject = subject
        self.subjectDecision = subjectDecision
    }

    /// The URI of the post a notification of this reason shows (see ``subject``), when it names one.
    public static func subjectURI(of notification: AppBskyNotificationListNotifications.Notification) -> ATURI? {
        let uri: ATURI?
        switch notification.reason {
        case .like, .repost, .likeViaRepost, .repostViaRepost:
            uri = notification.reasonSubject
        case .reply, .mention, .quote, .subscribedPost:
            uri = notification.uri
        default:
            uri = nil
        }
        guard let uri, uri.collection == AppBskyFeedPost.collection, uri.rkey != nil else { return nil }
        return uri
    }
}

/// A page of notifications with their decisions and subject posts, and the cursor of the next.
public struct BlueskyNotificationPage: Sendable, Hashable {
    /// The notifications, newest first, each with its decision and subject post.
    public var items: [BlueskyNotification]
    /// The cursor of the next page, `nil` on the last one.
    public var cursor: String?
    /// When the account last marked its notifications seen, when the server says.
    public var seenAt: LexiconDatetime?
    /// Whether the page holds only priority notifications, when the server says.
    public var priority: Bool?

    /// Creates a page.
    public init(items: [BlueskyNotification], cursor: String?, seenAt: LexiconDatetime? = nil, priority: Bool? = nil) {
        self.items = items
        self.cursor = cursor
        self.seenAt = seenAt
        self.priority = priority
    }
}

/// The signed-in account's notifications: how many are unread, marking them seen, and a page of
/// them ready to show.
extension XRPCClient {
    /// How many of the account's notifications are unread (`app.bsky.notification.getUnreadCount`).
    ///
    /// - Parameter priority: Counts only priority notifications (from accounts the user follows) when
    ///   `true`; the server's setting when `nil`.
    public func unreadNotificationCount(priority: Bool? = nil) async throws -> Int {
        try await app.bsky.notification.getUnreadCount(priority: priority).count
    }

    /// Marks the account's notifications seen up to `seenAt` (`app.bsky.notification.updateSeen`):
    /// those indexed then or earlier read as `isRead` and leave the unread count.
    ///
    /// - Parameter seenAt: The time to mark seen up to; now by default.
    public func markNotificationsSeen(at seenAt: LexiconDatetime = .now()) async throws {
        _ = try await app.bsky.notification.updateSeen(seenAt: seenAt)
    }

    /// A page of the account's notifications, each with its moderation decision under `moderation`
    /// and the post it is about (``BlueskyNotification/subject``), read in one `app.bsky.feed.getPosts`
    /// per 25 posts.
    ///
    /// Nothing is left out: a notification whose decision filters it in a list
    /// (`item.decision.ui(.contentList).filter`) is for the app to drop.
    ///
    /// - Parameters:
    ///   - moderation: The viewer's moderation options (its preferences and label definitions).
    ///   - limit: At most this many notifications (1-100); the server's default (50) when `nil`.
    ///   - cursor: The ``BlueskyNotificationPage/cursor`` of the previous page.
    ///   - reasons: Only notifications of these reasons (`.like`, `.follow`, ...).
    ///   - priority: Only priority notifications when `true`.
    /// - Throws: The errors of `listNotifications` and `getPosts`.
    public func notifications(
        moderation: ModerationOptions, limit: Int? = nil, cursor: String? = nil,
        reasons: [AppBskyNotificationListNotifications.Notification.Reason]? = nil, priority: Bool? = nil
    ) async throws -> BlueskyNotificationPage {
        let output = try await app.bsky.notification.listNotifications(
            cursor: cursor, limit: limit, priority: priority, reasons: reasons?.map { $0.rawValue })
        let posts = try await postViews(output.notifications.compactMap { BlueskyNotification.subjectURI(of: $0) })
        let items = output.notifications.map { notification in
            let subject = BlueskyNotification.subjectURI(of: notification).flatMap { posts[$0] }
            return BlueskyNotification(
                notification: notification, decision: moderation.decide(notification: notification),
                subject: subject, subjectDecision: subject.map { moderation.decide(post: $0) })
        }
        return BlueskyNotificationPage(
            items: items, cursor: output.cursor, seenAt: output.seenAt, priority: output.priority)
    }

    /// The views of `uris`, by URI, read 25 at a time (`getPosts`' limit); posts not found are absent.
    private func postViews(_ uris: [ATURI]) async throws -> [ATURI: AppBskyFeedDefs.PostView] {
        var unique: [ATURI] = []
        var seen: Set<ATURI> = []
        for uri in uris where seen.insert(uri).inserted { unique.append(uri) }
        var views: [ATURI: AppBskyFeedDefs.PostView] = [:]
        var start = 0
        while start < unique.count {
            let chunk = Array(unique[start..<min(start + 25, unique.count)])
            for view in try await app.bsky.feed.getPosts(uris: chunk).posts { views[view.uri] = view }
            start += 25
        }
        return views
    }
}
