import Foundation
import InteropRecordLexicon
import XCTest

/// The interop record data (`../shared/interop/lexicon/record-data-*.json`) run through the type the
/// plugin generated from the interop record lexicon (`example.lexicon.record`).
final class InteropRecordDataTests: XCTestCase {
    struct Case {
        var name: String
        var data: JSONValue
    }

    static func cases(_ file: String) throws -> [Case] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../shared/interop/lexicon/\(file)")
            .standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XCTSkip("interop record data not found at \(url.path); check out ../shared next to the package")
        }
        guard case .array(let items) = try JSONValue.parse(data) else {
            throw XCTSkip("\(url.path) is not a JSON array")
        }
        return items.compactMap { item in
            guard let name = item.objectValue?["name"]?.stringValue, let data = item.objectValue?["data"] else {
                return nil
            }
            return Case(name: name, data: data)
        }
    }

    func testEveryValidRecordDecodesValidatesAndWritesBackUnchanged() throws {
        let cases = try Self.cases("record-data-valid.json")
        XCTAssertFalse(cases.isEmpty)
        for testCase in cases {
            let record = try ExampleLexiconRecord(lexiconJSON: testCase.data)
            XCTAssertEqual(record.lexiconJSON, testCase.data, "\(testCase.name): written back differently")
            XCTAssertEqual(record.lexiconViolations, [], "\(testCase.name): valid data reported invalid")
            XCTAssertNoThrow(try ExampleLexiconRecord.validate(json: testCase.data), testCase.name)
        }
    }

    func testEveryInvalidRecordFailsForTheReasonItsNameGives() throws {
        let cases = try Self.cases("record-data-invalid.json")
        XCTAssertEqual(cases.count, 50)
        for testCase in cases {
            let expected = Self.expectedRules(for: testCase.name)
            let field = Self.fieldUnderTest(testCase.data)
            let violations: [LexiconViolation]
            do {
                try ExampleLexiconRecord.validate(json: testCase.data)
                XCTFail("\(testCase.name): accepted")
                continue
            } catch {
                violations = error.violations
            }
            let match = violations.first { expected.contains($0.rule) && $0.path.hasPrefix("$.\(field)") }
            XCTAssertNotNil(
                match,
                "\(testCase.name): expected \(expected.map(\.rawValue)) at $.\(field), got \(violations)"
            )
            // Where the data still decodes into the generated type, the value's own check agrees.
            if let record = try? ExampleLexiconRecord(lexiconJSON: testCase.data) {
                XCTAssertTrue(
                    record.lexiconViolations.contains { expected.contains($0.rule) },
                    "\(testCase.name): the decoded value validates differently: \(record.lexiconViolations)"
                )
            }
        }
    }

    /// The field a case is about: the one it sets besides `$type` and the required `integer`.
    static func fieldUnderTest(_ data: JSONValue) -> String {
        let keys = (data.objectValue ?? [:]).keys.filter { $0 != "$type" && $0 != "integer" }
        return keys.sorted().first ?? "integer"
    }

    /// The rules a case's name says it breaks.
    static func expectedRules(for name: String) -> Set<LexiconRule> {
        let table: [(String, Set<LexiconRule>)] = [
            ("missing required", [.required]),
            ("non-nullable", [.nullable]),
            ("string format", [.format]),
            ("const", [.const]),
            ("enum", [.enum]),
            ("integer range", [.minimum, .maximum]),
            ("too short (graphemes)", [.minGraphemes]),
            ("too long (graphemes)", [.maxGraphemes]),
            ("too short", [.minLength]),
            ("too long", [.maxLength]),
            ("too large", [.maxSize]),
            ("blob wrong type", [.accept]),
            ("missing $type", [.unionType]),
            ("out of closed union", [.closedUnion]),
            ("union inner invalid", [.type, .closedUnion]),
        ]
        return table.first { name.contains($0.0) }?.1 ?? [.type]
    }

    func testAFutureVersionOfTheRecordKeepsItsNewFieldsAndMembers() throws {
        let json = try JSONValue.parse(
            Data(
                """
                {"$type": "example.lexicon.record", "integer": 3, "addedLater": {"deep": [1, {"x": "y"}]},
                 "union": {"$type": "example.lexicon.future#thing", "payload": {"$bytes": "aGVsbG8"}},
                 "object": {"a": 1, "c": "new field inside an inline object"},
                 "formats": {"did": "did:plc:abc", "handle": "NOT A HANDLE"}}
                """.utf8))
        let record = try ExampleLexiconRecord(lexiconJSON: json)
        XCTAssertEqual(record.lexiconJSON, json)
        // Decoding kept the malformed handle (a response never fails on a format); validation names it.
        XCTAssertEqual(record.lexiconViolations.map(\.path), ["$.formats.handle"])
        XCTAssertEqual(record.lexiconViolations.map(\.rule), [.format])
    }
}

/// Lexicon defaults in the generated API.
final class LexiconDefaultTests: XCTestCase {
    func testAnAbsentDefaultedFieldReadsAsTheDefaultAndIsLeftOutWhenWrittenBack() throws {
        let json = try JSONValue.parse(Data(#"{"$type": "example.lexicon.record", "integer": 1}"#.utf8))
        var record = try ExampleLexiconRecord(lexiconJSON: json)
        XCTAssertEqual(record.defaultInteger, 42)
        XCTAssertEqual(record.lexiconJSON, json, "reading a default does not add it to the data")
        record.defaultInteger = 7
        XCTAssertEqual(record.lexiconJSON.objectValue?["defaultInteger"], .integer(7))
    }

    func testAPresentDefaultValueAndANewValueAreWritten() throws {
        let json = try JSONValue.parse(
            Data(#"{"$type": "example.lexicon.record", "integer": 1, "defaultInteger": 42}"#.utf8))
        XCTAssertEqual(try ExampleLexiconRecord(lexiconJSON: json).lexiconJSON, json)
        let fresh = ExampleLexiconRecord(integer: 1)
        XCTAssertEqual(fresh.defaultInteger, 42, "the initializer defaults to the lexicon default")
        XCTAssertEqual(fresh.lexiconJSON.objectValue?["defaultInteger"], .integer(42))
    }
}
