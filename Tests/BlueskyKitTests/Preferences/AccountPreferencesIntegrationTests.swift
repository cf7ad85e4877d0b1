// Every kind of preference read and edited through the shared PDS (`scripts/pds.sh start`), each test
// on a fresh account; skipped without ATPROTO_PDS_URL.
//
//   eval "$(scripts/pds.sh start)" && swift test --filter AccountPreferencesIntegrationTests; scripts/pds.sh stop

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime

@testable import BlueskyPreferences

/// A client signed in to a new account on the PDS, its DID and its session.
func freshPDSAccount(_ prefix: String) async throws -> (client: XRPCClient, did: DID, session: PasswordSession) {
    guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], !text.isEmpty else {
        throw XCTSkip("ATPROTO_PDS_URL is not set: run eval \"$(scripts/pds.sh start)\" first")
    }
    let url = try XCTUnwrap(URL(string: text))
    let handle = "\(prefix)\(UInt32.random(in: 0...UInt32.max)).test"
    let password = "pw-\(UUID().uuidString)"
    let created = try await XRPCClient(agent: URLSessionAgent(serviceURL: url)).com.atproto.server.createAccount(
        handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
    let session = PasswordSession(service: url)
    _ = try await session.login(ATIdentifier(rawValue: handle), password: password)
    return (XRPCClient(agent: session), created.did, session)
}

final class AccountPreferencesIntegrationTests: XCTestCase {
    static let feedA: ATURI = "at://did:plc:feeds/app.bsky.feed.generator/a"
    static let feedB: ATURI = "at://did:plc:feeds/app.bsky.feed.generator/b"
    static let list: ATURI = "at://did:plc:feeds/app.bsky.graph.list/l"

    func testSavedFeedsAddPinReorderUpdateRemoveOverwrite() async throws {
        let client = try await freshPDSAccount("feeds").client
        let added = try await client.updateBlueskyPreferences {
            _ = try $0.addSavedFeeds([.feed(Self.feedA, pinned: true), .list(Self.list), .feed(Self.feedB)])
        }.savedFeeds
        // A new account's saved feeds start with the pinned timeline; the added ones follow, with TIDs.
        XCTAssertEqual(added.map(\.value), ["following", Self.feedA.rawValue, Self.list.rawValue, Self.feedB.rawValue])
        for feed in added { XCTAssertNil(TID.syntaxError(in: feed.id), "\(feed.id) is not a TID") }
        let ids = added.map(\.id)

        try await client.updateBlueskyPreferences {
            try $0.pinSavedFeeds(ids: [ids[2]])
            try $0.unpinSavedFeeds(ids: [ids[1]])
            try $0.reorderSavedFeeds(ids: [ids[3], ids[2]])
        }
        var read = try await client.savedFeeds()
        XCTAssertEqual(read.map(\.id), [ids[3], ids[2], ids[0], ids[1]])
        XCTAssertEqual(read.map(\.pinned), [false, true, true, false])

        var renamed = read[0]
        renamed.value = "at://did:plc:feeds/app.bsky.feed.generator/c"
        try await client.updateBlueskyPreferences {
            try $0.updateSavedFeeds([renamed])
            try $0.removeSavedFeeds(ids: [ids[2]])
        }
        read = try await client.savedFeeds()
        XCTAssertEqual(read.map(\.id), [ids[3], ids[0], ids[1]])
        XCTAssertEqual(read.first?.value, "at://did:plc:feeds/app.bsky.feed.generator/c")

        try await client.updateBlueskyPreferences { try $0.overwriteSavedFeeds([read[1]]) }
        read = try await client.savedFeeds()
        XCTAssertEqual(read.map(\.id), [ids[0]])
    }

    func testWrongSavedFeedsAreRefusedAndNothingIsWritten() async throws {
        let client = try await freshPDSAccount("badfeeds").client
        let refusals: [(BlueskyNewSavedFeed, BlueskyPreferenceError.Code)] = [
            (.feed(Self.list), .invalidFeed),
            (.list(Self.feedA), .invalidFeed),
            (BlueskyNewSavedFeed(type: .feed, value: "not a uri", pinned: false), .invalidFeed),
            (BlueskyNewSavedFeed(type: .timeline, value: "", pinned: false), .invalidFeed),
        ]
        for (feed, code) in refusals {
            do {
                try await client.updateBlueskyPreferences { _ = try $0.addSavedFeeds([feed]) }
                XCTFail("\(feed) was saved")
            } catch let error as BlueskyPreferenceError {
                XCTAssertEqual(error.code, code, "\(error)")
            }
        }
        do {
            try await client.updateBlueskyPreferences { try $0.pinSavedFeeds(ids: ["nope"]) }
            XCTFail("an unknown id was pinned")
        } catch let error as BlueskyPreferenceError {
            XCTAssertEqual(error.code, .notFound)
        }
        let items = try await client.blueskyPreferences().items
        XCTAssertEqual(items, [], "a refused edit wrote something")
    }

    func testLegacySavedFeedsAreMigratedOnceAndKeptInStep() async throws {
        let client = try await freshPDSAccount("legacy").client
        let legacy = AppBskyActorDefs.SavedFeedsPref(
            pinned: [Self.feedA], saved: [Self.feedA, Self.list, "at://did:plc:x/app.bsky.feed.post/p"])
        try await client.putBlueskyPreferences(BlueskyPreferences([.appBskyActorDefsSavedFeedsPref(legacy)]))
        let first = try await client.savedFeeds()
        XCTAssertEqual(first.map(\.value), ["following", Self.feedA.rawValue, Self.list.rawValue])
        XCTAssertEqual(first.map(\.pinned), [true, true, false])
        let again = try await client.savedFeeds()
        XCTAssertEqual(again.map(\.id), first.map(\.id), "the migration was not written: ids changed")

        try await client.updateBlueskyPreferences { try $0.pinSavedFeeds(ids: [first[2].id]) }
        let items = try await client.blueskyPreferences().items
        let v1 = items.compactMap { if case .appBskyActorDefsSavedFeedsPref(let p) = $0 { p } else { nil } }
        XCTAssertEqual(v1.first?.pinned, [Self.feedA, Self.list], "the legacy item was not kept in step")
    }

    func testMutedWordsBatchUpdateRemoveAndLegacyWords() async throws {
        let client = try await freshPDSAccount("words").client
        let legacyWord = AppBskyActorDefs.MutedWord(value: "old", targets: ["content"])
        try await client.putBlueskyPreferences(
            BlueskyPreferences([.appBskyActorDefsMutedWordsPref(.init(items: [legacyWord]))]))
        let added = try await client.updateBlueskyPreferences {
            try $0.addMutedWords([
                .init(value: " #swift ", targets: ["tag"]), .init(value: "\n", targets: ["content"]),
                .init(value: "rust", targets: ["content", "tag"]),
            ])
        }.mutedWords
        XCTAssertEqual(added.map(\.value), ["old", "swift", "rust"])
        XCTAssertTrue(added.allSatisfy { $0.id != nil }, "a stored word was left without an id")

        var rust = added[2]
        rust.actorTarget = "exclude-following"
        try await client.updateBlueskyPreferences {
            try $0.updateMutedWord(rust)
            $0.removeMutedWords([added[0]])
        }
        let words = try await client.blueskyPreferences().mutedWords
        XCTAssertEqual(words.map(\.value), ["swift", "rust"])
        XCTAssertEqual(words.last?.actorTarget, "exclude-following")
        do {
            try await client.updateBlueskyPreferences {
                try $0.addMutedWords([.init(value: String(repeating: "x", count: 10_001), targets: ["content"])])
            }
            XCTFail("a word over the lexicon's length was muted")
        } catch let error as BlueskyPreferenceError {
            XCTAssertEqual(error.code, .invalidValue)
            XCTAssertNotNil(error.underlying)
        }
    }

    func testEveryOtherKindRoundTrips() async throws {
        let client = try await freshPDSAccount("kinds").client
        let birth = LexiconDatetime(rawValue: "1990-04-05T00:00:00.000Z")
        try await client.updateBlueskyPreferences {
            try $0.setBirthDate(birth)
            var home = $0.feedViewPreferences(for: "home")
            home.hideReposts = true
            home.hideRepliesByLikeCount = 2
            try $0.setFeedViewPreferences(home)
            try $0.setFeedViewPreferences(.init(feed: Self.feedA.rawValue, hideQuotePosts: true))
            try $0.setThreadViewPreferences(.init(sort: "most-likes"))
            try $0.setInterests(["swift", "atproto"])
            try $0.queueNudges(["a", "b", "c"])
            try $0.dismissNudges(["b"])
            try $0.upsertNux(.init(id: "tour", completed: false, data: "step 1"))
            try $0.upsertNux(.init(id: "tour", completed: true))
            try $0.upsertNux(.init(id: "gone"))
            try $0.removeNuxs(ids: ["gone"])
            try $0.setActiveProgressGuide(.init(guide: "like-10-and-follow-7"))
            try $0.setPostInteractionSettings(
                .init(
                    postgateEmbeddingRules: [.appBskyFeedPostgateDisableRule(.init())],
                    threadgateAllowRules: [.appBskyFeedThreadgateMentionRule(.init())]))
            $0.setHidesVerificationBadges(true)
            $0.setHidesAllLiveEventFeeds(true)
            $0.hideLiveEventFeed(id: "event-1")
            $0.hideLiveEventFeed(id: "event-2")
            $0.unhideLiveEventFeed(id: "event-1")
            $0.setAdultContentEnabled(true)
            $0.hidePost("at://did:plc:x/app.bsky.feed.post/3k2a")
            $0.addLabeler("did:plc:labeler")
        }
        let read = try await client.blueskyPreferences()
        XCTAssertEqual(read.personalDetails?.birthDate, birth)
        XCTAssertEqual(read.feedViewPreferences(for: "home").hideReposts, true)
        XCTAssertEqual(read.feedViewPreferences(for: "home").hideRepliesByLikeCount, 2)
        XCTAssertEqual(read.feedViewPreferences(for: Self.feedA.rawValue).hideQuotePosts, true)
        XCTAssertEqual(read.feedViewPreferences(for: "other").hideRepliesByUnfollowed, true, "not the default")
        XCTAssertEqual(read.threadViewPreferences.sort, "most-likes")
        XCTAssertEqual(read.interests, ["swift", "atproto"])
        XCTAssertEqual(read.appState.queuedNudges, ["a", "c"])
        XCTAssertEqual(read.appState.nuxs, [.init(id: "tour", completed: true)])
        XCTAssertEqual(read.appState.activeProgressGuide?.guide, "like-10-and-follow-7")
        XCTAssertEqual(read.postInteractionSettings.threadgateAllowRules?.count, 1)
        XCTAssertEqual(read.verificationPreferences.hideBadges, true)
        XCTAssertEqual(read.liveEventPreferences.hideAllFeeds, true)
        XCTAssertEqual(read.liveEventPreferences.hiddenFeedIds, ["event-2"])
        XCTAssertTrue(read.adultContentEnabled)
        XCTAssertEqual(read.hiddenPosts, ["at://did:plc:x/app.bsky.feed.post/3k2a"])
        XCTAssertEqual(read.labelers, ["did:plc:labeler"])
        XCTAssertNil(read.declaredAge)

        // Over the lexicon's limits: refused, nothing written.
        let before = try await client.blueskyPreferences()
        for edit: (inout BlueskyPreferences) throws -> Void in [
            { try $0.setInterests((0...100).map { "tag\($0)" }) },
            { try $0.queueNudges([String(repeating: "n", count: 101)]) },
            { try $0.setActiveProgressGuide(.init(guide: String(repeating: "g", count: 101))) },
            { try $0.setFeedViewPreferences(.init(feed: "")) },
        ] {
            do {
                try await client.updateBlueskyPreferences(edit)
                XCTFail("an edit over the limits was written")
            } catch let error as BlueskyPreferenceError {
                XCTAssertEqual(error.code, .invalidValue)
            }
        }
        let after = try await client.blueskyPreferences()
        XCTAssertEqual(after, before)
    }

    func testConcurrentEditsOfEveryKindAreAllKept() async throws {
        let client = try await freshPDSAccount("concurrent").client
        let edits: [@Sendable (inout BlueskyPreferences) throws -> Void] = [
            { _ = try $0.addSavedFeeds([.feed(Self.feedA)]) },
            { _ = try $0.addSavedFeeds([.feed(Self.feedB)]) },
            { _ = try $0.addMutedWords([.init(value: "one", targets: ["content"])]) },
            { _ = try $0.addMutedWords([.init(value: "two", targets: ["content"])]) },
            { $0.hidePost("at://did:plc:x/app.bsky.feed.post/1") },
            { try $0.queueNudges(["nudge"]) },
            { try $0.setInterests(["swift"]) },
            { $0.setHidesVerificationBadges(true) },
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for edit in edits {
                group.addTask { try await client.updateBlueskyPreferences(edit) }
            }
            try await group.waitForAll()
        }
        let read = try await client.blueskyPreferences()
        XCTAssertEqual(Set(read.savedFeeds.map(\.value)), ["following", Self.feedA.rawValue, Self.feedB.rawValue])
        XCTAssertEqual(Set(read.mutedWords.map(\.value)), ["one", "two"])
        XCTAssertEqual(read.hiddenPosts, ["at://did:plc:x/app.bsky.feed.post/1"])
        XCTAssertEqual(read.appState.queuedNudges, ["nudge"])
        XCTAssertEqual(read.interests, ["swift"])
        XCTAssertTrue(read.verificationPreferences.hideBadges)
    }

    func testAnUnknownItemReachesThePDSAsTheBytesItSent() async throws {
        let account = try await freshPDSAccount("bytes")
        let recorder = RecordingAgent(inner: account.session)
        let client = XRPCClient(agent: recorder)
        // An app.bsky type (the PDS keeps only those) that this SDK does not know, with a float, an
        // integer over 64 bits and a non-ASCII string: the PDS answers it in its own JSON form.
        let seed =
            #"{"preferences":[{"$type":"app.bsky.actor.defs#futurePref","b":1.50,"a":12345678901234567890,"#
            + #""s":"café","n":{"z":[1,2],"y":"x"}}]}"#
        _ = try await recorder.send(
            XRPCRequest(
                method: .post, nsid: AppBskyActorPutPreferences.nsid, body: Data(seed.utf8),
                contentType: "application/json"))
        try await client.updateBlueskyPreferences { $0.hidePost("at://did:plc:x/app.bsky.feed.post/2") }
        let (read, written) = await recorder.bodies()
        let readItems = try Self.items(of: try XCTUnwrap(read.last))
        let writtenItems = try Self.items(of: try XCTUnwrap(written.last))
        XCTAssertEqual(writtenItems.count, 2)
        XCTAssertEqual(writtenItems.first, readItems.first, "the unknown item's bytes changed")
        let reserialized = try JSONValue.parse(try XCTUnwrap(readItems.first)).serialized()
        XCTAssertNotEqual(Array(reserialized), readItems.first, "serializing the item again gives the same bytes")
    }

    private static func items(of body: Data) throws -> [[UInt8]] {
        let bytes = Array(body)
        let list = try XCTUnwrap(JSONSpans.member("preferences", ofObjectIn: bytes))
        return JSONSpans.elements(ofArrayIn: bytes, span: list).map { Array(bytes[$0]) }
    }
}

/// Sends through `inner`, keeping the bodies of the preferences read and written.
actor RecordingAgent: XRPCAgent {
    let inner: any XRPCAgent
    private var read: [Data] = []
    private var written: [Data] = []

    init(inner: any XRPCAgent) { self.inner = inner }

    func bodies() -> (read: [Data], written: [Data]) { (read, written) }

    nonisolated func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        let response = try await inner.send(request)
        await record(request, response)
        return response
    }

    private func record(_ request: XRPCRequest, _ response: XRPCResponse) {
        if request.nsid == AppBskyActorGetPreferences.nsid { read.append(response.body) }
        if request.nsid == AppBskyActorPutPreferences.nsid { written.append(request.body ?? Data()) }
    }

    nonisolated func defaultServiceURL() async -> URL? { await inner.defaultServiceURL() }

    nonisolated func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields
    {
        try await inner.eventStreamHeaders(for: url, rejection: rejection)
    }
}
