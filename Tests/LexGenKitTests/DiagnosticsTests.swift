import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// Broken lexicons give compiler-style diagnostics with file, line, column and JSON path; never a crash.
final class DiagnosticsTests: XCTestCase {
    func testBrokenJSONReportsLineAndColumn() {
        let result = LexiconGenerator.generate([source("{\n  \"lexicon\": 1,\n  \"id\": ,\n}", path: "bad.json")])
        XCTAssertEqual(result.diagnostics.errorCount, 1)
        XCTAssertEqual(
            result.diagnostics.all.first?.description, "bad.json:3:9: error: invalid JSON: unexpected character ','")
        XCTAssertTrue(result.files.isEmpty, "nothing is generated when there are errors")
    }

    func testUnresolvedRefNamesTheJSONPath() {
        let json = """
            {"lexicon": 1, "id": "app.example.feed.post", "defs": {"main": {"type": "record", "key": "tid",
              "record": {"type": "object", "properties": {
                "embed": {"type": "ref", "ref": "app.example.embed.missing"}}}}}}
            """
        let result = LexiconGenerator.generate([source(json, path: "post.json")])
        XCTAssertEqual(
            result.diagnostics.all.map(\.description),
            [
                "post.json:3:14: error: unresolved ref \"app.example.embed.missing\": no lexicon with id "
                    + "app.example.embed.missing was loaded [app.example.feed.post#main/record/properties/embed]"
            ]
        )
    }

    func testEveryProblemOfARunIsReported() {
        let result = generate([
            ##"{"lexicon": 1, "id": "com.example.a", "defs": {"x": {"type": "wat"}, "y": {"type": "ref", "ref": "#x"}}}"##,
            ##"{"lexicon": 2, "id": "com.example.b", "defs": {"main": {"type": "object", "properties": {"p": {"type": "union", "refs": ["#nope"]}}}}}"##,
            "[1, 2",
        ])
        let messages = result.diagnostics.all.map(\.message)
        XCTAssertTrue(messages.contains("unknown type \"wat\""), "\(messages)")
        XCTAssertTrue(messages.contains("type \"ref\" is not allowed as a named def other than main"), "\(messages)")
        XCTAssertTrue(messages.contains("\"lexicon\" must be the integer 1"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("unresolved ref \"com.example.b#nope\"") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("invalid JSON") }, "\(messages)")
    }

    func testDuplicateIDsAcrossFilesAreAnError() {
        let json = #"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "token"}}}"#
        let result = LexiconGenerator.generate([source(json, path: "one.json"), source(json, path: "two.json")])
        XCTAssertEqual(result.diagnostics.errorCount, 1)
        XCTAssertTrue(result.diagnostics.all[0].message.contains("defined twice (also in one.json)"))
    }

    func testWrongKindsOfFieldsAreReportedNotCrashed() {
        let result = generate([
            #"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "object", "required": "x", "properties": {"x": {"type": "string", "maxLength": "ten"}}}}}"#
        ])
        let messages = result.diagnostics.all.map(\.message)
        XCTAssertTrue(messages.contains("\"required\" must be an array of strings, found string"), "\(messages)")
        XCTAssertTrue(messages.contains("\"maxLength\" must be an integer, found string"), "\(messages)")
    }

    func testFilesAreKeyedByIDNotPathAndExtraTopLevelKeysAreTolerated() {
        let result = LexiconGenerator.generate([
            source(
                #"{"$schema": "x", "lexicon": 1, "id": "com.example.b", "defs": {"main": {"type": "object", "properties": {"a": {"type": "ref", "ref": "com.example.a#thing"}}}}}"#,
                path: "somewhere/else.json"
            ),
            source(
                #"{"lexicon": 1, "id": "com.example.a", "revision": 3, "defs": {"thing": {"type": "object", "properties": {}}}}"#,
                path: "misplaced/name.json"
            ),
        ])
        XCTAssertEqual(result.diagnostics.all.map(\.description), [])
        XCTAssertEqual(
            result.files.map(\.name), ["somewhere.else.swift", "misplaced.name.swift", "_ClientNamespaces.swift"])
        XCTAssertTrue(result.files[0].contents.contains("public var a: ComExampleA.Thing?"))
    }

    func testNSIDsWithTheSameSwiftNameAreRenamedWithAWarning() {
        let result = generate([
            #"{"lexicon": 1, "id": "com.ex-ample.thing", "defs": {"main": {"type": "token"}}}"#,
            #"{"lexicon": 1, "id": "com.exAmple.thing", "defs": {"main": {"type": "token"}}}"#,
        ])
        XCTAssertFalse(result.diagnostics.hasErrors)
        XCTAssertEqual(result.diagnostics.warningCount, 1)
        XCTAssertTrue(result.diagnostics.all[0].message.contains("generated as ComExAmpleThingValue"))
        let declarations = result.files.map(\.contents).joined()
        XCTAssertTrue(declarations.contains("public nonisolated enum ComExAmpleThing: XRPCCore.LexiconToken"))
        XCTAssertTrue(declarations.contains("public nonisolated enum ComExAmpleThingValue: XRPCCore.LexiconToken"))
    }
}
