// A label value's meaning for moderation: whether users may configure it, what it does by default
// and how it acts on accounts, profiles and content. The built-in values are in BuiltInLabels.swift;
// a labeler's own values are interpreted from its `labelValueDefinitions` here.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// Properties of a label value that change how it is applied.
public struct LabelDefinitionFlags: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates flags from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A cover this label puts up may never be lifted by the user.
    public static let noOverride = LabelDefinitionFlags(rawValue: 1 << 0)
    /// Adult content: hidden, without override, unless the user enabled adult content.
    public static let adult = LabelDefinitionFlags(rawValue: 1 << 1)
    /// Applies only to signed-out viewers (`!no-unauthenticated`).
    public static let unauthed = LabelDefinitionFlags(rawValue: 1 << 2)
    /// Ignored when the account labels itself (a self-label).
    public static let noSelf = LabelDefinitionFlags(rawValue: 1 << 3)
}

/// A label value interpreted for moderation.
///
/// The built-in values (``builtIn``) are defined by the protocol; a labeler defines its own in its
/// service record, read with ``init(_:definedBy:)``. Custom values only apply to the labels of the
/// labeler that defined them.
public struct LabelDefinition: Sendable, Hashable {
    /// The label value (`porn`, `!hide`, a labeler's `rude`).
    public var identifier: String
    /// The labeler that defined the value, or `nil` for a built-in value.
    public var definedBy: DID?
    /// Whether the user may choose a `BlueskyLabelPreference` for the value.
    public var configurable: Bool
    /// The preference applied when the user has not chosen one.
    public var defaultSetting: BlueskyLabelPreference
    /// Properties that change how the label is applied.
    public var flags: LabelDefinitionFlags
    /// The definition's `severity` as written (`alert`, `inform`, `none`), for display.
    public var severity: String
    /// The definition's `blurs` as written (`content`, `media`, `none`), for display.
    public var blurs: String
    /// The localized names and descriptions a labeler gave the value (empty for built-in values).
    public var locales: [ComAtprotoLabelDefs.LabelValueDefinitionStrings]
    /// What the label does when it is on an account.
    public var accountBehavior: ModerationBehavior
    /// What the label does when it is on a profile record.
    public var profileBehavior: ModerationBehavior
    /// What the label does when it is on content.
    public var contentBehavior: ModerationBehavior

    /// Creates a definition from its parts.
    public init(
        identifier: String, definedBy: DID? = nil, configurable: Bool, defaultSetting: BlueskyLabelPreference,
        flags: LabelDefinitionFlags, severity: String, blurs: String,
        locales: [ComAtprotoLabelDefs.LabelValueDefinitionStrings] = [],
        account: ModerationBehavior, profile: ModerationBehavior, content: ModerationBehavior
    ) {
        self.identifier = identifier
        self.definedBy = definedBy
        self.configurable = configurable
        self.defaultSetting = defaultSetting
        self.flags = flags
        self.severity = severity
        self.blurs = blurs
        self.locales = locales
        self.accountBehavior = account
        self.profileBehavior = profile
        self.contentBehavior = content
    }

    /// The behavior for a label on `target`.
    public func behavior(for target: LabelTarget) -> ModerationBehavior {
        switch target {
        case .account: accountBehavior
        case .profile: profileBehavior
        case .content: contentBehavior
        }
    }

    /// Interprets a labeler's own definition of a value.
    ///
    /// `blurs` chooses what is covered (`content`: lists, and the full view for adult-only values;
    /// `media`: images, avatar and banner; `none`: nothing), `severity` whether the other places get an
    /// alert, an inform notice or nothing. A `defaultSetting` other than `hide` or `ignore` (absent or
    /// unknown) is `warn`; an unknown `blurs` covers nothing and an unknown `severity` shows nothing.
    /// Custom values are always configurable and never apply as self-labels; `adultOnly` makes them
    /// adult content.
    public init(_ definition: ComAtprotoLabelDefs.LabelValueDefinition, definedBy labeler: DID) {
        let notice: ModerationAction? =
            switch definition.severity.rawValue {
            case "alert": .alert
            case "inform": .inform
            default: nil
            }
        let adultOnly = definition.adultOnly ?? false
        var account = ModerationBehavior()
        var profile = ModerationBehavior()
        var content = ModerationBehavior()
        switch definition.blurs.rawValue {
        case "content":
            account[.profileList] = notice
            account[.profileView] = notice
            account[.contentList] = .blur
            account[.contentView] = adultOnly ? .blur : notice
            profile[.profileList] = notice
            profile[.profileView] = notice
            content[.contentList] = .blur
            content[.contentView] = adultOnly ? .blur : notice
        case "media":
            account[.profileList] = notice
            account[.profileView] = notice
            account[.avatar] = .blur
            account[.banner] = .blur
            profile[.profileList] = notice
            profile[.profileView] = notice
            profile[.avatar] = .blur
            profile[.banner] = .blur
            content[.contentMedia] = .blur
        case "none":
            account[.profileList] = notice
            account[.profileView] = notice
            account[.contentList] = notice
            account[.contentView] = notice
            profile[.profileList] = notice
            profile[.profileView] = notice
            content[.contentList] = notice
            content[.contentView] = notice
        default:
            break
        }
        let defaultSetting: BlueskyLabelPreference =
            switch definition.defaultSetting.rawValue {
            case "hide": .hide
            case "ignore": .ignore
            default: .warn
            }
        self.init(
            identifier: definition.identifier, definedBy: labeler, configurable: true, defaultSetting: defaultSetting,
            flags: adultOnly ? [.noSelf, .adult] : [.noSelf], severity: definition.severity.rawValue,
            blurs: definition.blurs.rawValue,
            locales: definition.locales, account: account, profile: profile, content: content)
    }

    /// Whether `value` may name a labeler's own label value (lowercase ASCII letters and `-`); other
    /// values, such as the imperative `!hide`, only ever have their built-in meaning.
    public static func isCustomValue(_ value: String) -> Bool {
        !value.isEmpty
            && value.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-") }
    }
}
