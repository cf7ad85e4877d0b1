// Reading moderation preferences from the `app.bsky.actor` preference items and changing them, the
// cases of the reference client's preference tests (packages/api/tests/moderation-prefs.test.ts) in
// memory, plus what happens to items this module does not know.

import AtprotoLexicons
import BlueskyKit
import XCTest
import XRPCRuntime

final class PreferencesTests: XCTestCase {
    let other: DID = "did:plc:other"
    let app: DID = "did:plc:ar7c4by46qjdydhdevvrndac"

    func labelPref(_ label: String, _ visibility: String, labeler: DID? = nil) -> AppBskyActorDefs.PreferencesItem {
        .appBskyActorDefsContentLabelPref(
            AppBskyActorDefs.ContentLabelPref(
                label: label, visibility: .init(rawValue: visibility), labelerDid: labeler))
    }

    func testLegacyShowReadsAsIgnoreWithoutChangingTheItems() {
        let items = ["porn", "nudity", "sexual", "graphic-media"].map { labelPref($0, "show") }
        let preferences = BlueskyPreferences(items)
        let moderation = preferences.moderationPreferences(appLabelers: [app])
        XCTAssertEqual(
            moderation.labels, ["porn": .ignore, "nudity": .ignore, "sexual": .ignore, "graphic-media": .ignore])
        XCTAssertFalse(moderation.adultContentEnabled)
        XCTAssertEqual(moderation.labelers, [LabelerSettings(did: app)])
        XCTAssertEqual(moderation.hiddenPosts, [])
        XCTAssertEqual(moderation.mutedWords, [])
        XCTAssertEqual(preferences.items, items)
    }

    func testLabelersAreAddedOnceAndRemoved() {
        var preferences = BlueskyPreferences()
        preferences.addLabeler(other)
        preferences.addLabeler(other)
        XCTAssertEqual(preferences.labelers, [other])
        let moderation = preferences.moderationPreferences(appLabelers: [app])
        XCTAssertEqual(moderation.labelers, [LabelerSettings(did: app), LabelerSettings(did: other)])
        XCTAssertEqual(moderation.labels, LabelDefinition.defaultLabelSettings)
        preferences.removeLabeler(other)
        XCTAssertEqual(preferences.labelers, [])
        XCTAssertEqual(preferences.moderationPreferences(appLabelers: [app]).labelers, [LabelerSettings(did: app)])
    }

    func testLabelPreferencesGloballyAndPerLabeler() {
        var preferences = BlueskyPreferences()
        preferences.addLabeler(other)
        preferences.setLabelPreference(.ignore, for: "porn")
        preferences.setLabelPreference(.hide, for: "porn", labeler: other)
        preferences.setLabelPreference(.warn, for: "x-custom", labeler: other)
        let moderation = preferences.moderationPreferences(appLabelers: [app])
        var expected = LabelDefinition.defaultLabelSettings
        expected["porn"] = .ignore
        expected["nsfw"] = .ignore
        XCTAssertEqual(moderation.labels, expected)
        XCTAssertEqual(
            moderation.labelers,
            [LabelerSettings(did: app), LabelerSettings(did: other, labels: ["porn": .hide, "x-custom": .warn])])
    }

    func testSettingAPreferenceAgainReplacesIt() {
        var preferences = BlueskyPreferences()
        preferences.addLabeler(other)
        preferences.setLabelPreference(.ignore, for: "porn")
        preferences.setLabelPreference(.ignore, for: "porn", labeler: other)
        preferences.setLabelPreference(.hide, for: "porn")
        preferences.setLabelPreference(.hide, for: "porn", labeler: other)
        let moderation = preferences.moderationPreferences()
        XCTAssertEqual(moderation.labels["porn"], .hide)
        XCTAssertEqual(moderation.labelers.first { $0.did == other }?.labels["porn"], .hide)
        let pornItems = preferences.items.filter {
            if case .appBskyActorDefsContentLabelPref(let pref) = $0 { return pref.label == "porn" }
            return false
        }
        XCTAssertEqual(pornItems.count, 2)
    }

    func testGlobalPreferencesAreWrittenUnderTheirLegacyNamesToo() {
        for (label, legacy) in [("graphic-media", "gore"), ("porn", "nsfw"), ("sexual", "suggestive")] {
            var preferences = BlueskyPreferences()
            preferences.setLabelPreference(.hide, for: label)
            XCTAssertEqual(preferences.moderationPreferences().labels[legacy], .hide, label)
            XCTAssertEqual(preferences.moderationPreferences().labels[label], .hide, label)
            preferences.setLabelPreference(.warn, for: label)
            XCTAssertEqual(preferences.moderationPreferences().labels[legacy], .warn, label)
            XCTAssertEqual(preferences.moderationPreferences().labels[label], .warn, label)
        }
    }

    func testADoubleWriteLeavesOneItemForTheLegacyName() {
        var preferences = BlueskyPreferences()
        preferences.setLabelPreference(.hide, for: "nsfw")
        preferences.setLabelPreference(.hide, for: "porn")
        let legacyItems = preferences.items.filter {
            if case .appBskyActorDefsContentLabelPref(let pref) = $0 { return pref.label == "nsfw" }
            return false
        }
        XCTAssertEqual(legacyItems.count, 1)
    }

    func testLegacyNamesSetTheCurrentOnesOnRead() {
        var preferences = BlueskyPreferences()
        preferences.setLabelPreference(.hide, for: "nsfw")
        preferences.setLabelPreference(.hide, for: "gore")
        preferences.setLabelPreference(.hide, for: "suggestive")
        let labels = preferences.moderationPreferences().labels
        XCTAssertEqual(labels["porn"], .hide)
        XCTAssertEqual(labels["graphic-media"], .hide)
        XCTAssertEqual(labels["sexual"], .hide)
    }

    func testAdultContentMutedWordsAndHiddenPosts() throws {
        var preferences = BlueskyPreferences()
        preferences.setAdultContentEnabled(true)
        preferences.setAdultContentEnabled(true)
        let stored = try XCTUnwrap(preferences.addMutedWord(Mock.mutedWord("  #swift\u{200B}\u{200B}ui ")))
        XCTAssertEqual(stored.value, "swiftui")
        XCTAssertNil(preferences.addMutedWord(Mock.mutedWord(" # ")))
        preferences.hidePost("at://did:plc:a/app.bsky.feed.post/1")
        preferences.hidePost("at://did:plc:a/app.bsky.feed.post/1")
        var moderation = preferences.moderationPreferences()
        XCTAssertTrue(moderation.adultContentEnabled)
        XCTAssertEqual(moderation.mutedWords.map(\.value), ["swiftui"])
        XCTAssertNotNil(moderation.mutedWords.first?.id)
        XCTAssertEqual(moderation.hiddenPosts, ["at://did:plc:a/app.bsky.feed.post/1"])
        XCTAssertEqual(preferences.items.count, 3)

        preferences.removeMutedWord(stored)
        preferences.unhidePost("at://did:plc:a/app.bsky.feed.post/1")
        preferences.setAdultContentEnabled(false)
        moderation = preferences.moderationPreferences()
        XCTAssertFalse(moderation.adultContentEnabled)
        XCTAssertEqual(moderation.mutedWords, [])
        XCTAssertEqual(moderation.hiddenPosts, [])
    }

    func testAStoredWordWithoutIdIsRemovedByValueAndOthersGetIds() {
        let legacy = [Mock.mutedWord("old"), Mock.mutedWord("older")]
        var preferences = BlueskyPreferences([
            .appBskyActorDefsMutedWordsPref(AppBskyActorDefs.MutedWordsPref(items: legacy))
        ])
        preferences.removeMutedWord(Mock.mutedWord("old"))
        let words = preferences.moderationPreferences().mutedWords
        XCTAssertEqual(words.map(\.value), ["older"])
        XCTAssertNotNil(words.first?.id)
    }

    func testTheLabelersToAskForPutAppLabelersFirstWithRedaction() {
        let moderation = ModerationPreferences(labelers: [LabelerSettings(did: other), LabelerSettings(did: app)])
        XCTAssertEqual(
            LabelerPreference.headerValue(moderation.acceptedLabelers(appLabelers: [app])),
            "did:plc:ar7c4by46qjdydhdevvrndac;redact, did:plc:other")
    }
}
