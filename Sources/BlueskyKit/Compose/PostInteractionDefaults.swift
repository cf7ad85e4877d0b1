// The account's defaults for new posts (`postInteractionSettingsPref`: who may reply, who may quote)
// applied to a draft that names no gates of its own.

import AppBskyLexicons
import BlueskyPreferences
import ComAtprotoLexicons

extension BlueskyPostDraft {
    /// The draft with `settings` filling the gates it names none of: a reply gate from
    /// `threadgateAllowRules` (not on a reply, which cannot be gated), a quote gate from
    /// `postgateEmbeddingRules`. A gate the draft names is kept; so is a draft's gate-less state when
    /// the settings name no rules. Rules of kinds this package does not know are left out.
    public func applyingInteractionSettings(_ settings: AppBskyActorDefs.PostInteractionSettingsPref)
        -> BlueskyPostDraft
    {
        var draft = self
        if draft.replyGate == nil, draft.reply == nil, let rules = settings.threadgateAllowRules {
            draft.replyGate = ReplyGate(
                allow: rules.compactMap { rule -> ReplyGate.Rule? in
                    switch rule {
                    case .appBskyFeedThreadgateMentionRule: .mentioned
                    case .appBskyFeedThreadgateFollowerRule: .followers
                    case .appBskyFeedThreadgateFollowingRule: .following
                    case .appBskyFeedThreadgateListRule(let list): .list(list.list)
                    default: nil
                    }
                })
        }
        if draft.quoteGate == nil,
            settings.postgateEmbeddingRules?.contains(where: {
                if case .appBskyFeedPostgateDisableRule = $0 { true } else { false }
            }) == true
        {
            draft.quoteGate = QuoteGate(disableQuotes: true)
        }
        return draft
    }
}

extension XRPCClient {
    /// Publishes `draft` as ``publishPost(_:repo:)`` does, with the account's default post-interaction
    /// settings (read from its preferences) filling the gates the draft names none of
    /// (``BlueskyPostDraft/applyingInteractionSettings(_:)``).
    ///
    /// - Throws: the errors of `getPreferences` (`XRPCCallError`), then ``BlueskyComposeError``.
    public func publishPostWithDefaultGates(_ draft: BlueskyPostDraft, repo: DID) async throws -> BlueskyPublishedPost {
        let settings = try await blueskyPreferences().postInteractionSettings
        return try await publishPost(draft.applyingInteractionSettings(settings), repo: repo)
    }
}
