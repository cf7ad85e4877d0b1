// Input a client cannot trust: unknown label values, labelers without definitions, malformed
// definitions, records and preferences. Each has a defined outcome (documented on the API) and none
// stops a decision.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

final class ModerationBadInputTests: XCTestCase {
    let labeler: DID = "did:web:labeler.test"
    let bob = Mock.profile("bob.test")

    func post(_ labels: [ComAtprotoLabelDefs.Label]) -> AppBskyFeedDefs.PostView {
        Mock.postView(Mock.post("Hello"), author: bob, labels: labels)
    }

    func label(_ value: String, neg: Bool? = nil) -> ComAtprotoLabelDefs.Label {
        Mock.label(value, uri: "at://did:web:bob.test/app.bsky.feed.post/fake", src: labeler, neg: neg)
    }

    func testUnknownLabelValuesAreNoCause() {
        let options = Mock.options(labelers: [LabelerSettings(did: labeler, labels: ["mystery": .hide])])
        let decision = options.decide(post: post([label("mystery"), label("!unknown-imperative"), label("")]))
        XCTAssertEqual(decision.causes, [])
    }

    func testALabelerWithoutDefinitionsKeepsOnlyItsBuiltInValues() {
        let options = Mock.options(labelers: [LabelerSettings(did: labeler, labels: ["rude": .hide])])
        let decision = options.decide(post: post([label("rude"), label("!hide")]))
        XCTAssertEqual(decision.labelCauses.map(\.label.val), ["!hide"])
    }

    func testANegationLabelIsNoCause() {
        let options = Mock.options(labelers: [LabelerSettings(did: labeler)])
        XCTAssertEqual(options.decide(post: post([label("!hide", neg: true)])).causes, [])
    }

    func testADefinitionWithUnknownFieldsCoversNothingAndWarnsByDefault() {
        let definition = Mock.customDefinition(
            "odd", blurs: "everything", severity: "extreme", defaultSetting: "maybe", labeler: labeler)
        XCTAssertEqual(definition.defaultSetting, .warn)
        XCTAssertTrue(
            definition.contentBehavior.isEmpty && definition.accountBehavior.isEmpty
                && definition.profileBehavior.isEmpty)
        let options = Mock.options(labelers: [LabelerSettings(did: labeler)], definitions: [labeler: [definition]])
        let decision = options.decide(post: post([label("odd")]))
        XCTAssertEqual(decision.labelCauses.count, 1)
        for context in ModerationContext.allCases { XCTAssertTrue(decision.ui(context).isEmpty, "\(context)") }
    }

    func testInvalidDefinitionsOfALabelerAreSkipped() throws {
        let json = """
            {"uri": "at://did:web:labeler.test/app.bsky.labeler.service/self", "cid": "\(Mock.cid)",
             "creator": {"did": "did:web:labeler.test", "handle": "labeler.test"},
             "policies": {"labelValues": ["fine", "long"], "labelValueDefinitions": [
               {"identifier": "fine", "severity": "alert", "blurs": "content", "locales": []},
               {"identifier": "\(String(repeating: "x", count: 101))", "severity": "alert", "blurs": "content", "locales": []}
             ]}, "indexedAt": "\(Mock.time)"}
            """
        let view = try AppBskyLabelerDefs.LabelerViewDetailed(lexiconJSON: try JSONValue(jsonData: Data(json.utf8)))
        XCTAssertEqual(LabelDefinition.definitions(of: view).map(\.identifier), ["fine"])
    }

    func testARecordThatIsNotAPostContributesNoText() {
        let options = Mock.options(mutedWords: [Mock.mutedWord("hello")])
        var notAPost = Mock.postView(Mock.post("hello"), author: bob)
        notAPost.record = LexiconUnknownValue(.object(["$type": .string("app.bsky.feed.post"), "text": .integer(5)]))
        XCTAssertEqual(options.decide(post: notAPost).causes, [])
        notAPost.record = LexiconUnknownValue(.array([.string("hello")]))
        XCTAssertEqual(options.decide(post: notAPost).causes, [])
    }

    func testAMutedWordWithAMalformedExpiryNeverExpires() {
        let options = Mock.options(mutedWords: [Mock.mutedWord("hello", expiresAt: "yesterday")])
        XCTAssertEqual(options.decide(post: Mock.postView(Mock.post("hello"), author: bob)).causes.count, 1)
    }

    func testAListWithoutAnAuthorityInItsURIHasNoAccount() {
        var list = Mock.list()
        list.uri = "not a uri"
        list.labels = [Mock.label("!hide", uri: "not a uri", src: labeler)]
        let decision = Mock.options(labelers: [LabelerSettings(did: labeler)]).decide(list: list)
        XCTAssertNil(decision.did)
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter, .blur, .noOverride])
    }

    func testAnEmptyViewerIsSignedOut() {
        let options = Mock.options(viewer: "", labelers: [LabelerSettings(did: labeler)])
        XCTAssertEqual(
            options.decide(post: post([label("!no-unauthenticated")])).ui(.contentView).flags, [.blur, .noOverride])
    }

    // Preferences from a server.

    static let malformedPreferences = """
        {"preferences": [
          {"$type": "app.bsky.actor.defs#adultContentPref", "enabled": "yes"},
          {"$type": "app.bsky.actor.defs#contentLabelPref", "label": "porn", "visibility": "sometimes"},
          {"$type": "app.bsky.actor.defs#contentLabelPref", "label": "nudity", "visibility": "hide", "labelerDid": "not-a-did"},
          {"$type": "app.bsky.actor.defs#contentLabelPref", "label": "sexual", "visibility": "hide"},
          {"$type": "com.example.future#pref", "anything": [1, 2, {"deep": true}]},
          {"$type": "app.bsky.actor.defs#hiddenPostsPref", "items": ["at://did:plc:a/app.bsky.feed.post/1"], "extra": 7}
        ]}
        """

    func testMalformedItemsAreNotAppliedAndEveryItemIsWrittenBack() async throws {
        let agent = StubAgent { request in
            let body = request.nsid == "app.bsky.actor.getPreferences" ? Self.malformedPreferences : "{}"
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let client = XRPCClient(agent: agent)
        var preferences = try await client.blueskyPreferences()
        let moderation = preferences.moderationPreferences()
        XCTAssertFalse(moderation.adultContentEnabled)
        XCTAssertEqual(moderation.labels, LabelDefinition.defaultLabelSettings.merging(["sexual": .hide]) { $1 })
        XCTAssertEqual(moderation.hiddenPosts, ["at://did:plc:a/app.bsky.feed.post/1"])

        preferences.hidePost("at://did:plc:a/app.bsky.feed.post/2")
        try await client.putBlueskyPreferences(preferences)
        let put = try XCTUnwrap(agent.requests.last)
        let written = try Self.items(try XCTUnwrap(put.body))
        let original = try Self.items(Data(Self.malformedPreferences.utf8))
        XCTAssertEqual(written.count, original.count)
        XCTAssertEqual(Array(written.prefix(5)), Array(original.prefix(5)))
        let hidden = written.last?.objectValue
        XCTAssertEqual(hidden?["extra"], JSONValue.integer(7))
        XCTAssertEqual(
            hidden?["items"],
            JSONValue.array([
                .string("at://did:plc:a/app.bsky.feed.post/1"), .string("at://did:plc:a/app.bsky.feed.post/2"),
            ]))
    }

    static func items(_ data: Data) throws -> [JSONValue] {
        guard case .array(let items)? = try JSONValue(jsonData: data).objectValue?["preferences"] else { return [] }
        return items
    }

    func testAnswersThatAreNoPreferenceListThrow() async {
        for body in [#"{"preferences": 3}"#, #"{}"#, "[]"] {
            let client = XRPCClient(agent: StubAgent(json: body))
            do {
                _ = try await client.blueskyPreferences()
                XCTFail("\(body) was read")
            } catch {
                XCTAssertFalse("\(error)".isEmpty)
            }
        }
    }
}
