// The account's default post-interaction settings applied by the composer, against the shared PDS
// (skipped without ATPROTO_PDS_URL), and offline for what a draft keeps of its own.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime

final class DefaultGatesIntegrationTests: XCTestCase {
    static let settings = AppBskyActorDefs.PostInteractionSettingsPref(
        postgateEmbeddingRules: [.appBskyFeedPostgateDisableRule(.init())],
        threadgateAllowRules: [
            .appBskyFeedThreadgateMentionRule(.init()),
            .appBskyFeedThreadgateListRule(.init(list: "at://did:plc:x/app.bsky.graph.list/l")),
        ])

    func testADraftWithoutGatesGetsTheDefaultsAndOneWithGatesKeepsItsOwn() {
        let plain = BlueskyPostDraft(text: RichText(text: "hi")).applyingInteractionSettings(Self.settings)
        XCTAssertEqual(plain.replyGate, ReplyGate(allow: [.mentioned, .list("at://did:plc:x/app.bsky.graph.list/l")]))
        XCTAssertEqual(plain.quoteGate, QuoteGate(disableQuotes: true))

        var own = BlueskyPostDraft(text: RichText(text: "hi"), replyGate: ReplyGate(allow: []))
        own = own.applyingInteractionSettings(Self.settings)
        XCTAssertEqual(own.replyGate, ReplyGate(allow: []))

        let none = BlueskyPostDraft(text: RichText(text: "hi")).applyingInteractionSettings(.init())
        XCTAssertNil(none.replyGate)
        XCTAssertNil(none.quoteGate)
    }

    func testPublishingAppliesTheAccountsDefaults() async throws {
        let account = try await freshPDSAccount("gates")
        try await account.client.updateBlueskyPreferences { try $0.setPostInteractionSettings(Self.settings) }
        let published = try await account.client.publishPostWithDefaultGates(
            BlueskyPostDraft(text: RichText(text: "gated by default")), repo: account.did)
        let threadgate = try XCTUnwrap(published.threadgate)
        XCTAssertNotNil(published.postgate)
        let gate = try await account.client.getRecord(
            AppBskyFeedThreadgate.self, repo: ATIdentifier(rawValue: account.did.rawValue),
            rkey: try XCTUnwrap(threadgate.rkey))
        XCTAssertEqual(gate.value.allow?.count, 2)
    }
}
