// The vocabulary of moderation decisions: where in a UI a decision applies, what it can do there,
// and what a user can ask for a label.

/// A place in a UI that a moderation decision speaks about.
public enum ModerationContext: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A profile shown in a list (search results, followers).
    case profileList
    /// A profile opened on its own page.
    case profileView
    /// An account's avatar, wherever it appears.
    case avatar
    /// An account's banner image.
    case banner
    /// An account's display name, wherever it appears.
    case displayName
    /// Content shown in a list: a post in a feed or a thread, a feed or list in a listing.
    case contentList
    /// Content opened on its own: a post's thread page, a feed's or list's page.
    case contentView
    /// The media inside content (a post's images, video or link card).
    case contentMedia

    /// The context's name as the official TypeScript package spells it (`contentList`).
    public var description: String {
        switch self {
        case .profileList: "profileList"
        case .profileView: "profileView"
        case .avatar: "avatar"
        case .banner: "banner"
        case .displayName: "displayName"
        case .contentList: "contentList"
        case .contentView: "contentView"
        case .contentMedia: "contentMedia"
        }
    }

    /// Whether removing the subject from a list is possible here (`profileList`, `contentList`).
    var isList: Bool { self == .profileList || self == .contentList }
}

/// What a cause does in one context: cover the subject, warn about it, or note it.
public enum ModerationAction: String, Sendable, Hashable {
    /// Put the subject behind a cover.
    case blur
    /// Show a warning (a negative notice) on the subject.
    case alert
    /// Show an informational (neutral) notice on the subject.
    case inform
}

/// What a cause does in each context; a context without an action is left alone.
public struct ModerationBehavior: Sendable, Hashable {
    private var actions: [ModerationAction?] = Array(repeating: nil, count: ModerationContext.allCases.count)

    /// A behavior with no action anywhere.
    public init() {}

    /// A behavior with the given actions.
    public init(_ actions: [ModerationContext: ModerationAction]) {
        for (context, action) in actions { self[context] = action }
    }

    /// The action in `context`, or `nil` when the cause does nothing there.
    public subscript(context: ModerationContext) -> ModerationAction? {
        get { actions[context.rawValue] }
        set { actions[context.rawValue] = newValue }
    }

    /// Whether the behavior does nothing in any context.
    public var isEmpty: Bool { actions.allSatisfy { $0 == nil } }

    /// A block: filtered from lists, covered in content, an alert on the profile page.
    static let block = ModerationBehavior([
        .profileList: .blur, .profileView: .alert, .avatar: .blur, .banner: .blur, .contentList: .blur,
        .contentView: .blur,
    ])
    /// A muted account.
    static let mute = ModerationBehavior([
        .profileList: .inform, .profileView: .alert, .contentList: .blur, .contentView: .inform,
    ])
    /// A muted word.
    static let mutedWord = ModerationBehavior([.contentList: .blur, .contentView: .blur])
    /// A post the user hid.
    static let hidden = ModerationBehavior([.contentList: .blur, .contentView: .blur])
}

/// What a label is attached to, which decides which of its behaviors applies.
public enum LabelTarget: String, Sendable, Hashable, CaseIterable {
    /// The account as a whole (the label's subject is the DID).
    case account
    /// The account's profile record (`at://<did>/app.bsky.actor.profile/self`).
    case profile
    /// A piece of content (a post, a feed generator, a list).
    case content
}
