import XCTest

@testable import LexGenSchema

/// The lexicon loader's JSON parser: objects and arrays with their offsets, and where and why a
/// malformed document fails.
final class LocatedJSONParserTests: XCTestCase {
    private func failure(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try LocatedJSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func testObjectsAndArraysKeepOrderAndOffsets() throws {
        let node = try LocatedJSONParser.parse(Array(#"{"a": [1, {"b": []}], "c": {}}"#.utf8))
        let fields = try XCTUnwrap(node.objectFields)
        XCTAssertEqual(fields.map(\.key), ["a", "c"])
        let items = try XCTUnwrap(fields[0].value.arrayItems)
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[1].offset, 10)
        XCTAssertEqual(items[1].objectFields?.first?.value.arrayItems?.count, 0)
        XCTAssertEqual(fields[1].value.objectFields?.count, 0)
        XCTAssertEqual(fields[1].value.offset, 27)
    }

    func testMalformedContainersSayWhatAndWhere() {
        let cases: [(String, String, Int)] = [
            ("[1 2]", "expected ',' or ']' in array", 3),
            (#"{"a": 1 "b": 2}"#, "expected ',' or '}' in object", 8),
            (#"{"a": 1, "a": 2}"#, #"duplicate key "a""#, 9),
            (#"{"a" 1}"#, "expected ':'", 5),
            ("{1: 2}", "expected a string key in object", 1),
            ("[1, 2", "unexpected end of file in array", 5),
            (#"{"a": 1"#, "unexpected end of file in object", 7),
        ]
        for (text, message, offset) in cases {
            let error = failure(text)
            XCTAssertEqual(error?.message, message, text)
            XCTAssertEqual(error?.offset, offset, text)
        }
    }

    func testNestingIsBounded() {
        XCTAssertNil(failure(String(repeating: "[", count: 256) + String(repeating: "]", count: 256)))
        XCTAssertEqual(
            failure(String(repeating: "[", count: 257) + String(repeating: "]", count: 257))?.message,
            "nesting deeper than 256 levels")
        XCTAssertEqual(
            failure(String(repeating: #"{"a":"#, count: 257) + "1" + String(repeating: "}", count: 257))?.message,
            "nesting deeper than 256 levels")
    }
}
