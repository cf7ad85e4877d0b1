import Foundation
import Testing

@testable import AtprotoData
@testable import XRPCCore

/// The value serialized, as text.
private func text(_ value: JSONValue, sortedKeys: Bool = true) -> String {
    String(decoding: value.serialized(sortedKeys: sortedKeys), as: UTF8.self)
}

/// The shared atproto data-model fixtures, `../shared/interop/data-model/` from the package root.
private let interopDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/interop/data-model").standardizedFileURL

/// The JSON files among the fixtures; empty when the directory is missing.
private let interopFiles: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: interopDirectory.path)) ?? [])
    .filter { $0.hasSuffix(".json") }.sorted()

@Suite("JSON serializer")
struct JSONSerializerTests {
    @Test("writes compact JSON with keys sorted by their UTF-8 bytes")
    func compactSorted() {
        let value: JSONValue = .object([
            "b": .array([.integer(1), .null, .bool(true), .bool(false)]),
            "a": .object(["z": .string("1"), "y": .object([:])]),
            "B": .array([]),
            "é": .integer(2),
            "aa": .integer(3),
            "😀": .integer(4),
            "\u{FFFF}": .integer(5),
        ])
        #expect(
            text(value) == #"{"B":[],"a":{"y":{},"z":"1"},"aa":3,"b":[1,null,true,false],"é":2,"\#u{FFFF}":5,"😀":4}"#)
    }

    @Test("writes every key when keys are not sorted")
    func unsorted() throws {
        let fields = Dictionary(uniqueKeysWithValues: (0..<50).map { ("key\($0)", JSONValue.integer($0)) })
        let written = JSONValue.object(fields).serialized(sortedKeys: false)
        #expect(try JSONValue.parse(written) == .object(fields))
    }

    @Test("escapes quotes, backslashes and control characters only")
    func escapes() {
        let value = JSONValue.string("q\" b\\ s/ \u{8}\u{C}\n\r\t \u{0}\u{1}\u{1F}\u{7F} é 😀 \u{2028}")
        #expect(text(value) == #""q\" b\\ s/ \b\f\n\r\t \u0000\u0001\u001f"# + "\u{7F} é 😀 \u{2028}\"")
        #expect(text(.object(["a\"b\n": .null])) == #"{"a\"b\n":null}"#)
        #expect(text(.string("")) == #""""#)
    }

    @Test("escapes a byte that needs it wherever it stands in a long string")
    func escapesAtEveryPosition() {
        // Strings are scanned eight bytes at a time: each byte to escape, at each position of the first
        // words and of the tail, among ASCII and non-ASCII (bytes with the high bit set) text.
        let specials: [(Unicode.Scalar, String)] =
            [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#)]
        for filler in ["abcdefgh", "é~ü!\u{7F} ", "😀 ]"] {
            let base = String(repeating: filler, count: 4)
            for position in 0..<base.unicodeScalars.count {
                for (special, escaped) in specials {
                    var scalars = Array(base.unicodeScalars)
                    scalars[position] = special
                    var string = ""
                    string.unicodeScalars.append(contentsOf: scalars)
                    let expected = string.unicodeScalars.map { $0 == special ? escaped : String($0) }.joined()
                    #expect(text(.string(string)) == "\"" + expected + "\"", "\(position) in \(filler)")
                }
            }
        }
    }

    @Test("writes integers in decimal")
    func integers() {
        #expect(
            text(.array([.integer(0), .integer(7), .integer(-7), .integer(10), .integer(1_234_567_890)]))
                == "[0,7,-7,10,1234567890]")
        #expect(text(.integer(Int.max)) == "9223372036854775807")
        #expect(text(.integer(Int.min)) == "-9223372036854775808")
    }

    @Test("writes doubles in their shortest form and non-finite doubles as null")
    func numbers() throws {
        #expect(text(.number(1.5)) == "1.5")
        #expect(text(.number(0.1)) == "0.1")
        #expect(text(.number(1)) == "1.0")
        #expect(text(.number(-0.0)) == "-0.0")
        #expect(text(.number(1e300)) == "1e+300")
        #expect(text(.number(.leastNonzeroMagnitude)) == "5e-324")
        #expect(text(.array([.number(.infinity), .number(-.infinity), .number(.nan)])) == "[null,null,null]")
        for number in [1.0, 0.1, 1e21, 1e-7, 123_456.789, -2.5e-300, .greatestFiniteMagnitude, 0x1p63] {
            #expect(try JSONValue.parse(JSONValue.number(number).serialized()) == .number(number))
        }
    }

    @Test("appends to an existing buffer and writes strings")
    func bufferAndString() {
        var buffer = Array("prefix:".utf8)
        JSONValue.array([.string("x")]).write(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix:["x"]"#)
        #expect(JSONValue.object(["b": .null, "a": .integer(1)]).serializedString() == #"{"a":1,"b":null}"#)
    }

    @Test("round-trips through parse")
    func roundTrip() throws {
        let value: JSONValue = .object([
            "text": .string("Hello 👋🏽 \"world\"\n\t\\ / \u{0}"),
            "counts": .array([.integer(0), .integer(-1), .integer(Int.max), .integer(Int.min)]),
            "ratio": .number(0.333_333_333_333_333_3),
            "nested": .object(["empty": .object([:]), "list": .array([.array([]), .null, .bool(false)])]),
        ])
        let written = value.serialized()
        #expect(try JSONValue.parse(written) == value)
        #expect(try JSONValue.parse(written).serialized() == written)
    }

    @Test("the Codable bridge reads each JSON kind as the matching case")
    func codableDecoding() throws {
        let json = #"[null, true, false, 1, -5, 9223372036854775807, 1.5, 2.5e-3, "s", [], {"a": {"b": [0]}}]"#
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(
            decoded
                == .array([
                    .null, .bool(true), .bool(false), .integer(1), .integer(-5), .integer(Int.max), .number(1.5),
                    .number(0.0025), .string("s"), .array([]), .object(["a": .object(["b": .array([.integer(0)])])]),
                ]))
        // Documented difference from `parse`: JSONDecoder does not say whether `1.0` had a fraction.
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("1.0".utf8)) == .integer(1))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("1e2".utf8)) == .integer(100))
        #expect(try JSONValue.parse("1.0") == .number(1))
    }

    @Test("the Codable bridge writes each case as the matching JSON kind")
    func codableEncoding() throws {
        struct Envelope: Codable, Equatable {
            var name: String
            var payload: JSONValue
        }
        let envelope = Envelope(
            name: "e",
            payload: .object([
                "list": .array([.null, .bool(true), .integer(-3), .number(2.5), .string("é😀")]),
                "empty": .object([:]),
            ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
        #expect(try JSONValue.parse(data) == .object(["name": .string("e"), "payload": envelope.payload]))
    }

    @Test(
        "data-model fixtures survive parse, serialize, parse and match JSONSerialization",
        .enabled(if: !interopFiles.isEmpty, "../shared/interop/data-model/ is missing beside the package root"),
        arguments: interopFiles)
    func interopFixture(_ file: String) throws {
        let data = try Data(contentsOf: interopDirectory.appendingPathComponent(file))
        let parsed = try JSONValue.parse(data)
        let written = parsed.serialized()
        let reparsed = try JSONValue.parse(written)
        #expect(reparsed == parsed, "changed in a round trip")
        #expect(reparsed.serialized() == written, "serializes differently after a round trip")
        let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        #expect(sameStructure(parsed, foundation), "differs from what JSONSerialization reads")
    }
}
