// Notifications, feed generators and lists: the subject's own labels as content, then its author's or
// creator's account and profile.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension ModerationOptions {
    /// The decision for a notification: its labels, then its author's relationships and labels.
    public func decide(notification: AppBskyNotificationListNotifications.Notification) -> ModerationDecision {
        contentDecision(labels: notification.labels, author: notification.author)
    }

    /// The decision for a feed generator: its labels, then its creator's relationships and labels.
    public func decide(feedGenerator: AppBskyFeedDefs.GeneratorView) -> ModerationDecision {
        contentDecision(labels: feedGenerator.labels, author: feedGenerator.creator)
    }

    /// The decision for a list: its labels, then its creator's relationships and labels.
    public func decide(list: AppBskyGraphDefs.ListView) -> ModerationDecision {
        contentDecision(labels: list.labels, author: list.creator)
    }

    /// The decision for a list known only by its basic view: its labels, with the creator taken from
    /// the list's URI (`at://<creator>/app.bsky.graph.list/<key>`; `did` is `nil` when the URI has no
    /// authority).
    public func decide(list: AppBskyGraphDefs.ListViewBasic) -> ModerationDecision {
        let creator = Self.authority(of: list.uri)
        var decision = ModerationDecision(did: creator, isMe: creator.map(isViewer) ?? false)
        for label in list.labels ?? [] {
            decision.addLabel(label, target: .content, options: self)
        }
        return decision
    }

    func contentDecision(labels: [ComAtprotoLabelDefs.Label]?, author: some ModerationProfileSubject)
        -> ModerationDecision
    {
        var decision = ModerationDecision(did: author.did, isMe: isViewer(author.did))
        for label in labels ?? [] {
            decision.addLabel(label, target: .content, options: self)
        }
        return withAuthor(decision, author)
    }

    /// The authority of an `at://` URI, or `nil` when there is none.
    static func authority(of uri: ATURI) -> DID? {
        guard uri.rawValue.hasPrefix("at://") else { return nil }
        let authority = uri.rawValue.dropFirst(5).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.isEmpty ? nil : DID(rawValue: String(authority))
    }
}
