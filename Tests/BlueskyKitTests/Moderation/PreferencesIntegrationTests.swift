// Preferences read and written through the shared PDS (`scripts/pds.sh start`), each test on a fresh
// account as the reference client's preference tests do; skipped without ATPROTO_PDS_URL.
//
//   eval "$(scripts/pds.sh start)" && swift test --filter PreferencesIntegrationTests; scripts/pds.sh stop

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime

final class PreferencesIntegrationTests: XCTestCase {
    let other: DID = "did:plc:other"

    /// A client signed in to a new account on the PDS.
    func freshAccount() async throws -> XRPCClient {
        guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], !text.isEmpty else {
            throw XCTSkip("ATPROTO_PDS_URL is not set: run eval \"$(scripts/pds.sh start)\" first")
        }
        let url = try XCTUnwrap(URL(string: text))
        let handle = "prefs\(UInt32.random(in: 0...UInt32.max)).test"
        let password = "pw-\(UUID().uuidString)"
        _ = try await XRPCClient(agent: URLSessionAgent(serviceURL: url)).com.atproto.server.createAccount(
            handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
        let session = PasswordSession(service: url)
        _ = try await session.login(ATIdentifier(rawValue: handle), password: password)
        return XRPCClient(agent: session)
    }

    func testANewAccountReadsAsTheDefaults() async throws {
        let client = try await freshAccount()
        let preferences = try await client.blueskyPreferences()
        XCTAssertEqual(preferences.items, [])
        XCTAssertEqual(
            preferences.moderationPreferences(appLabelers: [other]),
            ModerationPreferences(labelers: [LabelerSettings(did: other)]))
    }

    func testLegacyVisibilityIsReadWithoutBeingRewritten() async throws {
        let client = try await freshAccount()
        let legacy = ["porn", "nudity", "sexual", "graphic-media"].map {
            AppBskyActorDefs.PreferencesItem.appBskyActorDefsContentLabelPref(
                AppBskyActorDefs.ContentLabelPref(label: $0, visibility: "show"))
        }
        try await client.putBlueskyPreferences(BlueskyPreferences(legacy))
        let read = try await client.blueskyPreferences()
        XCTAssertEqual(read.items, legacy)
        XCTAssertEqual(
            read.moderationPreferences().labels,
            ["porn": .ignore, "nudity": .ignore, "sexual": .ignore, "graphic-media": .ignore])
    }

    func testConcurrentUpdatesOfOneAccountAreAllKept() async throws {
        let client = try await freshAccount()
        let labelers = (0..<8).map { DID(rawValue: "did:plc:concurrent\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, labeler) in labelers.enumerated() {
                // Half through the session's own client, half through a copy asking for labelers.
                let editor =
                    index.isMultiple(of: 2) ? client : client.acceptingLabelers([LabelerPreference(did: labeler)])
                group.addTask { try await editor.updateBlueskyPreferences { $0.addLabeler(labeler) } }
            }
            try await group.waitForAll()
        }
        let kept = try await client.blueskyPreferences().labelers
        XCTAssertEqual(Set(kept), Set(labelers), "an overlapping update was lost")
    }

    func testLabelersAndLabelPreferencesRoundTrip() async throws {
        let client = try await freshAccount()
        try await client.updateBlueskyPreferences { $0.addLabeler(other) }
        let labelers = try await client.blueskyPreferences().labelers
        XCTAssertEqual(labelers, [other])
        try await client.updateBlueskyPreferences {
            $0.setLabelPreference(.ignore, for: "porn")
            $0.setLabelPreference(.hide, for: "porn", labeler: other)
            $0.setLabelPreference(.warn, for: "x-custom", labeler: other)
        }
        var moderation = try await client.blueskyPreferences().moderationPreferences()
        XCTAssertEqual(moderation.labels["porn"], .ignore)
        XCTAssertEqual(moderation.labels["nsfw"], .ignore)
        XCTAssertEqual(moderation.labelers, [LabelerSettings(did: other, labels: ["porn": .hide, "x-custom": .warn])])

        try await client.updateBlueskyPreferences {
            $0.setLabelPreference(.hide, for: "porn")
            $0.setLabelPreference(.hide, for: "porn", labeler: other)
        }
        moderation = try await client.blueskyPreferences().moderationPreferences()
        XCTAssertEqual(moderation.labels["porn"], .hide)
        XCTAssertEqual(moderation.labelers.first?.labels["porn"], .hide)

        try await client.updateBlueskyPreferences { $0.removeLabeler(other) }
        let remaining = try await client.blueskyPreferences().moderationPreferences().labelers
        XCTAssertEqual(remaining, [])
    }

    func testLegacyNamesAreWrittenAndReadBack() async throws {
        let client = try await freshAccount()
        try await client.updateBlueskyPreferences {
            $0.setLabelPreference(.hide, for: "nsfw")
            $0.setLabelPreference(.hide, for: "porn")
            $0.setLabelPreference(.warn, for: "graphic-media")
            $0.setLabelPreference(.hide, for: "suggestive")
        }
        let read = try await client.blueskyPreferences()
        let nsfw = read.items.filter {
            if case .appBskyActorDefsContentLabelPref(let pref) = $0 { return pref.label == "nsfw" }
            return false
        }
        XCTAssertEqual(nsfw.count, 1)
        let labels = read.moderationPreferences().labels
        XCTAssertEqual(labels["gore"], .warn)
        XCTAssertEqual(labels["graphic-media"], .warn)
        XCTAssertEqual(labels["sexual"], .hide)
    }

    func testAdultContentMutedWordsAndHiddenPostsRoundTripAndDecide() async throws {
        let client = try await freshAccount()
        let post = "at://did:plc:someone/app.bsky.feed.post/3k2a"
        try await client.updateBlueskyPreferences {
            $0.setAdultContentEnabled(true)
            $0.addMutedWord(AppBskyActorDefs.MutedWord(value: "#spoilers", targets: ["content", "tag"]))
            $0.hidePost(ATURI(rawValue: post))
        }
        let moderation = try await client.blueskyPreferences().moderationPreferences()
        XCTAssertTrue(moderation.adultContentEnabled)
        XCTAssertEqual(moderation.mutedWords.map(\.value), ["spoilers"])
        XCTAssertEqual(moderation.hiddenPosts, [post])

        let options = ModerationOptions(viewer: "did:web:alice.test", preferences: moderation)
        let spoiler = Mock.postView(Mock.post("no spoilers please"), author: Mock.profile("bob.test"))
        XCTAssertEqual(options.decide(post: spoiler).ui(.contentList).flags, [.filter, .blur])
    }

    func testAnItemOfAKindThisSDKDoesNotKnowSurvivesAChange() async throws {
        let client = try await freshAccount()
        let future = AppBskyActorDefs.PreferencesItem.unknown(
            LexiconUnknownValue(
                .object([
                    "$type": .string("app.bsky.actor.defs#futurePref"), "dials": .array([.integer(1), .bool(true)]),
                ])))
        try await client.putBlueskyPreferences(BlueskyPreferences([future]))
        try await client.updateBlueskyPreferences { $0.hidePost("at://did:plc:a/app.bsky.feed.post/1") }
        let read = try await client.blueskyPreferences()
        XCTAssertEqual(read.items.first, future)
        XCTAssertEqual(read.items.count, 2)
    }
}
