// The account's other settings, one item of each kind: personal details (birth date), the declared
// age, per-feed and thread view settings, interests, the defaults for new posts' threadgates and
// postgates, verification badges and live events. Each is read typed (the last valid item of its
// kind, or the lexicon's defaults) and written checked against its lexicon, replacing every item of
// its kind.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension BlueskyPreferences {
    // MARK: Personal details and age

    /// The account owner's personal details (`personalDetailsPref`), or `nil` when none are stored.
    public var personalDetails: AppBskyActorDefs.PersonalDetailsPref? {
        lastValid { if case .appBskyActorDefsPersonalDetailsPref(let p) = $0 { p } else { nil } }
    }

    /// Sets the account owner's birth date (kept in the personal details, other fields as they were).
    public mutating func setBirthDate(_ birthDate: LexiconDatetime) throws(BlueskyPreferenceError) {
        var pref = personalDetails ?? AppBskyActorDefs.PersonalDetailsPref()
        pref.birthDate = birthDate
        try replaceChecked(.appBskyActorDefsPersonalDetailsPref(pref), preference: "personalDetailsPref") {
            if case .appBskyActorDefsPersonalDetailsPref = $0 { true } else { false }
        }
    }

    /// The ages the account owner declared (`declaredAgePref`), or `nil`. The Bluesky service sets
    /// this item from the birth date; there is no setter here.
    public var declaredAge: AppBskyActorDefs.DeclaredAgePref? {
        lastValid { if case .appBskyActorDefsDeclaredAgePref(let p) = $0 { p } else { nil } }
    }

    // MARK: Feeds and threads

    /// The view settings of one feed (`feedViewPref`, by its `feed`: a feed's URI, or `home` for the
    /// following timeline); the lexicon's defaults when none are stored.
    public func feedViewPreferences(for feed: String) -> AppBskyActorDefs.FeedViewPref {
        lastValid { item -> AppBskyActorDefs.FeedViewPref? in
            if case .appBskyActorDefsFeedViewPref(let p) = item, p.feed == feed { return p }
            return nil
        } ?? AppBskyActorDefs.FeedViewPref(feed: feed)
    }

    /// Stores the view settings of `preferences.feed`, replacing that feed's items (other feeds' stay).
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` when the feed is empty or the item breaks its
    ///   lexicon; nothing is changed.
    public mutating func setFeedViewPreferences(_ preferences: AppBskyActorDefs.FeedViewPref)
        throws(BlueskyPreferenceError)
    {
        guard !preferences.feed.isEmpty else {
            throw BlueskyPreferenceError(.invalidValue, preference: "feedViewPref", message: "names no feed")
        }
        try replaceChecked(.appBskyActorDefsFeedViewPref(preferences), preference: "feedViewPref") {
            if case .appBskyActorDefsFeedViewPref(let p) = $0 { p.feed == preferences.feed } else { false }
        }
    }

    /// How threads are shown (`threadViewPref`); the lexicon's defaults when none are stored.
    public var threadViewPreferences: AppBskyActorDefs.ThreadViewPref {
        lastValid { if case .appBskyActorDefsThreadViewPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.ThreadViewPref()
    }

    /// Stores how threads are shown.
    public mutating func setThreadViewPreferences(_ preferences: AppBskyActorDefs.ThreadViewPref)
        throws(BlueskyPreferenceError)
    {
        try replaceChecked(.appBskyActorDefsThreadViewPref(preferences), preference: "threadViewPref") {
            if case .appBskyActorDefsThreadViewPref = $0 { true } else { false }
        }
    }

    // MARK: Interests

    /// The tags describing the account owner's interests (`interestsPref`), empty when none are stored.
    public var interests: [String] {
        lastValid { if case .appBskyActorDefsInterestsPref(let p) = $0 { p.tags } else { nil } } ?? []
    }

    /// Stores the account owner's interests.
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` over the lexicon's limits (100 tags, each 64
    ///   graphemes and 640 bytes); nothing is changed.
    public mutating func setInterests(_ tags: [String]) throws(BlueskyPreferenceError) {
        var pref =
            lastValid { if case .appBskyActorDefsInterestsPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.InterestsPref(tags: [])
        pref.tags = tags
        try replaceChecked(.appBskyActorDefsInterestsPref(pref), preference: "interestsPref") {
            if case .appBskyActorDefsInterestsPref = $0 { true } else { false }
        }
    }

    // MARK: New posts

    /// Who may reply to and quote the account's new posts by default
    /// (`postInteractionSettingsPref`); empty settings (anyone may) when none are stored. A composer
    /// applies them to a draft that names no gates of its own.
    public var postInteractionSettings: AppBskyActorDefs.PostInteractionSettingsPref {
        lastValid { if case .appBskyActorDefsPostInteractionSettingsPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.PostInteractionSettingsPref()
    }

    /// Stores the defaults for new posts: `threadgateAllowRules` (`nil`: anyone may reply, empty:
    /// nobody) and `postgateEmbeddingRules` (a disable rule: nobody may quote).
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` over the lexicon's limits (5 rules of each) or
    ///   with a list rule whose URI is not an AT URI; nothing is changed.
    public mutating func setPostInteractionSettings(_ settings: AppBskyActorDefs.PostInteractionSettingsPref)
        throws(BlueskyPreferenceError)
    {
        try replaceChecked(
            .appBskyActorDefsPostInteractionSettingsPref(settings), preference: "postInteractionSettingsPref"
        ) {
            if case .appBskyActorDefsPostInteractionSettingsPref = $0 { true } else { false }
        }
    }

    // MARK: Verification and live events

    /// How verification is shown (`verificationPrefs`); the lexicon's defaults (badges shown) when
    /// none are stored.
    public var verificationPreferences: AppBskyActorDefs.VerificationPrefs {
        lastValid { if case .appBskyActorDefsVerificationPrefs(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.VerificationPrefs()
    }

    /// Hides or shows the verification badges of verified accounts and trusted verifiers.
    public mutating func setHidesVerificationBadges(_ hide: Bool) {
        var pref = verificationPreferences
        pref.hideBadges = hide
        replaceAll(
            where: { if case .appBskyActorDefsVerificationPrefs = $0 { true } else { false } },
            with: .appBskyActorDefsVerificationPrefs(pref))
    }

    /// Which live events are hidden (`liveEventPreferences`); the lexicon's defaults (none) when none
    /// are stored.
    public var liveEventPreferences: AppBskyActorDefs.LiveEventPreferences {
        lastValid { if case .appBskyActorDefsLiveEventPreferences(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.LiveEventPreferences()
    }

    /// Hides or shows every live-event feed.
    public mutating func setHidesAllLiveEventFeeds(_ hide: Bool) {
        var pref = liveEventPreferences
        pref.hideAllFeeds = hide
        storeLiveEvents(pref)
    }

    /// Hides the live-event feed with this id (once).
    public mutating func hideLiveEventFeed(id: String) {
        var pref = liveEventPreferences
        var hidden = pref.hiddenFeedIds ?? []
        if !hidden.contains(id) { hidden.append(id) }
        pref.hiddenFeedIds = hidden
        storeLiveEvents(pref)
    }

    /// Shows the live-event feed with this id again.
    public mutating func unhideLiveEventFeed(id: String) {
        var pref = liveEventPreferences
        pref.hiddenFeedIds = (pref.hiddenFeedIds ?? []).filter { $0 != id }
        storeLiveEvents(pref)
    }

    private mutating func storeLiveEvents(_ pref: AppBskyActorDefs.LiveEventPreferences) {
        replaceAll(
            where: { if case .appBskyActorDefsLiveEventPreferences = $0 { true } else { false } },
            with: .appBskyActorDefsLiveEventPreferences(pref))
    }
}
