import AtprotoLexicons
import Foundation
import XCTest

/// Decoding that drops unknown fields, for data an app only reads.
final class DecodingModeTests: XCTestCase {
    private let json = #"""
        {"did": "did:plc:a", "handle": "a.test", "futureField": {"x": 1},
         "viewer": {"muted": false, "futureFlag": true}}
        """#

    func testDroppingUnknownFieldsKeepsTheKnownOnesOnly() throws {
        let value = try JSONValue.parse(Data(json.utf8))
        let lossless = try AppBskyActorDefs.ProfileViewBasic(lexiconJSON: value)
        XCTAssertEqual(lossless.lexiconJSON, value)

        let lean = try LexiconDecoder.droppingUnknownFields {
            try AppBskyActorDefs.ProfileViewBasic(lexiconJSON: value)
        }
        XCTAssertEqual(lean.handle, "a.test")
        XCTAssertEqual(lean.viewer?.muted, false)
        XCTAssertEqual(lean.unknownFields, [:])
        XCTAssertEqual(lean.viewer?.unknownFields, [:])
        XCTAssertNil(lean.lexiconJSON.objectValue?["futureField"])

        // Outside the closure, decoding is lossless again.
        XCTAssertEqual(try AppBskyActorDefs.ProfileViewBasic(lexiconJSON: value).lexiconJSON, value)
    }

    /// A reader notes the first sixteen fields it reads in place and any more in an array: fields read
    /// past the sixteenth, a stray `null` among them, and unknown fields must all come back as read.
    func testAnObjectWithMoreThanSixteenKnownFieldsKeepsItsUnknownOnes() throws {
        let json = #"""
            {"did": "did:plc:a", "handle": "a.test", "displayName": "A", "description": "about",
             "pronouns": "they", "website": "https://a.test", "avatar": "https://a.test/a.jpg",
             "banner": "https://a.test/b.jpg", "followersCount": 1, "followsCount": 2, "postsCount": 3,
             "associated": {"lists": 1}, "indexedAt": "2024-01-01T00:00:00Z",
             "createdAt": "2024-01-01T00:00:00Z", "viewer": {"muted": false}, "labels": [],
             "pinnedPost": {"uri": "at://did:plc:a/app.bsky.feed.post/3k", "cid": "bafyreih"},
             "verification": null, "futureField": [1, 2], "$extra": "x"}
            """#
        let value = try JSONValue.parse(Data(json.utf8))
        let profile = try AppBskyActorDefs.ProfileViewDetailed(lexiconJSON: value)
        XCTAssertEqual(profile.postsCount, 3)
        XCTAssertEqual(profile.pinnedPost?.cid.rawValue, "bafyreih")
        XCTAssertNil(profile.verification)
        XCTAssertEqual(
            profile.unknownFields,
            ["verification": .null, "futureField": .array([.integer(1), .integer(2)]), "$extra": .string("x")])
        XCTAssertEqual(profile.lexiconJSON, value)
    }

    /// Objects of up to sixteen fields are read by comparing keys in turn and note what they read as
    /// bits of the dictionary's positions: a stray `null` read between other fields must stay unknown,
    /// and the fields after it must still count as read.
    func testASmallObjectKeepsAStrayNullAndItsUnknownFields() throws {
        let json = #"""
            {"did": "did:plc:a", "displayName": null, "handle": "a.test", "avatar": "https://a.test/a.jpg",
             "futureField": {"x": 1}, "createdAt": "2024-01-01T00:00:00Z"}
            """#
        let value = try JSONValue.parse(Data(json.utf8))
        let profile = try AppBskyActorDefs.ProfileViewBasic(lexiconJSON: value)
        XCTAssertEqual(profile.handle, "a.test")
        XCTAssertNil(profile.displayName)
        XCTAssertEqual(profile.unknownFields, ["displayName": .null, "futureField": .object(["x": .integer(1)])])
        XCTAssertEqual(profile.lexiconJSON, value)
    }

    /// A union member keeps its `$type` among its unknown fields, alone or beside others.
    func testAUnionMemberKeepsItsTypeAmongItsUnknownFields() throws {
        let alone = try JSONValue.parse(Data(#"{"$type": "app.bsky.embed.images#view", "images": []}"#.utf8))
        guard case .appBskyEmbedImagesView(let view) = try AppBskyFeedDefs.PostView.Embed(lexiconJSON: alone) else {
            return XCTFail("not an images view")
        }
        XCTAssertEqual(view.unknownFields, ["$type": .string("app.bsky.embed.images#view")])
        XCTAssertEqual(AppBskyFeedDefs.PostView.Embed.appBskyEmbedImagesView(view).lexiconJSON, alone)

        let beside = try JSONValue.parse(
            Data(#"{"$type": "app.bsky.embed.images#view", "images": [], "futureField": 2}"#.utf8))
        guard case .appBskyEmbedImagesView(let other) = try AppBskyFeedDefs.PostView.Embed(lexiconJSON: beside)
        else { return XCTFail("not an images view") }
        XCTAssertEqual(
            other.unknownFields, ["$type": .string("app.bsky.embed.images#view"), "futureField": .integer(2)])
        XCTAssertEqual(AppBskyFeedDefs.PostView.Embed.appBskyEmbedImagesView(other).lexiconJSON, beside)
    }
}
