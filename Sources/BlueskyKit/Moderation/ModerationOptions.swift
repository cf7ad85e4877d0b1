// What a decision depends on besides the subject: who is looking, what they asked for, and what the
// labelers they subscribe to mean by their own label values.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

/// A labeler the user subscribes to, with the user's preferences for its label values.
public struct LabelerSettings: Sendable, Hashable {
    /// The labeler's DID.
    public var did: DID
    /// The user's preference per label value of this labeler; values not listed use the global
    /// preference, then the value's default.
    public var labels: [String: BlueskyLabelPreference]

    /// Creates the settings of one labeler.
    public init(did: DID, labels: [String: BlueskyLabelPreference] = [:]) {
        self.did = did
        self.labels = labels
    }
}

/// The user's moderation preferences, as read from their `app.bsky.actor` preferences
/// (`BlueskyPreferences.moderationPreferences(appLabelers:)`) or built by hand.
public struct ModerationPreferences: Sendable, Hashable {
    /// Whether the user enabled adult content. When off, adult labels hide, without override.
    public var adultContentEnabled: Bool
    /// The global preference per label value (applies to self-labels and to labelers' values the user
    /// did not set per labeler).
    public var labels: [String: BlueskyLabelPreference]
    /// The labelers whose labels apply; labels from any other labeler are ignored.
    public var labelers: [LabelerSettings]
    /// The muted words and tags.
    public var mutedWords: [AppBskyActorDefs.MutedWord]
    /// The URIs of the posts the user hid.
    public var hiddenPosts: [String]

    /// Creates preferences; the defaults are a new account's (adult content off, the built-in label
    /// defaults, no labelers, nothing muted or hidden).
    public init(
        adultContentEnabled: Bool = false,
        labels: [String: BlueskyLabelPreference] = LabelDefinition.defaultLabelSettings,
        labelers: [LabelerSettings] = [], mutedWords: [AppBskyActorDefs.MutedWord] = [], hiddenPosts: [String] = []
    ) {
        self.adultContentEnabled = adultContentEnabled
        self.labels = labels
        self.labelers = labelers
        self.mutedWords = mutedWords
        self.hiddenPosts = hiddenPosts
    }

    /// The labelers to ask the service for (`atproto-accept-labelers`): `appLabelers` first, allowed to
    /// redact (take down) content, then the user's, each once.
    ///
    /// ```swift
    /// let labeled = client.acceptingLabelers(preferences.acceptedLabelers(appLabelers: [bskyModeration]))
    /// ```
    public func acceptedLabelers(appLabelers: [DID]) -> [LabelerPreference] {
        var seen = Set<String>()
        var result: [LabelerPreference] = []
        for did in appLabelers where seen.insert(did.rawValue).inserted {
            result.append(LabelerPreference(did: did, redact: true))
        }
        for labeler in labelers where seen.insert(labeler.did.rawValue).inserted {
            result.append(LabelerPreference(did: labeler.did))
        }
        return result
    }
}

/// Everything a decision depends on besides the subject.
///
/// ```swift
/// let options = ModerationOptions(viewer: session.did, preferences: preferences, labelDefinitions: definitions)
/// let decision = options.decide(post: item.post)
/// if decision.ui(.contentList).filter { /* skip it */ }
/// ```
public struct ModerationOptions: Sendable {
    /// The signed-in user, or `nil` when signed out.
    public var viewer: DID?
    /// The user's preferences.
    public var preferences: ModerationPreferences
    /// The custom label definitions of each labeler, by the labeler's DID. A labeler missing here (or
    /// a value it did not define) is read with the built-in definitions only, so its custom values
    /// are ignored.
    public var labelDefinitions: [DID: [LabelDefinition]]
    /// The time muted words' expiry is compared against; `nil` means the time of each decision.
    public var now: Date?

    /// Creates options.
    public init(
        viewer: DID?, preferences: ModerationPreferences, labelDefinitions: [DID: [LabelDefinition]] = [:],
        now: Date? = nil
    ) {
        self.viewer = viewer
        self.preferences = preferences
        self.labelDefinitions = labelDefinitions
        self.now = now
    }

    /// The definition of `value` as labeled by `labeler`: the labeler's own when the value may be custom
    /// and the labeler defined it, else the built-in one, else `nil` (the label is ignored).
    func definition(of value: String, from labeler: DID) -> LabelDefinition? {
        if LabelDefinition.isCustomValue(value),
            let custom = labelDefinitions[labeler]?.first(where: { $0.identifier == value })
        {
            return custom
        }
        return LabelDefinition.builtIn[value]
    }

    /// Whether `did` is the viewer (an empty viewer DID counts as signed out).
    func isViewer(_ did: DID) -> Bool {
        guard let viewer, !viewer.rawValue.isEmpty else { return false }
        return viewer == did
    }

    /// Whether someone is signed in.
    var isSignedIn: Bool { !(viewer?.rawValue.isEmpty ?? true) }
}
