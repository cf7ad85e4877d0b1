import AtprotoLexiconResolution
import Foundation
import LexGenSchema
import XCTest
import XRPCRuntime

/// The parts of lexicon resolution that need no network: authorities, and the installed file's form.
final class LexiconResolutionTests: XCTestCase {
    func testTheAuthorityIsTheReversedNSIDWithoutItsName() throws {
        XCTAssertEqual(try LexiconAuthority(of: "app.bsky.feed.post").domain, "feed.bsky.app")
        XCTAssertEqual(try LexiconAuthority(of: "app.bsky.feed.post").dnsName, "_lexicon.feed.bsky.app")
        XCTAssertEqual(try LexiconAuthority(of: "Com.Example.Thing.getIt").domain, "thing.example.com")
        XCTAssertEqual(try LexiconAuthority(of: "app.bsky.feed.*").domain, "feed.bsky.app")
        XCTAssertEqual(try LexiconAuthority(of: "app.bsky.*").domain, "bsky.app")
        for bad in ["app.bsky", "not an nsid", "app..bsky.post", "*"] {
            XCTAssertThrowsError(try LexiconAuthority(of: bad), bad) { error in
                XCTAssertEqual((error as? LexiconResolutionError)?.code, .invalidNSID)
            }
        }
    }

    func testTheFileFormIsStableAndReadable() throws {
        let document = try JSONValue.parse(
            #"{"defs":{"main":{"record":{"type":"object","properties":{}},"type":"record","key":"tid"}},"id":"com.example.a","lexicon":1,"description":"é \"q\""}"#
        )
        let lexicon = ResolvedLexicon(
            nsid: "com.example.a", uri: ATURI(rawValue: "at://did:plc:x/com.atproto.lexicon.schema/com.example.a"),
            cid: CID(sha256Of: Data([1])), document: document, provedAtRevision: "3k")
        let text = String(decoding: lexicon.fileData, as: UTF8.self)
        XCTAssertEqual(
            text,
            """
            {
              "lexicon": 1,
              "id": "com.example.a",
              "description": "é \\"q\\"",
              "defs": {
                "main": {
                  "type": "record",
                  "key": "tid",
                  "record": {
                    "type": "object",
                    "properties": {}
                  }
                }
              }
            }

            """)
        XCTAssertEqual(try JSONValue.parse(lexicon.fileData), document, "the file reads back as the record")
        XCTAssertTrue(lexicon.isVerified)
    }
}
