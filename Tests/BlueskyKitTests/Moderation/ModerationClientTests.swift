// The network helpers with a stub agent: the labelers requests ask for, and labelers' definitions
// fetched in batches and interpreted.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

final class ModerationClientTests: XCTestCase {
    func testRequestsAskForTheAppLabelersAndTheUsers() async throws {
        let agent = StubAgent(json: #"{"feed": []}"#)
        let preferences = ModerationPreferences(labelers: [LabelerSettings(did: "did:plc:mine")])
        let client = XRPCClient(agent: agent).acceptingLabelers(of: preferences, appLabelers: ["did:plc:app"])
        _ = try await client.app.bsky.feed.getTimeline(limit: 10)
        XCTAssertEqual(agent.requests.first?.header("atproto-accept-labelers"), "did:plc:app;redact, did:plc:mine")
    }

    func testDefinitionsAreFetchedOncePerLabelerInBatchesAndInterpreted() async throws {
        let agent = StubAgent { request in
            let dids = request.queryItems.filter { $0.name == "dids" }.compactMap(\.value)
            let views = dids.map { did in
                """
                {"$type": "app.bsky.labeler.defs#labelerViewDetailed", "uri": "at://\(did)/app.bsky.labeler.service/self",
                 "cid": "\(Mock.cid)", "creator": {"did": "\(did)", "handle": "labeler.test"}, "indexedAt": "\(Mock.time)",
                 "policies": {"labelValues": ["rude"], "labelValueDefinitions": [
                   {"identifier": "rude", "severity": "alert", "blurs": "content", "defaultSetting": "hide", "locales": []}]}}
                """
            }
            let plain = """
                {"$type": "app.bsky.labeler.defs#labelerView", "uri": "at://did:plc:plain/app.bsky.labeler.service/self",
                 "cid": "\(Mock.cid)", "creator": {"did": "did:plc:plain", "handle": "plain.test"}, "indexedAt": "\(Mock.time)"}
                """
            let body = #"{"views": ["# + (views + [plain]).joined(separator: ",") + "]}"
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let labelers = (0..<45).map { DID(rawValue: "did:plc:labeler\($0)") }
        let definitions = try await XRPCClient(agent: agent).labelDefinitions(for: labelers + labelers.prefix(5))
        XCTAssertEqual(agent.requests.map { $0.queryItems.filter { $0.name == "dids" }.count }, [20, 20, 5])
        XCTAssertEqual(Set(definitions.keys), Set(labelers))
        let rude = try XCTUnwrap(definitions[labelers[0]]?.first)
        XCTAssertEqual(rude.identifier, "rude")
        XCTAssertEqual(rude.definedBy, labelers[0])
        XCTAssertEqual(rude.defaultSetting, .hide)
        XCTAssertEqual(rude.contentBehavior[.contentView], .alert)
        XCTAssertEqual(agent.requests.first?.queryItems.first { $0.name == "detailed" }?.value, "true")
    }

    /// Main-actor code (an app with MainActor default isolation) changes its own state in the change
    /// it passes: the change runs on the caller's actor. Before, the closure was sent off the main
    /// actor, which the compiler refused ("sending ... risks causing data races").
    @MainActor
    func testAnUpdateRunsItsChangeOnTheCallersActor() async throws {
        let agent = StubAgent { request in
            let body = request.nsid == "app.bsky.actor.getPreferences" ? #"{"preferences": []}"# : "{}"
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let screen = PreferencesScreen()
        let updated = try await XRPCClient(agent: agent).updateBlueskyPreferences { preferences in
            MainActor.assertIsolated()
            screen.changes += 1
            preferences.hidePost("at://did:plc:a/app.bsky.feed.post/1")
        }
        XCTAssertEqual(screen.changes, 1)
        XCTAssertEqual(updated.moderationPreferences().hiddenPosts, ["at://did:plc:a/app.bsky.feed.post/1"])
        XCTAssertEqual(agent.requests.map(\.nsid), ["app.bsky.actor.getPreferences", "app.bsky.actor.putPreferences"])
    }
}

/// An app's main-actor state, as a view model holds it.
@MainActor
private final class PreferencesScreen {
    var changes = 0
}
