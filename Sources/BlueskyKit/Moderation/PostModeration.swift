// Posts: the post's labels, hidden posts and muted words, its author, and a quoted post (whose causes
// are downgraded: they may remove the post from lists but cover nothing).

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension ModerationOptions {
    /// The decision for a post.
    ///
    /// The causes are the post's own labels, the user hiding it (or the post it quotes), muted words
    /// in its text, tags, alt texts and link cards (never in the viewer's own posts), a quoted post's
    /// labels and its author's relationships and labels (downgraded), and the author's.
    public func decide(post: AppBskyFeedDefs.PostView) -> ModerationDecision {
        var decision = ModerationDecision(did: post.author.did, isMe: isViewer(post.author.did))
        for label in post.labels ?? [] {
            decision.addLabel(label, target: .content, options: self)
        }
        if isHidden(post) { decision.addHidden() }
        if !decision.isMe, let matches = mutedWordMatches(in: post) {
            decision.causes.append(ModerationCause(kind: .mutedWord(matches), priority: 6))
        }
        if let quoted = quotedDecision(post.embed) {
            decision.causes.append(contentsOf: quoted.downgraded().causes)
        }
        return withAuthor(decision, post.author)
    }

    /// The decision for the record a post embeds, when it is a post or a blocked post.
    private func quotedDecision(_ embed: AppBskyFeedDefs.PostView.Embed?) -> ModerationDecision? {
        let record: AppBskyEmbedRecord.View.Record
        switch embed {
        case .appBskyEmbedRecordView(let view)?: record = view.record
        case .appBskyEmbedRecordWithMediaView(let view)?: record = view.record.record
        default: return nil
        }
        switch record {
        case .appBskyEmbedRecordViewRecord(let quoted):
            var decision = ModerationDecision(did: quoted.author.did, isMe: isViewer(quoted.author.did))
            for label in quoted.labels ?? [] {
                decision.addLabel(label, target: .content, options: self)
            }
            return withAuthor(decision, quoted.author)
        case .appBskyEmbedRecordViewBlocked(let blocked):
            var decision = ModerationDecision(did: blocked.author.did, isMe: isViewer(blocked.author.did))
            decision.addRelationships(blocked.author.viewer)
            return decision
        default:
            return nil
        }
    }

    /// Whether the user hid the post or the post it quotes.
    private func isHidden(_ post: AppBskyFeedDefs.PostView) -> Bool {
        let hidden = preferences.hiddenPosts
        guard !hidden.isEmpty else { return false }
        if hidden.contains(post.uri.rawValue) { return true }
        switch post.embed {
        case .appBskyEmbedRecordView(let view)?:
            if case .appBskyEmbedRecordViewRecord(let quoted) = view.record {
                return hidden.contains(quoted.uri.rawValue)
            }
        case .appBskyEmbedRecordWithMediaView(let view)?:
            if case .appBskyEmbedRecordViewRecord(let quoted) = view.record.record {
                return hidden.contains(quoted.uri.rawValue)
            }
        default:
            break
        }
        return false
    }
}
