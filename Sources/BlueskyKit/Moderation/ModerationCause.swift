// Why a decision covers, filters or notes something: one cause per relationship, label, muted word or
// hidden post, with the priority that orders covers when several apply.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// Who brought a cause about.
public enum ModerationCauseSource: Sendable, Hashable {
    /// The user (a mute, a block, a hidden post, a muted word, a self-label).
    case user
    /// A moderation list the user subscribed to.
    case list(AppBskyGraphDefs.ListViewBasic)
    /// A labeler the user subscribed to.
    case labeler(DID)
}

/// A label that applies, with how it was interpreted.
public struct LabelModerationCause: Sendable, Hashable {
    /// The label as received.
    public var label: ComAtprotoLabelDefs.Label
    /// The definition the label was interpreted with.
    public var definition: LabelDefinition
    /// What the label is on.
    public var target: LabelTarget
    /// The preference that applied (never `ignore`: ignored labels are no cause).
    public var setting: BlueskyLabelPreference
    /// What the label does in each context.
    public var behavior: ModerationBehavior
    /// Whether a cover this label puts up may be lifted by the user.
    public var noOverride: Bool
}

/// One reason a decision acts on a subject.
public struct ModerationCause: Sendable, Hashable {
    /// What kind of reason it is.
    public enum Kind: Sendable, Hashable {
        /// The user blocks the account (directly or through a list).
        case blocking
        /// The account blocks the user.
        case blockedBy
        /// A label applies.
        case label(LabelModerationCause)
        /// The user muted the account (directly or through a list).
        case muted
        /// The content contains words the user muted.
        case mutedWord([MutedWordMatch])
        /// The user hid the post.
        case hidden
    }

    /// What kind of reason it is.
    public var kind: Kind
    /// Who brought it about.
    public var source: ModerationCauseSource
    /// Its rank when several causes cover a subject: lower comes first (1 is a cover that cannot be
    /// lifted, 2 a hidden label, 3-4 blocks, 5 a label covering the full view, 6 mutes and hidden
    /// posts, 7 a label covering lists or media, 8 other labels).
    public var priority: Int
    /// Whether the cause was passed on from an embedded record (a quoted post): it still removes the
    /// subject from lists but covers and notes nothing.
    public var isDowngraded: Bool

    /// Creates a cause.
    public init(kind: Kind, source: ModerationCauseSource = .user, priority: Int, isDowngraded: Bool = false) {
        self.kind = kind
        self.source = source
        self.priority = priority
        self.isDowngraded = isDowngraded
    }

    /// The label cause, when the cause is a label.
    public var labelCause: LabelModerationCause? {
        if case .label(let cause) = kind { return cause }
        return nil
    }

    /// Whether the cause is a block in either direction.
    public var isBlock: Bool {
        switch kind {
        case .blocking, .blockedBy: true
        default: false
        }
    }
}
