// How one label becomes a cause: find its definition, check that its source counts, settle the
// user's preference for it, and rank it.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension ModerationDecision {
    /// Adds the cause `label` brings about on `target`, if any.
    ///
    /// A label is ignored when its value has no definition (unknown values), when it comes from a
    /// labeler the user does not subscribe to (self-labels, whose source is the subject's own account,
    /// always count, unless the value may not be self-applied), when the preference for it is `ignore`,
    /// or when it applies to signed-out viewers only and someone is signed in. Negation labels
    /// (`neg`) are ignored too: the service already removed what they negate.
    mutating func addLabel(_ label: ComAtprotoLabelDefs.Label, target: LabelTarget, options: ModerationOptions) {
        if label.neg == true { return }
        guard let definition = options.definition(of: label.val, from: label.src) else { return }
        let preferences = options.preferences
        let isSelf = did == label.src
        let labeler = isSelf ? nil : preferences.labelers.first { $0.did == label.src }
        if !isSelf && labeler == nil { return }
        if isSelf && definition.flags.contains(.noSelf) { return }

        let adultBlocked = definition.flags.contains(.adult) && !preferences.adultContentEnabled
        var setting = definition.defaultSetting
        if !definition.configurable {
            setting = definition.defaultSetting
        } else if adultBlocked {
            setting = .hide
        } else if let chosen = labeler?.labels[definition.identifier] {
            setting = chosen
        } else if let chosen = preferences.labels[definition.identifier] {
            setting = chosen
        }
        if setting == .ignore { return }
        if definition.flags.contains(.unauthed) && options.isSignedIn { return }

        let behavior = definition.behavior(for: target)
        let noOverride = definition.flags.contains(.noOverride) || adultBlocked
        let priority: Int
        if noOverride {
            priority = 1
        } else if setting == .hide {
            priority = 2
        } else if behavior[.profileView] == .blur || behavior[.contentView] == .blur {
            priority = 5
        } else if behavior[.contentList] == .blur || behavior[.contentMedia] == .blur {
            priority = 7
        } else {
            priority = 8
        }
        let cause = LabelModerationCause(
            label: label, definition: definition, target: target, setting: setting, behavior: behavior,
            noOverride: noOverride)
        causes.append(
            ModerationCause(
                kind: .label(cause), source: labeler.map { .labeler($0.did) } ?? .user, priority: priority))
    }
}
