// The reference client's general moderation cases (packages/api/tests/moderation.test.ts): self-labels,
// unsubscribed labelers, hiding by hand, priorities, labelers' own definitions and adult content.

import AtprotoLexicons
import BlueskyKit
import XCTest
import XRPCRuntime

final class ModerationLabelTests: XCTestCase {
    let labeler: DID = "did:web:labeler.test"
    let bob = Mock.profile("bob.test", displayName: "Bob")

    func postLabeled(_ values: String...) -> AppBskyFeedDefs.PostView {
        Mock.postView(
            Mock.post("Hello"), author: bob,
            labels: values.map { Mock.label($0, uri: "at://did:web:bob.test/app.bsky.post/fake", src: labeler) })
    }

    func assertOutcome(
        _ decision: ModerationDecision, _ expected: [ModerationContext: Set<Flag>], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for context in ModerationContext.allCases {
            XCTAssertEqual(decision.ui(context).flags, expected[context] ?? [], "\(context)", file: file, line: line)
        }
    }

    func testSelfLabelsOnAProfileFollowTheGlobalPreferences() {
        let profile = Mock.profile(
            "bob.test", displayName: "Bob",
            labels: [
                Mock.label("porn", uri: "at://did:web:bob.test/app.bsky.actor.profile/self", src: "did:web:bob.test")
            ])
        let hide = Mock.options(labels: ["porn": .hide]).decide(profile: profile)
        XCTAssertEqual(hide.ui(.avatar).flags, [.blur])
        let ignore = Mock.options(labels: ["porn": .ignore]).decide(profile: profile)
        XCTAssertEqual(ignore.ui(.avatar).flags, [])
    }

    func testLabelsOfUnsubscribedLabelersAndIgnoredValuesDoNothing() {
        let profile = Mock.profile(
            "bob.test", displayName: "Bob",
            labels: [Mock.label("porn", uri: "at://did:web:bob.test/app.bsky.actor.profile/self", src: labeler)])
        assertOutcome(Mock.options(labels: ["porn": .hide]).decide(profile: profile), [:])
        let ignored = Mock.options(
            labels: ["porn": .ignore], labelers: [LabelerSettings(did: labeler, labels: ["porn": .ignore])])
        assertOutcome(ignored.decide(profile: profile), [:])
    }

    func testHidingByHandFiltersAndCovers() {
        var decision = Mock.options(labelers: [LabelerSettings(did: labeler)]).decide(post: postLabeled())
        decision.addHidden()
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter, .blur])
        XCTAssertEqual(decision.ui(.contentView).flags, [.blur])
    }

    func testFiltersAndCoversAreOrderedByPriority() {
        let options = Mock.options(labels: ["porn": .hide], labelers: [LabelerSettings(did: labeler)])
        let decision = options.decide(post: postLabeled("porn", "!hide"))
        XCTAssertEqual(decision.ui(.contentList).filters.map { $0.labelCause?.label.val }, ["!hide", "porn"])
        XCTAssertEqual(decision.ui(.contentList).blurs.first?.labelCause?.label.val, "!hide")
        XCTAssertEqual(decision.ui(.contentMedia).blurs.first?.labelCause?.label.val, "porn")
    }

    func testALabelersOwnDefinitionWinsOverTheBuiltInOne() {
        let options = Mock.options(
            labels: ["porn": .warn], labelers: [LabelerSettings(did: labeler, labels: ["porn": .warn])],
            definitions: [labeler: [Mock.customDefinition("porn", blurs: "none", severity: "inform", labeler: labeler)]]
        )
        assertOutcome(options.decide(post: postLabeled("porn")), [.contentList: [.inform], .contentView: [.inform]])
    }

    func testAnImperativeValueKeepsItsBuiltInMeaningWhateverTheLabelerDefines() {
        let options = Mock.options(
            labelers: [LabelerSettings(did: labeler)],
            definitions: [
                labeler: [Mock.customDefinition("!hide", blurs: "none", severity: "inform", labeler: labeler)]
            ])
        assertOutcome(
            options.decide(post: postLabeled("!hide")),
            [.contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride]])
    }

    func testDefinitionsWithValuesThatCannotBeCustomAreIgnored() {
        let options = Mock.options(
            labelers: [LabelerSettings(did: labeler, labels: ["BadLabel": .hide, "bad/label": .hide])],
            definitions: [
                labeler: [
                    Mock.customDefinition("BadLabel", blurs: "content", severity: "inform", labeler: labeler),
                    Mock.customDefinition("bad/label", blurs: "content", severity: "inform", labeler: labeler),
                ]
            ])
        assertOutcome(options.decide(post: postLabeled("BadLabel", "bad/label")), [:])
    }

    func testALabelersDefinitionSetsTheDefaultPreference() {
        let options = Mock.options(
            labelers: [LabelerSettings(did: labeler)],
            definitions: [
                labeler: ["hide", "warn", "ignore"].map {
                    Mock.customDefinition(
                        "default-\($0)", blurs: "content", severity: "inform", defaultSetting: $0, labeler: labeler)
                }
            ])
        assertOutcome(
            options.decide(post: postLabeled("default-hide")),
            [.contentList: [.filter, .blur], .contentView: [.inform]])
        assertOutcome(
            options.decide(post: postLabeled("default-warn")), [.contentList: [.blur], .contentView: [.inform]])
        assertOutcome(options.decide(post: postLabeled("default-ignore")), [:])
    }

    func testAnAdultOnlyCustomValueHidesWithoutOverrideWhenAdultContentIsOff() {
        let options = Mock.options(
            adultContentEnabled: false, labels: ["adult": .ignore],
            labelers: [LabelerSettings(did: labeler, labels: ["adult": .ignore])],
            definitions: [
                labeler: [
                    Mock.customDefinition(
                        "adult", blurs: "content", severity: "inform", defaultSetting: "hide", adultOnly: true,
                        labeler: labeler)
                ]
            ])
        assertOutcome(
            options.decide(post: postLabeled("adult")),
            [.contentList: [.filter, .blur, .noOverride], .contentView: [.blur, .noOverride]])
    }

    func testAdultContentOffForcesHideOverTheUsersPreference() {
        let options = Mock.options(
            adultContentEnabled: false, labels: ["porn": .ignore], labelers: [LabelerSettings(did: labeler)])
        assertOutcome(
            options.decide(post: postLabeled("porn")), [.contentList: [.filter], .contentMedia: [.blur, .noOverride]])
    }
}
