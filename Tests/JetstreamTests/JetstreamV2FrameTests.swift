import AtprotoLexicons
import Foundation
import XCTest

@testable import Jetstream

/// v2 frames: a commit read straight from the frame's text gives what the general reading (the
/// frame's tree, the generated message, the record from its tree) gives; anything else, and any
/// frame not of the usual shape, goes the general way, which reports what is wrong.
final class JetstreamV2FrameTests: XCTestCase {
    private static func frame(_ payloadFields: String, type: String = "network.bsky.jetstream.subscribeEvents#commit")
        -> String
    {
        #"{"$type":"message","payload":{"$type":"\#(type)","seq":41,"did":"did:plc:abc","#
            + #""time":"2026-11-28T09:44:11.810157Z","rev":"3l","# + payloadFields + "}}"
    }

    private static let post = #"{"$type":"app.bsky.feed.post","text":"hi","createdAt":"2026-01-01T00:00:00Z"}"#

    /// The general reading of a frame, as the client read every frame before.
    private func general(_ text: String) throws -> JetstreamMessage? {
        let frame = try XRPCJSONEventFrame(text: text)
        guard let json = frame.messageJSON(nsid: NetworkBskyJetstreamSubscribeEvents.nsid) else { return nil }
        return try JetstreamMessage.reading(
            NetworkBskyJetstreamSubscribeEvents.Message(lexiconJSON: json), recordTypes: .bluesky)
    }

    private func direct(_ text: String) -> JetstreamMessage? {
        var text = text
        return text.withUTF8 { JetstreamMessage.commitFrame($0, recordTypes: .bluesky) }
    }

    private func assertSame(
        _ lhs: JetstreamMessage?, _ rhs: JetstreamMessage?, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let (left, right) = (lhs?.event, rhs?.event)
        XCTAssertNotNil(left, file: file, line: line)
        XCTAssertEqual(left?.cursor, right?.cursor, file: file, line: line)
        XCTAssertEqual(left?.did, right?.did, file: file, line: line)
        XCTAssertEqual(left?.time, right?.time, file: file, line: line)
        let (a, b) = (left?.commit, right?.commit)
        XCTAssertEqual(a?.rev, b?.rev, file: file, line: line)
        XCTAssertEqual(a?.operation, b?.operation, file: file, line: line)
        XCTAssertEqual(a?.collection, b?.collection, file: file, line: line)
        XCTAssertEqual(a?.rkey, b?.rkey, file: file, line: line)
        XCTAssertEqual(a?.cid, b?.cid, file: file, line: line)
        XCTAssertEqual(a?.record?.json, b?.record?.json, file: file, line: line)
        switch (a?.record, b?.record) {
        case (nil, nil), (.known?, .known?), (.unknown?, .unknown?): break
        case (.invalid(_, let x)?, .invalid(_, let y)?): XCTAssertEqual(x.message, y.message, file: file, line: line)
        default:
            XCTFail("\(String(describing: a?.record)) is not \(String(describing: b?.record))", file: file, line: line)
        }
    }

    func testCommitsReadFromTheTextAsTheGeneralReadingReadsThem() throws {
        let frames = [
            Self.frame(
                #""operation":"create","collection":"app.bsky.feed.post","rkey":"a","cid":"bafy","record":\#(Self.post)"#
            ),
            // Keys in another order, white space.
            #"{ "payload" : { "record" : \#(Self.post), "rkey":"a", "collection":"app.bsky.feed.post","#
                + #""operation":"update","rev":"3l","time":"2026-11-28T09:44:11Z","did":"did:plc:abc","seq":7,"#
                + ##""$type":"#commit" }, "$type" : "message" }"##,
            Self.frame(
                #""operation":"create","collection":"app.bsky.feed.post","rkey":"b","record":{"$type":"app.bsky.feed.post","text":7}"#
            ),
            Self.frame(#""operation":"create","collection":"com.example.thing","rkey":"c","record":{"n":[1,2.5,"x"]}"#),
            Self.frame(#""operation":"delete","collection":"app.bsky.feed.post","rkey":"d""#),
            // A record with fields after it: an unknown field, nested values, brackets in strings,
            // white space.
            Self.frame(
                #""operation":"create","collection":"app.bsky.feed.post","record" : {"text":"}{","#
                    + #""createdAt":"2026-01-01T00:00:00Z","x":[1,{"y":"]"}]} ,"rkey":"e","cid":"bafy""#),
        ]
        for text in frames {
            let direct = direct(text)
            XCTAssertNotNil(direct, "read from the text: \(text)")
            assertSame(direct, try general(text))
            assertSame(try JetstreamMessage.reading(v2: text, recordTypes: .bluesky), try general(text))
        }
        guard case .invalid(let kept, _)? = direct(frames[2])?.event?.commit?.record else {
            return XCTFail("a record failing its lexicon is kept as invalid")
        }
        XCTAssertEqual(kept.json.objectValue?["text"], .integer(7))
        guard case .unknown(let unknown)? = direct(frames[3])?.event?.commit?.record else {
            return XCTFail("a record of an unknown collection is kept as data")
        }
        XCTAssertEqual(unknown.json.objectValue?["n"], .array([.integer(1), .number(2.5), .string("x")]))
        XCTAssertEqual(direct(frames[0])?.event?.commit?.record?.as(AppBskyFeedPost.self)?.text, "hi")
        let middle = direct(frames[5])?.event?.commit
        XCTAssertEqual(middle?.record?.as(AppBskyFeedPost.self)?.text, "}{")
        XCTAssertEqual(
            middle?.record?.as(AppBskyFeedPost.self)?.unknownFields["x"],
            .array([.integer(1), .object(["y": .string("]")])]))
        XCTAssertEqual(middle?.rkey, "e")
        XCTAssertEqual(middle?.cid?.rawValue, "bafy")
    }

    /// A record after its collection is decoded in place, where it is in the frame: the read ends
    /// right after the record, and a record that does not decode is left for the general reading.
    func testARecordIsDecodedInPlaceAndTheReadGoesOnAfterIt() throws {
        var text = #"{"record": \#(Self.post) ,"next":1}"#
        let start = #"{"record": "#.utf8.count
        let post = NSID(rawValue: "app.bsky.feed.post")
        text.withUTF8 { bytes in
            var position = start
            let record = LexiconRecordTypes.bluesky.knownRecord(jsonBytes: bytes, at: &position, collection: post)
            XCTAssertEqual((record as? AppBskyFeedPost)?.text, "hi")
            XCTAssertEqual(position, start + Self.post.utf8.count)
            // Not a type of the lookup, or not a record of that type: nothing read.
            for collection in ["com.example.thing", "app.bsky.feed.like"] {
                position = start
                XCTAssertNil(
                    LexiconRecordTypes.bluesky.knownRecord(
                        jsonBytes: bytes, at: &position, collection: NSID(rawValue: collection)))
                XCTAssertEqual(position, start)
            }
        }
        // Records read in place among the frame's fields, and ones left for the general reading.
        let frames = [
            Self.frame(#""operation":"create","collection":"app.bsky.feed.post","record":\#(Self.post),"rkey":"a""#),
            Self.frame(
                #""collection":"app.bsky.feed.post","record":{"text":"x","createdAt":"2026-01-01T00:00:00Z","#
                    + #""facets":[{"index":{"byteStart":0,"byteEnd":1},"features":[]}],"langs":["en"]},"#
                    + #""operation":"create","rkey":"a""#),
            // Not valid as a post (`text` is a number): kept as invalid, by the general reading.
            Self.frame(#""collection":"app.bsky.feed.post","record":{"text":7},"operation":"create","rkey":"a""#),
        ]
        for text in frames {
            assertSame(direct(text), try general(text))
        }
        XCTAssertEqual(direct(frames[1])?.event?.commit?.record?.as(AppBskyFeedPost.self)?.langs?.count, 1)
        // A record followed by what is not the frame's grammar: not read from the text at all.
        XCTAssertNil(direct(Self.frame(#""collection":"app.bsky.feed.post","record":\#(Self.post)}"#)))
    }

    func testFramesNotOfTheUsualShapeGoTheGeneralWay() throws {
        let broken = [
            // The record's text is not JSON: the frame is malformed.
            Self.frame(#""operation":"create","collection":"app.bsky.feed.post","rkey":"a","record":{"text":]}"#),
            // A duplicate key.
            Self.frame(#""operation":"create","collection":"app.bsky.feed.post","rkey":"a","rkey":"b""#),
            // A required field missing.
            Self.frame(#""operation":"create","collection":"app.bsky.feed.post""#),
            // Trailing data.
            Self.frame(#""operation":"delete","collection":"app.bsky.feed.post","rkey":"a""#) + "x",
        ]
        for text in broken {
            XCTAssertNil(direct(text), text)
            XCTAssertThrowsError(try JetstreamMessage.reading(v2: text, recordTypes: .bluesky), text) { error in
                guard case .fail(let failure) = error as? JetstreamConnectionEnd else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.code, .malformedEvent)
            }
        }
        // A field the scanner does not know: read the general way, delivered all the same.
        let extra = Self.frame(
            #""operation":"delete","collection":"app.bsky.feed.post","rkey":"d","extra":[1,{"x":null}]"#)
        XCTAssertNil(direct(extra))
        XCTAssertEqual(try JetstreamMessage.reading(v2: extra, recordTypes: .bluesky)?.event?.commit?.rkey, "d")
        let identity =
            ##"{"$type":"message","payload":{"$type":"#identity","seq":3,"did":"did:plc:abc","##
            + #""time":"2026-11-28T09:44:11Z","identity":{"seq":3,"did":"did:plc:abc","time":"2026-11-28T09:44:11Z","#
            + #""handle":"ex.test"}}}"#
        XCTAssertNil(direct(identity))
        guard
            case .identity(let value)? = try JetstreamMessage.reading(v2: identity, recordTypes: .bluesky)?.event?.kind
        else { return XCTFail("an identity event") }
        XCTAssertEqual(value.handle?.rawValue, "ex.test")
        XCTAssertNil(try JetstreamMessage.reading(v2: #"{"$type":"later"}"#, recordTypes: .bluesky))
        XCTAssertThrowsError(
            try JetstreamMessage.reading(v2: #"{"$type":"error","error":"ConsumerTooSlow"}"#, recordTypes: .bluesky)
        ) { error in
            guard case .retry = error as? JetstreamConnectionEnd else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try JetstreamMessage.reading(v2: #"{"$type":"error","error":"Other","message":"m"}"#, recordTypes: .bluesky)
        ) { error in
            guard case .fail(let failure) = error as? JetstreamConnectionEnd else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .errorFrame)
            XCTAssertEqual(failure.name, "Other")
        }
    }
}
