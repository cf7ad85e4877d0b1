// The reference client's behaviour suite (packages/api/tests/moderation-behaviors.test.ts in
// bluesky-social/atproto): the same users, preference configurations and scenarios, each scenario's
// expected outcome per UI context. Posts are checked in every context but the two profile ones, as
// there.

import AtprotoLexicons
import BlueskyKit
import XCTest
import XRPCRuntime

final class ModerationBehaviorSuiteTests: XCTestCase {
    /// The viewer's relationship with each account of the suite.
    struct Relationship {
        var blocking = false
        var blockingByList = false
        var blockedBy = false
        var muted = false
        var mutedByList = false
    }

    /// Preferences of a configuration.
    struct Configuration {
        var signedIn = true
        var adultContentEnabled = false
        var settings: [String: BlueskyLabelPreference] = [:]
    }

    /// Label values per place.
    struct Labels {
        var post: [String] = []
        var profile: [String] = []
        var account: [String] = []
        var quotedPost: [String] = []
        var quotedAccount: [String] = []
    }

    enum Subject { case post, profile }

    struct Scenario {
        var subject: Subject
        var author: String
        var config: String
        var quoteAuthor: String?
        var labels: Labels
        var expected: [ModerationContext: Set<Flag>]

        init(
            _ subject: Subject, by author: String, config: String, quoteAuthor: String? = nil,
            labels: Labels = Labels(),
            expect: [ModerationContext: Set<Flag>]
        ) {
            self.subject = subject
            self.author = author
            self.config = config
            self.quoteAuthor = quoteAuthor
            self.labels = labels
            self.expected = expect
        }

        var name: String {
            let places = [
                ("post", labels.post), ("profile", labels.profile), ("account", labels.account),
                ("quoted post", labels.quotedPost), ("quoted account", labels.quotedAccount),
            ]
            .filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1)" }
            return
                "\(subject) by \(author), config \(config), labels on \(places.isEmpty ? "nothing" : places.joined(separator: ", "))"
        }
    }

    static let users: [String: Relationship] = [
        "self": Relationship(),
        "alice": Relationship(),
        "bob": Relationship(blocking: true),
        "carla": Relationship(blockedBy: true),
        "dan": Relationship(muted: true),
        "elise": Relationship(mutedByList: true),
        "fern": Relationship(blocking: true, blockedBy: true),
        "georgia": Relationship(blockingByList: true),
    ]

    static let configurations: [String: Configuration] = [
        "none": Configuration(),
        "adult-disabled": Configuration(adultContentEnabled: false),
        "intolerant-hide": Configuration(settings: ["intolerance": .hide]),
        "intolerant-warn": Configuration(settings: ["intolerance": .warn]),
        "intolerant-ignore": Configuration(settings: ["intolerance": .ignore]),
        "porn-hide": Configuration(adultContentEnabled: true, settings: ["porn": .hide]),
        "porn-warn": Configuration(adultContentEnabled: true, settings: ["porn": .warn]),
        "porn-ignore": Configuration(adultContentEnabled: true, settings: ["porn": .ignore]),
        "scam-hide": Configuration(settings: ["misrepresentation": .hide]),
        "scam-warn": Configuration(settings: ["misrepresentation": .warn]),
        "scam-ignore": Configuration(settings: ["misrepresentation": .ignore]),
        "intolerant-hide-scam-warn": Configuration(settings: ["intolerance": .hide, "misrepresentation": .hide]),
        "logged-out": Configuration(signedIn: false),
    ]

    static let scenarios: [Scenario] = [
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(account: ["!hide"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(profile: ["!hide"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(post: ["!hide"]),
            expect: [.contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride]]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(profile: ["!hide"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(account: ["!hide"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(account: ["!warn"]),
            expect: [
                .profileList: [.blur], .profileView: [.blur], .avatar: [.blur], .banner: [.blur], .contentList: [.blur],
                .contentView: [.blur],
            ]),
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(profile: ["!warn"]),
            expect: [.avatar: [.blur], .banner: [.blur], .displayName: [.blur]]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(post: ["!warn"]),
            expect: [.contentList: [.blur], .contentView: [.blur]]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(profile: ["!warn"]),
            expect: [.avatar: [.blur], .banner: [.blur], .displayName: [.blur]]),
        Scenario(
            .post, by: "alice", config: "none", labels: Labels(account: ["!warn"]),
            expect: [.avatar: [.blur], .banner: [.blur], .contentList: [.blur], .contentView: [.blur]]),
        Scenario(
            .profile, by: "alice", config: "logged-out", labels: Labels(account: ["!no-unauthenticated"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "logged-out", labels: Labels(profile: ["!no-unauthenticated"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "alice", config: "logged-out", labels: Labels(post: ["!no-unauthenticated"]),
            expect: [.contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride]]),
        Scenario(
            .post, by: "alice", config: "logged-out", labels: Labels(profile: ["!no-unauthenticated"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "alice", config: "logged-out", labels: Labels(account: ["!no-unauthenticated"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(.profile, by: "alice", config: "none", labels: Labels(account: ["!no-unauthenticated"]), expect: [:]),
        Scenario(.profile, by: "alice", config: "none", labels: Labels(profile: ["!no-unauthenticated"]), expect: [:]),
        Scenario(.post, by: "alice", config: "none", labels: Labels(post: ["!no-unauthenticated"]), expect: [:]),
        Scenario(.post, by: "alice", config: "none", labels: Labels(profile: ["!no-unauthenticated"]), expect: [:]),
        Scenario(.post, by: "alice", config: "none", labels: Labels(account: ["!no-unauthenticated"]), expect: [:]),
        Scenario(
            .profile, by: "alice", config: "porn-hide", labels: Labels(account: ["porn"]),
            expect: [.profileList: [.filter], .avatar: [.blur], .banner: [.blur], .contentList: [.filter]]),
        Scenario(
            .profile, by: "alice", config: "porn-hide", labels: Labels(profile: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-hide", labels: Labels(post: ["porn"]),
            expect: [.contentList: [.filter], .contentMedia: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-hide", labels: Labels(profile: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-hide", labels: Labels(account: ["porn"]),
            expect: [.profileList: [.filter], .avatar: [.blur], .banner: [.blur], .contentList: [.filter]]),
        Scenario(
            .profile, by: "alice", config: "porn-warn", labels: Labels(account: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(
            .profile, by: "alice", config: "porn-warn", labels: Labels(profile: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-warn", labels: Labels(post: ["porn"]), expect: [.contentMedia: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-warn", labels: Labels(profile: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(
            .post, by: "alice", config: "porn-warn", labels: Labels(account: ["porn"]),
            expect: [.avatar: [.blur], .banner: [.blur]]),
        Scenario(.profile, by: "alice", config: "porn-ignore", labels: Labels(account: ["porn"]), expect: [:]),
        Scenario(.profile, by: "alice", config: "porn-ignore", labels: Labels(profile: ["porn"]), expect: [:]),
        Scenario(.post, by: "alice", config: "porn-ignore", labels: Labels(post: ["porn"]), expect: [:]),
        Scenario(.post, by: "alice", config: "porn-ignore", labels: Labels(profile: ["porn"]), expect: [:]),
        Scenario(.post, by: "alice", config: "porn-ignore", labels: Labels(account: ["porn"]), expect: [:]),
        Scenario(
            .profile, by: "alice", config: "adult-disabled", labels: Labels(account: ["porn"]),
            expect: [
                .profileList: [.filter], .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride],
                .contentList: [.filter],
            ]),
        Scenario(
            .profile, by: "alice", config: "adult-disabled", labels: Labels(profile: ["porn"]),
            expect: [
                .profileList: [], .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .contentList: [],
            ]),
        Scenario(
            .post, by: "alice", config: "adult-disabled", labels: Labels(post: ["porn"]),
            expect: [.contentList: [.filter], .contentMedia: [.blur, .noOverride]]),
        Scenario(
            .post, by: "alice", config: "adult-disabled", labels: Labels(profile: ["porn"]),
            expect: [.avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .contentList: []]),
        Scenario(
            .post, by: "alice", config: "adult-disabled", labels: Labels(account: ["porn"]),
            expect: [.avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .contentList: [.filter]]),
        Scenario(
            .profile, by: "self", config: "none", labels: Labels(account: ["!hide"]),
            expect: [
                .profileList: [.blur], .profileView: [.blur], .avatar: [.blur], .banner: [.blur], .displayName: [.blur],
                .contentList: [.blur], .contentView: [.blur],
            ]),
        Scenario(
            .profile, by: "self", config: "none", labels: Labels(profile: ["!hide"]),
            expect: [.avatar: [.blur], .banner: [.blur], .displayName: [.blur]]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(post: ["!hide"]),
            expect: [.contentList: [.blur], .contentView: [.blur]]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(profile: ["!hide"]),
            expect: [.avatar: [.blur], .banner: [.blur], .displayName: [.blur]]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(account: ["!hide"]),
            expect: [
                .avatar: [.blur], .banner: [.blur], .displayName: [.blur], .contentList: [.blur], .contentView: [.blur],
            ]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(post: ["!warn"]),
            expect: [.contentList: [.blur], .contentView: [.blur]]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(profile: ["!warn"]),
            expect: [.avatar: [.blur], .banner: [.blur], .displayName: [.blur]]),
        Scenario(
            .post, by: "self", config: "none", labels: Labels(account: ["!warn"]),
            expect: [.avatar: [.blur], .banner: [.blur], .contentList: [.blur], .contentView: [.blur]]),
        Scenario(
            .profile, by: "bob", config: "none",
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.alert], .avatar: [.blur, .noOverride],
                .banner: [.blur, .noOverride], .contentList: [.filter, .blur, .noOverride],
                .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "bob", config: "none",
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "carla", config: "none",
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "georgia", config: "none",
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.alert], .avatar: [.blur, .noOverride],
                .banner: [.blur, .noOverride], .contentList: [.filter, .blur, .noOverride],
                .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "carla", config: "none",
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.alert], .avatar: [.blur, .noOverride],
                .banner: [.blur, .noOverride], .contentList: [.filter, .blur, .noOverride],
                .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "dan", config: "none",
            expect: [
                .profileList: [.filter, .inform], .profileView: [.alert], .contentList: [.filter, .blur],
                .contentView: [.inform],
            ]),
        Scenario(
            .profile, by: "elise", config: "none",
            expect: [
                .profileList: [.filter, .inform], .profileView: [.alert], .contentList: [.filter, .blur],
                .contentView: [.inform],
            ]),
        Scenario(
            .profile, by: "fern", config: "none",
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.alert], .avatar: [.blur, .noOverride],
                .banner: [.blur, .noOverride], .contentList: [.filter, .blur, .noOverride],
                .contentView: [.blur, .noOverride],
            ]),
        Scenario(.post, by: "dan", config: "none", expect: [.contentList: [.filter, .blur], .contentView: [.inform]]),
        Scenario(
            .post, by: "elise", config: "none", expect: [.contentList: [.filter, .blur], .contentView: [.inform]]),
        Scenario(
            .profile, by: "bob", config: "none", labels: Labels(account: ["!hide"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .alert, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "porn-hide", labels: Labels(account: ["!hide", "porn"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "porn-hide", labels: Labels(account: ["!warn", "porn"]),
            expect: [
                .profileList: [.filter, .blur], .profileView: [.blur], .avatar: [.blur], .banner: [.blur],
                .contentList: [.filter, .blur], .contentView: [.blur],
            ]),
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(profile: ["!warn"], account: ["!hide"]),
            expect: [
                .profileList: [.filter, .blur, .noOverride], .profileView: [.blur, .noOverride],
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .profile, by: "alice", config: "none", labels: Labels(profile: ["!hide"], account: ["!warn"]),
            expect: [
                .profileList: [.blur], .profileView: [.blur], .avatar: [.blur, .noOverride],
                .banner: [.blur, .noOverride], .displayName: [.blur, .noOverride], .contentList: [.blur],
                .contentView: [.blur],
            ]),
        Scenario(
            .post, by: "fern", config: "none",
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "bob", config: "none", labels: Labels(post: ["!hide"]),
            expect: [
                .avatar: [.blur, .noOverride], .banner: [.blur, .noOverride],
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride],
            ]),
        Scenario(
            .post, by: "alice", config: "porn-hide", labels: Labels(post: ["!hide", "porn"]),
            expect: [
                .contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride], .contentMedia: [.blur],
            ]),
        Scenario(
            .post, by: "alice", config: "porn-hide", labels: Labels(post: ["!warn", "porn"]),
            expect: [.contentList: [.filter, .blur], .contentView: [.blur], .contentMedia: [.blur]]),
    ]

    func testEveryScenarioOfTheReferenceSuiteHasTheSameOutcomeInEveryContext() throws {
        XCTAssertEqual(Self.scenarios.count, 67)
        for scenario in Self.scenarios {
            let options = try Self.options(for: scenario)
            let decision: ModerationDecision
            let contexts: [ModerationContext]
            switch scenario.subject {
            case .profile:
                decision = options.decide(profile: try Self.profile(scenario.author, labels: scenario.labels))
                contexts = ModerationContext.allCases
            case .post:
                decision = options.decide(post: try Self.post(for: scenario))
                contexts = ModerationContext.allCases.filter { $0 != .profileList && $0 != .profileView }
            }
            for context in contexts {
                XCTAssertEqual(
                    decision.ui(context).flags, scenario.expected[context] ?? [],
                    "\(scenario.name): \(context)")
            }
        }
    }

    static func options(for scenario: Scenario) throws -> ModerationOptions {
        let configuration = try XCTUnwrap(configurations[scenario.config], "configuration \(scenario.config)")
        return ModerationOptions(
            viewer: configuration.signedIn ? "did:web:self.test" : nil,
            preferences: ModerationPreferences(
                adultContentEnabled: configuration.adultContentEnabled, labels: configuration.settings,
                labelers: [LabelerSettings(did: Mock.labeler)]))
    }

    static func profile(_ name: String, labels: Labels) throws -> AppBskyActorDefs.ProfileViewBasic {
        let relationship = try XCTUnwrap(users[name], "user \(name)")
        let did = "did:web:\(name).test"
        let viewer = AppBskyActorDefs.ViewerState(
            blockedBy: relationship.blockedBy,
            blocking: relationship.blocking || relationship.blockingByList
                ? "at://did:web:self.test/app.bsky.graph.block/fake" : nil,
            blockingByList: relationship.blockingByList ? Mock.list() : nil,
            muted: relationship.muted || relationship.mutedByList,
            mutedByList: relationship.mutedByList ? Mock.list() : nil)
        let accountLabels = labels.account.map { Mock.label($0, uri: did) }
        let profileLabels = labels.profile.map { Mock.label($0, uri: "at://\(did)/app.bsky.actor.profile/self") }
        return Mock.profile("\(name).test", viewer: viewer, labels: accountLabels + profileLabels)
    }

    static func post(for scenario: Scenario) throws -> AppBskyFeedDefs.PostView {
        let author = try profile(scenario.author, labels: scenario.labels)
        let postURI = "at://\(author.did)/app.bsky.feed.post/fake"
        var embed: AppBskyFeedDefs.PostView.Embed?
        if let quoteAuthor = scenario.quoteAuthor {
            embed = Mock.quote(
                Mock.post("Quoted post text"),
                author: try profile(quoteAuthor, labels: Labels(account: scenario.labels.quotedAccount)),
                labels: scenario.labels.quotedPost.map { Mock.label($0, uri: postURI) })
        }
        return Mock.postView(
            Mock.post("Post text"), author: author, embed: embed,
            labels: scenario.labels.post.map { Mock.label($0, uri: postURI) })
    }
}
