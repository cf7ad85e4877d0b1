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
}
