// The label values every client understands without a labeler's definition: the imperative values
// (`!hide`, `!warn`, `!no-unauthenticated`) and the adult-content and graphic-media values, with
// their defaults as the protocol's reference client ships them.

extension LabelDefinition {
    /// The built-in definitions by value, including the legacy alias `gore` of `graphic-media`.
    public static let builtIn: [String: LabelDefinition] = {
        var table: [String: LabelDefinition] = [:]
        for definition in builtInList { table[definition.identifier] = definition }
        var gore = table["graphic-media"]
        gore?.identifier = "gore"
        table["gore"] = gore
        return table
    }()

    /// The default preference of each configurable built-in value (`porn`: `hide`, `sexual`: `warn`,
    /// `nudity`: `ignore`, `graphic-media`: `warn`), what preferences start from.
    public static let defaultLabelSettings: [String: BlueskyLabelPreference] = {
        var settings: [String: BlueskyLabelPreference] = [:]
        for definition in builtInList where definition.configurable {
            settings[definition.identifier] = definition.defaultSetting
        }
        return settings
    }()

    private static let builtInList: [LabelDefinition] = [
        imperative(
            "!hide", setting: .hide, flags: [.noOverride, .noSelf], severity: "alert", accountDisplayName: true),
        imperative("!warn", setting: .warn, flags: [.noSelf], severity: "none", accountDisplayName: false),
        imperative(
            "!no-unauthenticated", setting: .hide, flags: [.noOverride, .unauthed], severity: "none",
            accountDisplayName: true),
        media("porn", setting: .hide, flags: [.adult]),
        media("sexual", setting: .warn, flags: [.adult]),
        media("nudity", setting: .ignore, flags: []),
        media("graphic-media", setting: .warn, flags: [.adult]),
    ]

    /// A value the user cannot configure that covers the whole subject.
    private static func imperative(
        _ value: String, setting: BlueskyLabelPreference, flags: LabelDefinitionFlags, severity: String,
        accountDisplayName: Bool
    ) -> LabelDefinition {
        var account = ModerationBehavior([
            .profileList: .blur, .profileView: .blur, .avatar: .blur, .banner: .blur, .contentList: .blur,
            .contentView: .blur,
        ])
        if accountDisplayName { account[.displayName] = .blur }
        return LabelDefinition(
            identifier: value, configurable: false, defaultSetting: setting, flags: flags, severity: severity,
            blurs: "content", account: account,
            profile: ModerationBehavior([.avatar: .blur, .banner: .blur, .displayName: .blur]),
            content: ModerationBehavior([.contentList: .blur, .contentView: .blur]))
    }

    /// A configurable value that covers media: images in content, avatar and banner on accounts.
    private static func media(_ value: String, setting: BlueskyLabelPreference, flags: LabelDefinitionFlags)
        -> LabelDefinition
    {
        let pictures = ModerationBehavior([.avatar: .blur, .banner: .blur])
        return LabelDefinition(
            identifier: value, configurable: true, defaultSetting: setting, flags: flags, severity: "none",
            blurs: "media", account: pictures, profile: pictures, content: ModerationBehavior([.contentMedia: .blur]))
    }
}
