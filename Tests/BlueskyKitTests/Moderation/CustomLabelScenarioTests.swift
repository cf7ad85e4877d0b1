// Labelers' own label values in every combination of `blurs` and `severity`, on a post, a profile
// record and an account, directly (packages/api/tests/moderation-custom-labels.test.ts) and on the
// post a post quotes (moderation-quoteposts.test.ts), where they only ever remove from lists.

import AtprotoLexicons
import BlueskyKit
import XCTest
import XRPCRuntime

/// Expected outcomes of one custom definition per target.
struct CustomLabelCase {
    var blurs: String
    var severity: String
    var post: [ModerationContext: Set<Flag>]
    var profile: [ModerationContext: Set<Flag>]
    var account: [ModerationContext: Set<Flag>]

    func expected(_ target: LabelTarget) -> [ModerationContext: Set<Flag>] {
        switch target {
        case .content: post
        case .profile: profile
        case .account: account
        }
    }
}

final class CustomLabelScenarioTests: XCTestCase {
    static let labeler: DID = "did:web:labeler.test"

    static let direct: [CustomLabelCase] = [
        CustomLabelCase(
            blurs: "content", severity: "alert", post: [.contentList: [.filter, .blur], .contentView: [.alert]],
            profile: [.profileList: [.alert], .profileView: [.alert]],
            account: [
                .profileList: [.filter, .alert], .profileView: [.alert], .contentList: [.filter, .blur],
                .contentView: [.alert],
            ]),
        CustomLabelCase(
            blurs: "content", severity: "inform", post: [.contentList: [.filter, .blur], .contentView: [.inform]],
            profile: [.profileList: [.inform], .profileView: [.inform]],
            account: [
                .profileList: [.filter, .inform], .profileView: [.inform], .contentList: [.filter, .blur],
                .contentView: [.inform],
            ]),
        CustomLabelCase(
            blurs: "content", severity: "none", post: [.contentList: [.filter, .blur]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter, .blur]]),
        CustomLabelCase(
            blurs: "media", severity: "alert", post: [.contentList: [.filter], .contentMedia: [.blur]],
            profile: [.profileList: [.alert], .profileView: [.alert], .avatar: [.blur], .banner: [.blur]],
            account: [
                .profileList: [.filter, .alert], .profileView: [.alert], .avatar: [.blur], .banner: [.blur],
                .contentList: [.filter],
            ]),
        CustomLabelCase(
            blurs: "media", severity: "inform", post: [.contentList: [.filter], .contentMedia: [.blur]],
            profile: [.profileList: [.inform], .profileView: [.inform], .avatar: [.blur], .banner: [.blur]],
            account: [
                .profileList: [.filter, .inform], .profileView: [.inform], .avatar: [.blur], .banner: [.blur],
                .contentList: [.filter],
            ]),
        CustomLabelCase(
            blurs: "media", severity: "none", post: [.contentList: [.filter], .contentMedia: [.blur]],
            profile: [.avatar: [.blur], .banner: [.blur]],
            account: [.profileList: [.filter], .avatar: [.blur], .banner: [.blur], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "none", severity: "alert", post: [.contentList: [.filter, .alert], .contentView: [.alert]],
            profile: [.profileList: [.alert], .profileView: [.alert]],
            account: [
                .profileList: [.filter, .alert], .profileView: [.alert], .contentList: [.filter, .alert],
                .contentView: [.alert],
            ]),
        CustomLabelCase(
            blurs: "none", severity: "inform", post: [.contentList: [.filter, .inform], .contentView: [.inform]],
            profile: [.profileList: [.inform], .profileView: [.inform]],
            account: [
                .profileList: [.filter, .inform], .profileView: [.inform], .contentList: [.filter, .inform],
                .contentView: [.inform],
            ]),
        CustomLabelCase(
            blurs: "none", severity: "none", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
    ]

    static let quoted: [CustomLabelCase] = [
        CustomLabelCase(
            blurs: "content", severity: "alert", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "content", severity: "inform", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "content", severity: "none", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "media", severity: "alert", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "media", severity: "inform", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "media", severity: "none", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "none", severity: "alert", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "none", severity: "inform", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
        CustomLabelCase(
            blurs: "none", severity: "none", post: [.contentList: [.filter]], profile: [:],
            account: [.profileList: [.filter], .contentList: [.filter]]),
    ]

    /// The user subscribes to the labeler and hides `custom`, which it defines as `blurs`/`severity`.
    static func options(_ scenario: CustomLabelCase) -> ModerationOptions {
        Mock.options(
            labelers: [LabelerSettings(did: labeler, labels: ["custom": .hide])],
            definitions: [
                labeler: [
                    Mock.customDefinition(
                        "custom", blurs: scenario.blurs, severity: scenario.severity, labeler: labeler)
                ]
            ])
    }

    /// A `custom` label on `target` of the account `handle`.
    static func label(on target: LabelTarget, of handle: String) -> ComAtprotoLabelDefs.Label {
        let uri =
            switch target {
            case .content: "at://did:web:\(handle)/app.bsky.feed.post/fake"
            case .profile: "at://did:web:\(handle)/app.bsky.actor.profile/self"
            case .account: "did:web:\(handle)"
            }
        return Mock.label("custom", uri: uri, src: labeler)
    }

    func testEveryCombinationOnAPostAProfileAndAnAccount() {
        XCTAssertEqual(Self.direct.count, 9)
        for scenario in Self.direct {
            let options = Self.options(scenario)
            for target in LabelTarget.allCases {
                let label = Self.label(on: target, of: "bob.test")
                let decision: ModerationDecision
                switch target {
                case .content:
                    decision = options.decide(
                        post: Mock.postView(
                            Mock.post("Hello"), author: Mock.profile("bob.test", displayName: "Bob"), labels: [label]))
                case .profile, .account:
                    decision = options.decide(profile: Mock.profile("bob.test", displayName: "Bob", labels: [label]))
                }
                for context in ModerationContext.allCases {
                    XCTAssertEqual(
                        decision.ui(context).flags, scenario.expected(target)[context] ?? [],
                        "blurs=\(scenario.blurs) severity=\(scenario.severity) target=\(target): \(context)")
                }
            }
        }
    }

    func testEveryCombinationOnAQuotedPostOnlyFiltersLists() {
        XCTAssertEqual(Self.quoted.count, 9)
        for scenario in Self.quoted {
            let options = Self.options(scenario)
            for target in LabelTarget.allCases {
                let label = Self.label(on: target, of: "carla.test")
                let quotedAuthor = Mock.profile(
                    "carla.test", displayName: "Carla", labels: target == .content ? nil : [label])
                let post = Mock.postView(
                    Mock.post("Hello"), author: Mock.profile("bob.test", displayName: "Bob"),
                    embed: Mock.quote(
                        Mock.post("Quoted post text"), author: quotedAuthor, labels: target == .content ? [label] : nil)
                )
                let decision = options.decide(post: post)
                for context in ModerationContext.allCases {
                    XCTAssertEqual(
                        decision.ui(context).flags, scenario.expected(target)[context] ?? [],
                        "quoted: blurs=\(scenario.blurs) severity=\(scenario.severity) target=\(target): \(context)")
                }
            }
        }
    }
}
