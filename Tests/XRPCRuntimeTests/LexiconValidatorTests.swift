import Foundation
import XCTest

@testable import AtprotoData
@testable import LexiconValidation
@testable import XRPCCore

/// The schema-driven validator on small catalogs written here.
final class LexiconValidatorTests: XCTestCase {
    private let catalog = LexiconSchemaCatalog(documentTexts: [
        #"""
        {"lexicon": 1, "id": "com.example.thing", "defs": {
          "main": {"type": "object", "required": ["name", "maybe"], "nullable": ["maybe", "note"], "properties": {
            "name": {"type": "ref", "ref": "#shortName"},
            "maybe": {"type": "string"},
            "note": {"type": "string"},
            "color": {"type": "ref", "ref": "com.example.defs#color"},
            "mood": {"type": "string", "knownValues": ["happy", "sad"]},
            "count": {"type": "integer", "minimum": 1},
            "picture": {"type": "blob", "accept": ["image/*"], "maxSize": 100},
            "extra": {"type": "union", "refs": ["com.example.defs"]},
            "missing": {"type": "ref", "ref": "com.example.nowhere#thing"}}},
          "shortName": {"type": "string", "maxLength": 5}}}
        """#,
        #"""
        {"lexicon": 1, "id": "com.example.defs", "defs": {
          "main": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer"}}},
          "color": {"type": "string", "enum": ["red", "blue"]}}}
        """#,
    ])

    private func violations(_ json: String, _ definition: String = "com.example.thing") throws -> [String] {
        let value = try JSONValue.parse(Data(json.utf8))
        return LexiconValidator(catalog: catalog).violations(of: value, against: definition)
            .map { "\($0.path) \($0.rule.rawValue)" }
    }

    func testRefsResolveLocallyAcrossDocumentsAndToStringDefs() throws {
        XCTAssertEqual(try violations(#"{"name": "abc", "maybe": null, "color": "red"}"#), [])
        XCTAssertEqual(
            try violations(#"{"name": "abcdefg", "maybe": null, "color": "green"}"#),
            ["$.color enum", "$.name maxLength"]
        )
    }

    func testRequiredNullableAndAbsentAreThreeDifferentThings() throws {
        XCTAssertEqual(try violations(#"{"name": "a"}"#), ["$.maybe required"])
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": null, "note": null}"#), [])
        XCTAssertEqual(try violations(#"{"name": null, "maybe": "x"}"#), ["$.name nullable"])
    }

    func testKnownValuesAreOpenAndIntegersMayBeWrittenWithAZeroFraction() throws {
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "mood": "bored", "count": 2.0}"#), [])
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "count": 1.5}"#), ["$.count type"])
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "count": 0}"#), ["$.count minimum"])
    }

    func testBlobsInBothFormsAreCheckedForTypeAndSize() throws {
        let link = #"{"$link": "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"}"#
        let current = #"{"$type": "blob", "ref": \#(link), "mimeType": "IMAGE/PNG", "size": 101}"#
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "picture": \#(current)}"#), ["$.picture maxSize"])
        let legacy =
            #"{"cid": "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy", "mimeType": "text/plain"}"#
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "picture": \#(legacy)}"#), ["$.picture accept"])
        let noRef = #"{"$type": "blob", "mimeType": "image/png", "size": 1}"#
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "picture": \#(noRef)}"#), ["$.picture type"])
    }

    func testOpenUnionsCheckListedMembersAndKeepOthersWithinTheDataModel() throws {
        XCTAssertEqual(
            try violations(#"{"name": "a", "maybe": "", "extra": {"$type": "com.example.defs#main", "x": 1}}"#), [])
        XCTAssertEqual(
            try violations(#"{"name": "a", "maybe": "", "extra": {"$type": "com.example.defs"}}"#),
            ["$.extra.x required"])
        XCTAssertEqual(try violations(#"{"name": "a", "maybe": "", "extra": {"$type": "com.other", "y": 1}}"#), [])
        XCTAssertEqual(
            try violations(#"{"name": "a", "maybe": "", "extra": {"$type": "com.other", "y": 1.5}}"#),
            ["$.extra dataModel"])
    }

    func testEveryViolationIsReportedAndAMissingDefinitionIsNamed() throws {
        XCTAssertEqual(
            try violations(#"{"name": 5, "count": "x", "missing": {}}"#),
            ["$.count type", "$.maybe required", "$.missing unresolvedReference", "$.name type"]
        )
        XCTAssertEqual(try violations("{}", "com.example.nothing#main"), ["$ unresolvedReference"])
        XCTAssertEqual(try violations(#""red""#, "com.example.defs#color"), [])
        XCTAssertEqual(try violations("3", "com.example.thing#main/properties/count"), [])
        XCTAssertEqual(try violations("0", "com.example.thing#main/properties/count"), ["$ minimum"])
    }

    func testCatalogsSearchTheirImportsAndReportUnreadableDocuments() throws {
        let child = LexiconSchemaCatalog(
            documentTexts: [
                #"{"lexicon": 1, "id": "com.example.child", "defs": {"main": {"type": "ref", "ref": "com.example.defs#color"}}}"#,
                "not json",
            ],
            imports: [catalog]
        )
        let validator = LexiconValidator(catalog: child)
        XCTAssertEqual(validator.violations(of: .string("red"), against: "com.example.child"), [])
        XCTAssertEqual(validator.violations(of: .string("pink"), against: "com.example.child").map(\.rule), [.enum])
        XCTAssertEqual(child.nsids, ["com.example.child"])
        XCTAssertEqual(child.problems.count, 1)
        XCTAssertTrue(child.problems[0].hasPrefix("document 1: not JSON"), child.problems[0])
    }

    func testMIMEPatternsMatchWildcardsWithoutRegardToCase() {
        XCTAssertTrue(ValidationWalk.mimeType("image/png", matches: "image/*"))
        XCTAssertTrue(ValidationWalk.mimeType("Video/MP4", matches: "video/mp4"))
        XCTAssertTrue(ValidationWalk.mimeType("text/plain", matches: "*/*"))
        XCTAssertFalse(ValidationWalk.mimeType("imagery/png", matches: "image/*"))
    }
}
