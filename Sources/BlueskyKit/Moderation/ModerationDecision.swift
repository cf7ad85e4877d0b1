// A decision is the list of causes that apply to a subject (its own, its author's, its embeds');
// `ui(_:)` turns them into what one place in a UI does.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// The moderation decision for one subject: every cause that applies, and what each UI context does.
///
/// Make one with ``ModerationOptions/decide(post:)`` and its siblings, then ask ``ui(_:)`` for each
/// place the subject appears.
public struct ModerationDecision: Sendable, Hashable {
    /// The account the subject belongs to (a post's author, a list's creator), or `nil` when unknown.
    public var did: DID?
    /// Whether that account is the viewer's own: the viewer's own content is never filtered, mutes
    /// and blocks do not apply, and covers on it may always be lifted.
    public var isMe: Bool
    /// The causes, in the order they were found.
    public var causes: [ModerationCause]

    /// A decision with no causes.
    public init(did: DID? = nil, isMe: Bool = false, causes: [ModerationCause] = []) {
        self.did = did
        self.isMe = isMe
        self.causes = causes
    }

    /// The same decision with every cause downgraded (as for a quoted post inside another).
    func downgraded() -> ModerationDecision {
        var copy = self
        for index in copy.causes.indices { copy.causes[index].isDowngraded = true }
        return copy
    }

    /// Whether a block in either direction applies.
    public var blocked: Bool { blockCause != nil }
    /// Whether the user muted the account.
    public var muted: Bool { muteCause != nil }
    /// The first block cause.
    public var blockCause: ModerationCause? { causes.first { $0.isBlock } }
    /// The first mute cause.
    public var muteCause: ModerationCause? {
        causes.first {
            if case .muted = $0.kind { return true }
            return false
        }
    }
    /// The label causes.
    public var labelCauses: [LabelModerationCause] { causes.compactMap(\.labelCause) }

    /// Marks the subject as hidden by the user, as a post in the hidden-posts preference is.
    public mutating func addHidden() {
        causes.append(ModerationCause(kind: .hidden, priority: 6))
    }

    /// What `context` does with the subject.
    ///
    /// Blocks, mutes and hidden posts remove the subject from lists; a label does when its preference
    /// is `hide`. Then each cause that is not downgraded covers, warns or notes as its behavior says.
    /// The viewer's own subjects are never filtered and are not affected by mutes, blocks or muted
    /// words. Filters and covers are ordered by priority.
    public func ui(_ context: ModerationContext) -> ModerationUI {
        var ui = ModerationUI()
        for cause in causes {
            switch cause.kind {
            case .blocking, .blockedBy:
                if isMe { continue }
                if context.isList { ui.filters.append(cause) }
                if !cause.isDowngraded {
                    let action = ModerationBehavior.block[context]
                    if action == .blur { ui.noOverride = true }
                    ui.add(cause, action: action)
                }
            case .muted:
                if isMe { continue }
                if context.isList { ui.filters.append(cause) }
                if !cause.isDowngraded { ui.add(cause, action: ModerationBehavior.mute[context]) }
            case .mutedWord:
                if isMe { continue }
                if context == .contentList { ui.filters.append(cause) }
                if !cause.isDowngraded { ui.add(cause, action: ModerationBehavior.mutedWord[context]) }
            case .hidden:
                if context.isList { ui.filters.append(cause) }
                if !cause.isDowngraded { ui.add(cause, action: ModerationBehavior.hidden[context]) }
            case .label(let label):
                let filters: Bool
                switch context {
                case .profileList: filters = label.target == .account
                case .contentList: filters = label.target == .account || label.target == .content
                default: filters = false
                }
                if filters && label.setting == .hide && !isMe { ui.filters.append(cause) }
                if !cause.isDowngraded {
                    let action = label.behavior[context]
                    if action == .blur && label.noOverride && !isMe { ui.noOverride = true }
                    ui.add(cause, action: action)
                }
            }
        }
        ui.filters = Self.byPriority(ui.filters)
        ui.blurs = Self.byPriority(ui.blurs)
        return ui
    }

    /// Sorted by priority, keeping the order found among equals.
    private static func byPriority(_ causes: [ModerationCause]) -> [ModerationCause] {
        guard causes.count > 1 else { return causes }
        return causes.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
            .map(\.element)
    }
}
