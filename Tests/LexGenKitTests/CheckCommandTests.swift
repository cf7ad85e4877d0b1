import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// `lexgen lint` and `lexgen breaking`.
final class CheckCommandTests: XCTestCase {
    private func documents(_ texts: [String]) -> [LexiconDocument] {
        var log = DiagnosticLog()
        let loaded = texts.enumerated().compactMap {
            LexiconLoader.load(path: "v\($0.offset).json", bytes: Array($0.element.utf8), log: &log)
        }
        XCTAssertEqual(log.all.map(\.description), [])
        return loaded
    }

    private func breaking(_ old: String, _ new: String) -> [String] {
        BreakingChanges.find(old: documents([old]), new: documents([new])).map(\.message)
    }

    private func object(_ properties: String, required: String = "[]", extra: String = "") -> String {
        #"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "object", "required": \#(required), "properties": {\#(properties)}}\#(extra)}}"#
    }

    func testLintReportsKnownValuesNamingMissingDefsAndNamesDifferingOnlyInCase() {
        let log = LexiconLinter.lint([
            source(
                ##"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "object", "properties": {"mood": {"type": "string", "knownValues": ["#happy", "#sad", "com.example.b#x", "plain"]}, "Mood": {"type": "integer"}}}, "happy": {"type": "token"}, "Happy": {"type": "token"}}}"##,
                path: "a.json"),
            source(
                ##"{"lexicon": 1, "id": "com.example.B", "defs": {"main": {"type": "object", "properties": {"r": {"type": "ref", "ref": "#nowhere"}}}}}"##,
                path: "b.json"),
            source(#"{"lexicon": 1, "id": "com.example.b", "defs": {"main": {"type": "token"}}}"#, path: "c.json"),
        ])
        let messages = log.all.map(\.message)
        XCTAssertEqual(log.errorCount, 1, messages.joined(separator: "\n"))
        XCTAssertTrue(messages.contains { $0.hasPrefix("unresolved ref \"com.example.B#nowhere\"") }, "\(messages)")
        XCTAssertTrue(messages.contains("\"#sad\" looks like a ref to com.example.a#sad, which does not exist"))
        XCTAssertTrue(messages.contains("knownValues entry \"com.example.b#x\" names a def that does not exist"))
        XCTAssertFalse(messages.contains { $0.contains("\"#happy\"") })
        XCTAssertTrue(messages.contains("properties \"mood\" and \"Mood\" differ only in case"))
        XCTAssertTrue(messages.contains("defs \"happy\" and \"Happy\" differ only in case"))
        XCTAssertTrue(messages.contains("lexicons com.example.B and com.example.b differ only in case"))
    }

    func testNoChangeIsNotBreakingAndAddingOptionalThingsIsNot() {
        let old = object(#""x": {"type": "string", "maxLength": 10}"#)
        XCTAssertEqual(breaking(old, old), [])
        let widened = object(#""x": {"type": "string", "maxLength": 20}, "y": {"type": "integer"}"#)
        XCTAssertEqual(breaking(old, widened), [])
    }

    func testFieldsRemovedMadeRequiredOrNoLongerNullable() {
        let old = object(#""x": {"type": "string"}, "y": {"type": "string"}"#, extra: "")
            .replacingOccurrences(of: #""required": []"#, with: #""required": [], "nullable": ["y"]"#)
        let new = object(#""y": {"type": "string"}"#, required: #"["y"]"#)
        XCTAssertEqual(
            breaking(old, new),
            [
                "breaking: field \"x\" was removed", "breaking: field \"y\" was made required",
                "breaking: field \"y\" is no longer nullable",
            ])
    }

    func testTypesUnionsAndStringSetsThatChange() {
        let old = object(
            ##""x": {"type": "string", "knownValues": ["a"]}, "y": {"type": "integer"}, "u": {"type": "union", "refs": ["#b", "#c"]}"##,
            extra: #", "b": {"type": "object", "properties": {}}, "c": {"type": "object", "properties": {}}"#)
        let new = object(
            ##""x": {"type": "string", "enum": ["a"]}, "y": {"type": "string"}, "u": {"type": "union", "refs": ["#b"], "closed": true}"##,
            extra: #", "b": {"type": "object", "properties": {}}, "c": {"type": "object", "properties": {}}"#)
        XCTAssertEqual(
            breaking(old, new),
            [
                "breaking: knownValues became a closed enum (a)", "breaking: type changed from integer to string",
                "breaking: the union was closed", "breaking: union member com.example.a#c was removed",
            ])
    }

    func testConstraintsTightened() {
        let old = object(
            #""s": {"type": "string", "maxLength": 10, "minGraphemes": 1}, "i": {"type": "integer", "minimum": 0, "enum": [1, 2]}, "a": {"type": "array", "items": {"type": "integer"}}, "b": {"type": "blob", "accept": ["image/*"]}"#
        )
        let new = object(
            #""s": {"type": "string", "maxLength": 5, "minGraphemes": 2, "format": "did"}, "i": {"type": "integer", "minimum": 1, "enum": [1]}, "a": {"type": "array", "items": {"type": "integer"}, "maxLength": 3}, "b": {"type": "blob", "accept": ["image/png"], "maxSize": 10}"#
        )
        XCTAssertEqual(
            Set(breaking(old, new)),
            [
                "breaking: maxLength tightened from 10 to 5", "breaking: minGraphemes tightened from 1 to 2",
                "breaking: format changed from none to did", "breaking: minimum tightened from 0 to 1",
                "breaking: allowed value \"2\" was removed", "breaking: maxLength 3 was added",
                "breaking: maxSize 10 was added", "breaking: accept narrowed from [\"image/*\"] to [\"image/png\"]",
            ])
    }

    func testRemovedLexiconsDefsAndEndpointBodies() {
        let old = documents([
            #"{"lexicon": 1, "id": "com.example.q", "defs": {"main": {"type": "procedure", "input": {"encoding": "application/json"}, "output": {"encoding": "application/json"}}, "extra": {"type": "token"}}}"#,
            #"{"lexicon": 1, "id": "com.example.gone", "defs": {"main": {"type": "token"}}}"#,
        ])
        let new = documents([
            #"{"lexicon": 1, "id": "com.example.q", "defs": {"main": {"type": "procedure", "input": {"encoding": "*/*"}}}}"#
        ])
        XCTAssertEqual(
            BreakingChanges.find(old: old, new: new).map(\.message),
            [
                "breaking: lexicon com.example.gone was removed",
                "breaking: input encoding changed from application/json to */*",
                "breaking: the output was removed", "breaking: def com.example.q#extra was removed",
            ])
    }
}
