import Foundation
import Testing

@testable import AtprotoData
@testable import XRPCCore

/// Parses `text`, failing the test on an error.
private func parse(_ text: String) throws -> JSONValue {
    try JSONValue.parse(Data(text.utf8))
}

/// The error that parsing `bytes` throws, or `nil` when it parses.
private func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// One input the parser must reject, with where it must say the problem is.
struct Rejection: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var message: String
    var line: Int
    var column: Int

    init(_ name: String, _ text: String, _ message: String, line: Int = 1, column: Int) {
        self.init(name, bytes: Array(text.utf8), message, line: line, column: column)
    }

    init(_ name: String, bytes: [UInt8], _ message: String, line: Int = 1, column: Int) {
        self.name = name
        self.bytes = bytes
        self.message = message
        self.line = line
        self.column = column
    }

    var testDescription: String { name }
}

private let rejections: [Rejection] = [
    Rejection("empty input", "", "unexpected end of input", column: 1),
    Rejection("only whitespace", " \n ", "unexpected end of input", line: 2, column: 2),
    Rejection("trailing comma in array", "[1, 2,]", "trailing comma before ']'", column: 6),
    Rejection("trailing comma in object", "{\"a\": 1 , }", "trailing comma before '}'", column: 9),
    Rejection("line comment", "// hi\n1", "comments are not allowed", column: 1),
    Rejection("block comment in array", "[1, /* two */ 2]", "comments are not allowed", column: 5),
    Rejection("comment after value", "1 // one", "unexpected '/' after the JSON value", column: 3),
    Rejection("leading zero", "[01]", "leading zeros are not allowed", column: 2),
    Rejection("negative leading zero", "-00", "leading zeros are not allowed", column: 2),
    Rejection("plus sign", "+1", "unexpected '+'", column: 1),
    Rejection("bare minus", "-", "expected a digit after '-'", column: 2),
    Rejection("leading dot", ".5", "unexpected '.'", column: 1),
    Rejection("trailing dot", "1.", "expected a digit after the decimal point", column: 3),
    Rejection("empty exponent", "1e+", "expected a digit in the exponent", column: 4),
    Rejection("number out of range", "[1e400]", "out of range", column: 2),
    Rejection("NaN", "NaN", "unexpected 'N'", column: 1),
    Rejection("raw tab in string", "\"a\tb\"", "unescaped control character U+0009", column: 3),
    Rejection("raw newline in string", "[\"a\nb\"]", "unescaped control character U+000A", column: 4),
    Rejection("invalid escape", "\"ab\\x\"", "invalid escape sequence: '\\' followed by 'x'", column: 4),
    Rejection("short unicode escape", "\"\\u12G4\"", "expected four hexadecimal digits", column: 2),
    Rejection("lone high surrogate", "\"\\uD83D\"", "unpaired high surrogate", column: 2),
    Rejection("high surrogate then letter", "\"x\\uD83Dy\"", "unpaired high surrogate", column: 3),
    Rejection("high surrogate then non-low", "\"\\uD83D\\u0041\"", "unpaired high surrogate", column: 2),
    Rejection("lone low surrogate", "\"\\uDE00\"", "unpaired low surrogate", column: 2),
    Rejection("two high surrogates", "\"\\uD83D\\uD83D\"", "unpaired high surrogate", column: 2),
    Rejection("trailing garbage", "{} x", "unexpected 'x' after the JSON value", column: 4),
    Rejection("two values", "1 2", "unexpected '2' after the JSON value", column: 3),
    Rejection("single quotes", "['a']", "unexpected '''", column: 2),
    Rejection("unquoted key", "{a: 1}", "expected a string key", column: 2),
    Rejection("missing colon", "{\"a\" 1}", "expected ':'", column: 6),
    Rejection("missing comma", "[1 2]", "expected ',' or ']'", column: 4),
    Rejection("missing comma in object", "{\"a\": 1 \"b\": 2}", "expected ',' or '}'", column: 9),
    Rejection("unterminated array", "[1, 2", "unexpected end of input, expected ',' or ']'", column: 6),
    Rejection("unterminated string", "[\"abc", "unterminated string", column: 2),
    Rejection("misspelled literal", "[tru]", "expected 'true'", column: 2),
    Rejection("capitalised literal", "True", "unexpected 'T'", column: 1),
    Rejection("byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x31], "unexpected byte 0xEF", column: 1),
    Rejection("duplicate key", "{\"a\": 1, \"b\": 2, \"a\": 3}", "duplicate object key \"a\"", column: 18),
    Rejection(
        "duplicate key, nested",
        "{\n  \"x\": [{\"k\": 1,\n    \"k\": 2}]\n}", "duplicate object key \"k\"", line: 3, column: 5),
    Rejection(
        "error on a later line", "{\n  \"a\": 1,\n  \"b\": [1,]\n}", "trailing comma before ']'", line: 3, column: 10),
    Rejection("column counts characters", "[\"é😀\", x]", "unexpected 'x'", column: 8),
    Rejection("invalid UTF-8 byte", bytes: [0x22, 0x61, 0xFF, 0x22], "invalid UTF-8 byte 0xFF", column: 3),
    Rejection("UTF-8 continuation alone", bytes: [0x22, 0x80, 0x22], "invalid UTF-8 byte 0x80", column: 2),
    Rejection("overlong UTF-8", bytes: [0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xC0", column: 2),
    Rejection("overlong 3-byte UTF-8", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8 sequence", column: 2),
    Rejection("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 sequence", column: 2),
    Rejection(
        "UTF-8 above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 sequence", column: 2),
    Rejection("truncated UTF-8", bytes: [0x22, 0x61, 0xE2, 0x82, 0x22], "invalid UTF-8 sequence", column: 3),
    Rejection(
        "invalid UTF-8 in string with escapes", bytes: [0x22, 0x5C, 0x6E, 0xC3, 0x22], "invalid UTF-8 sequence",
        column: 4),
    Rejection(
        "invalid UTF-8 before an escape", bytes: [0x22, 0xC3, 0x5C, 0x6E, 0x22], "invalid UTF-8 sequence", column: 2),
    Rejection("non-ASCII outside a string", "[1, é]", "unexpected byte 0xC3", column: 5),
]

@Suite("JSON parser")
struct JSONParserTests {
    @Test("reads every kind of value")
    func readsEveryKind() throws {
        let value = try parse(#" { "a" : [ null , true , false , 0 , -12 , 1.5 , "s" , { } , [ ] ] } "#)
        let expected: JSONValue = .object([
            "a": .array([
                .null, .bool(true), .bool(false), .integer(0), .integer(-12), .number(1.5),
                .string("s"), .object([:]), .array([]),
            ])
        ])
        #expect(value == expected)
    }

    @Test("accepts scalars at the top level and all four whitespace characters")
    func topLevelScalarsAndWhitespace() throws {
        #expect(try parse("\t\r\n 42 \n") == .integer(42))
        #expect(try parse("\"x\"") == .string("x"))
        #expect(try parse("null") == .null)
        #expect(try parse("[\n\t1\r\n,\t2 ]") == .array([.integer(1), .integer(2)]))
    }

    @Test("keeps integer literals that fit in 64 bits as integers")
    func integers() throws {
        #expect(try parse("9223372036854775807") == .integer(Int.max))
        #expect(try parse("-9223372036854775808") == .integer(Int.min))
        #expect(try parse("123456789012345678") == .integer(123_456_789_012_345_678))
        #expect(try parse("-0") == .integer(0))
    }

    @Test("reads integer literals beyond 64 bits as numbers")
    func bigIntegers() throws {
        #expect(try parse("9223372036854775808") == .number(0x1p63))
        #expect(try parse("-9223372036854775809") == .number(-0x1p63))
        #expect(try parse("18446744073709551616") == .number(0x1p64))
        #expect(try parse("100000000000000000000000000000") == .number(1e29))
    }

    @Test("reads numbers with a fraction or exponent as doubles")
    func fractionsAndExponents() throws {
        #expect(try parse("1.0") == .number(1))
        #expect(try parse("-0.5") == .number(-0.5))
        #expect(try parse("1e3") == .number(1000))
        #expect(try parse("1E+2") == .number(100))
        #expect(try parse("25e-1") == .number(2.5))
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("5e-324") == .number(.leastNonzeroMagnitude))
        #expect(try parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    }

    @Test("decodes every escape sequence")
    func escapes() throws {
        let value = try parse(#""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u4e2D \u0000""#)
        #expect(value == .string("q\" b\\ s/ \u{8}\u{C}\n\r\t Aé中 \u{0}"))
    }

    @Test("reads raw and escaped Unicode, including surrogate pairs")
    func unicode() throws {
        #expect(try parse("\"a~öñ©⽘☎𓋓😀👨‍👩‍👧‍👧\"") == .string("a~öñ©⽘☎𓋓😀👨‍👩‍👧‍👧"))
        #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try parse(#""x\ud83d\ude00y é""#) == .string("x😀y é"))
        #expect(try parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(try parse("{\"ключ\": \"значение\"}") == .object(["ключ": .string("значение")]))
    }

    @Test("finds quotes, escapes, control characters and non-ASCII at every offset of a long string")
    func longStringScanning() throws {
        let filler = String(repeating: "abcdefgh", count: 3)
        for offset in 0...filler.count {
            let prefix = String(filler.prefix(offset))
            let suffix = String(filler.dropFirst(offset))
            #expect(try parse("\"\(prefix)\"") == .string(prefix))
            #expect(try parse("\"\(prefix)\\n\(suffix)\"") == .string(prefix + "\n" + suffix))
            #expect(try parse("\"\(prefix)é\(suffix)\"") == .string(prefix + "é" + suffix))
            #expect(try parse("[\"\(prefix)\", \"\(suffix)\"]") == .array([.string(prefix), .string(suffix)]))
            let control = try #require(parseError(Array("\"\(prefix)\u{1}\(suffix)\"".utf8)))
            #expect(control.column == offset + 2)
            let invalid = try #require(parseError([0x22] + Array(prefix.utf8) + [0xFF] + Array(suffix.utf8) + [0x22]))
            #expect(invalid.column == offset + 2)
        }
    }

    @Test("rejects invalid JSON, saying where", arguments: rejections)
    func rejects(_ rejection: Rejection) throws {
        let error = try #require(parseError(rejection.bytes))
        #expect(error.message.contains(rejection.message), "message was: \(error.message)")
        #expect(error.line == rejection.line)
        #expect(error.column == rejection.column)
    }

    @Test("reports the byte offset and describes the position")
    func errorDescription() throws {
        let error = try #require(parseError(Array("{\n  \"a\": tru\n}".utf8)))
        #expect(error.offset == 9)
        #expect(error.line == 2)
        #expect(error.column == 8)
        #expect(error.description == "line 2, column 8: invalid literal, expected 'true'")
    }

    @Test("accepts nesting up to the depth limit and rejects deeper nesting")
    func depthLimit() throws {
        let limit = JSONValue.maximumParseDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        var value = try parse(deepest)
        for _ in 1..<limit {
            guard case .array(let elements) = value, let first = elements.first else {
                Issue.record("expected nested arrays")
                return
            }
            value = first
        }
        #expect(value == .array([]))

        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = try #require(parseError(Array(tooDeep.utf8)))
        #expect(error.message == "nesting is deeper than \(limit) levels")
        #expect(error.column == limit + 1)
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(parseError(Array(objects.utf8))?.message == "nesting is deeper than \(limit) levels")
    }

    @Test("parses from bytes, strings and non-contiguous collections alike")
    func inputForms() throws {
        let text = #"{"k": ["v", 1, 2.5]}"#
        let expected = try parse(text)
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
        #expect(try JSONValue.parse(text) == expected)
        #expect(try JSONValue.parse(text.utf8.lazy.map { $0 }) == expected)
        #expect(try JSONValue.parse(Data(text.utf8)[...]) == expected)
    }

    @Test("parses large documents with many and long values")
    func largeDocument() throws {
        let long = String(repeating: "abcdefgh é ", count: 100)
        let items = (0..<5000).map { #"{"id": \#($0), "name": "item \#($0)", "text": "\#(long)\n", "ok": true}"# }
        let text = "[" + items.joined(separator: ",") + "]"
        guard case .array(let elements) = try parse(text) else {
            Issue.record("expected an array")
            return
        }
        #expect(elements.count == 5000)
        #expect(
            elements[4321]
                == .object([
                    "id": .integer(4321), "name": .string("item 4321"),
                    "text": .string(long + "\n"), "ok": .bool(true),
                ]))
    }

    @Test("agrees with JSONSerialization on valid input")
    func agreesWithJSONSerialization() throws {
        let text = #"{"a": [1, -2, 3.25, "x\u00e9", null, false, {"b": {}}], "c": "😀", "d": 1e2}"#
        let ours = try parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(sameStructure(ours, theirs))
    }
}

/// Whether a parsed value has the same structure and contents as what `JSONSerialization` read.
func sameStructure(_ value: JSONValue, _ foundation: Any) -> Bool {
    switch value {
    case .null: return foundation is NSNull
    case .bool(let bool): return (foundation as? NSNumber)?.boolValue == bool
    case .integer(let integer): return (foundation as? NSNumber)?.int64Value == Int64(integer)
    case .number(let number): return (foundation as? NSNumber)?.doubleValue == number
    case .string(let string): return (foundation as? String) == string
    case .array(let elements):
        guard let others = foundation as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy { sameStructure($0, $1) }
    case .object(let fields):
        guard let others = foundation as? [String: Any], others.count == fields.count else { return false }
        return fields.allSatisfy { key, field in others[key].map { sameStructure(field, $0) } ?? false }
    }
}
