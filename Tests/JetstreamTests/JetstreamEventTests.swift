import AtprotoLexicons
import Foundation
import XCTest

@testable import Jetstream

/// v1 events to types: a record of a known collection typed, one that fails its lexicon kept with
/// the reason, identity events typed, malformed events refused with what is wrong.
final class JetstreamEventTests: XCTestCase {
    private func event(_ commit: String) -> String {
        #"{"did":"did:plc:abc","time_us":1795859051810157,"kind":"commit","commit":\#(commit)}"#
    }

    func testRecordsAreTypedOrKeptWithTheReasonNeverDropped() throws {
        let valid = event(
            #"{"rev":"3l","operation":"create","collection":"app.bsky.feed.post","rkey":"a","#
                + #""record":{"$type":"app.bsky.feed.post","text":"hi","createdAt":"2026-01-01T00:00:00Z"},"cid":"bafy"}"#
        )
        let message = try JetstreamMessage.reading(v1: valid, recordTypes: .bluesky)
        XCTAssertEqual(message.event?.cursor, 1_795_859_051_810_157)
        XCTAssertEqual(message.event?.commit?.record?.as(AppBskyFeedPost.self)?.text, "hi")
        let invalid = event(
            #"{"rev":"3l","operation":"create","collection":"app.bsky.feed.post","rkey":"b","#
                + #""record":{"$type":"app.bsky.feed.post","text":7}}"#)
        guard
            case .invalid(let kept, let reason)? = try JetstreamMessage.reading(v1: invalid, recordTypes: .bluesky)
                .event?.commit?.record
        else { return XCTFail("a record failing its lexicon is kept as invalid") }
        XCTAssertEqual(kept.json.objectValue?["text"], .integer(7))
        XCTAssertFalse(reason.message.isEmpty)
        let deleted = try JetstreamMessage.reading(
            v1: event(#"{"rev":"3l","operation":"delete","collection":"app.bsky.feed.post","rkey":"c"}"#),
            recordTypes: .bluesky)
        XCTAssertEqual(deleted.event?.commit?.operation, .delete)
        XCTAssertNil(deleted.event?.commit?.record)
    }

    func testIdentityIsTypedAndUnknownKindsAreKept() throws {
        let identity = try JetstreamMessage.reading(
            v1: #"{"did":"did:plc:abc","time_us":5,"kind":"identity","identity":{"seq":3,"did":"did:plc:abc","#
                + #""time":"2026-11-28T09:44:11.758742+00:00","handle":"ex.test"}}"#,
            recordTypes: .bluesky)
        guard case .identity(let value)? = identity.event?.kind else { return XCTFail("\(identity)") }
        XCTAssertEqual(value.handle?.rawValue, "ex.test")
        guard
            case .unknown = try JetstreamMessage.reading(
                v1: #"{"did":"did:plc:abc","time_us":6,"kind":"later","later":{}}"#, recordTypes: .bluesky)
        else { return XCTFail("an unknown kind is kept") }
    }

    func testMalformedEventsSayWhatIsWrong() {
        for (text, expected) in [
            ("[]", "not a JSON object"), (#"{"did":"did:plc:a","time_us":1}"#, "no string \"kind\""),
            (#"{"kind":"commit","time_us":1}"#, "\"did\""),
            (#"{"did":"did:plc:a","time_us":1,"kind":"commit"}"#, "no \"commit\""),
        ] {
            XCTAssertThrowsError(try JetstreamMessage.reading(v1: text, recordTypes: .bluesky)) { error in
                XCTAssertEqual((error as? JetstreamError)?.code, .malformedEvent)
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
