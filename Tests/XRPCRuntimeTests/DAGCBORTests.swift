import Foundation
import XCTest

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// The DAG-CBOR fixtures file, `../shared/interop/data-model/data-model-fixtures.json` beside the
/// package root.
private func fixtureCases() throws -> [(json: JSONValue, cbor: Data, cid: String)] {
    let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/data-model/data-model-fixtures.json").standardizedFileURL
    guard FileManager.default.fileExists(atPath: file.path) else {
        throw XCTSkip("DAG-CBOR fixtures not found at \(file.path); check out ../shared next to the package")
    }
    guard case .array(let entries) = try JSONValue.parse(try Data(contentsOf: file)) else {
        throw LexiconDecodingError(message: "data-model-fixtures.json is not an array")
    }
    return try entries.enumerated().map { index, entry in
        guard let json = entry.objectValue?["json"], let base64 = entry.objectValue?["cbor_base64"]?.stringValue,
            let cbor = AtprotoDataModel.decodeBase64(base64), let cid = entry.objectValue?["cid"]?.stringValue
        else { throw LexiconDecodingError(path: [String(index)], message: "fixture lacks json, cbor_base64 or cid") }
        return (json, cbor, cid)
    }
}

/// The error decoding `bytes` gives.
private func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
    -> AtprotoBinaryDecodingError?
{
    binaryError({ () throws(AtprotoBinaryDecodingError) in try DAGCBOR.decode(bytes) }, file: file, line: line)
}

/// The bytes of a CID link to `cid`: tag 42, a byte string of 0x00 and the CID.
private func linkBytes(_ cid: CID) -> [UInt8] {
    [0xD8, 0x2A, 0x58, UInt8(cid.bytes.count + 1), 0x00] + cid.bytes
}

final class DAGCBORFixtureTests: XCTestCase {
    func testFixturesDecodeToTheirJSON() throws {
        for (index, fixture) in try fixtureCases().enumerated() {
            let value = try DAGCBOR.decode(fixture.cbor)
            XCTAssertEqual(value.json, fixture.json, "fixture \(index)")
        }
    }

    func testFixturesEncodeToTheirBytesAndCID() throws {
        for (index, fixture) in try fixtureCases().enumerated() {
            let value = try AtprotoDataModelValue(json: fixture.json)
            XCTAssertEqual(DAGCBOR.encode(value), Array(fixture.cbor), "fixture \(index)")
            XCTAssertEqual(try DAGCBOR.encode(json: fixture.json), Array(fixture.cbor), "fixture \(index)")
            XCTAssertEqual(DAGCBOR.cid(of: value).string, fixture.cid, "fixture \(index)")
            XCTAssertEqual(CID(sha256Of: fixture.cbor).string, fixture.cid, "fixture \(index)")
        }
    }

    /// Decoding accepts only canonical DAG-CBOR, so whatever a damaged fixture still decodes to
    /// must encode back to exactly the damaged bytes; everything else is an error, never a crash.
    func testDamagedFixturesDecodeOnlyToCanonicalValues() throws {
        var accepted = 0
        var rejected = 0
        for fixture in try fixtureCases() {
            let original = Array(fixture.cbor)
            for position in original.indices {
                for damage: (UInt8) -> UInt8 in [
                    { $0 ^ 0x01 }, { $0 ^ 0x20 }, { $0 ^ 0x80 }, { _ in 0x00 }, { _ in 0xFF },
                ] {
                    var bytes = original
                    bytes[position] = damage(bytes[position])
                    do {
                        let value = try DAGCBOR.decode(bytes)
                        XCTAssertEqual(DAGCBOR.encode(value), bytes, "damaged at \(position)")
                        accepted += 1
                    } catch {
                        XCTAssertLessThanOrEqual(error.offset, bytes.count, "damaged at \(position)")
                        rejected += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(accepted, 0)
        XCTAssertGreaterThan(rejected, 0)
    }
}

final class DAGCBORTests: XCTestCase {
    func testIntegersUseTheirShortestFormAndRoundTrip() throws {
        let cases: [(Int, [UInt8])] = [
            (0, [0x00]), (23, [0x17]), (24, [0x18, 0x18]), (255, [0x18, 0xFF]), (256, [0x19, 0x01, 0x00]),
            (65_535, [0x19, 0xFF, 0xFF]), (65_536, [0x1A, 0x00, 0x01, 0x00, 0x00]),
            (4_294_967_295, [0x1A, 0xFF, 0xFF, 0xFF, 0xFF]), (4_294_967_296, [0x1B, 0, 0, 0, 1, 0, 0, 0, 0]),
            (Int.max, [0x1B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), (-1, [0x20]), (-24, [0x37]),
            (-25, [0x38, 0x18]), (-256, [0x38, 0xFF]), (-257, [0x39, 0x01, 0x00]),
            (Int.min, [0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ]
        for (number, bytes) in cases {
            XCTAssertEqual(DAGCBOR.encode(.integer(number)), bytes, "\(number)")
            XCTAssertEqual(try DAGCBOR.decode(bytes), .integer(number), "\(number)")
        }
    }

    func testEncodesMapKeysShorterFirstThenBytewise() {
        let value = AtprotoDataModelValue.map(["bb": .null, "a": .null, "b": .null, "aaa": .null, "B": .null])
        // B (0x42) < a < b, then bb, then aaa.
        XCTAssertEqual(
            DAGCBOR.encode(value),
            [
                0xA5, 0x61, 0x42, 0xF6, 0x61, 0x61, 0xF6, 0x61, 0x62, 0xF6, 0x62, 0x62, 0x62, 0xF6, 0x63, 0x61, 0x61,
                0x61, 0xF6,
            ])
        XCTAssertEqual(try DAGCBOR.decode(DAGCBOR.encode(value)), value)
    }

    func testRoundTripsEveryKind() throws {
        let cid = try CID("bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a")
        let value = AtprotoDataModelValue.map([
            "null": .null, "true": .bool(true), "false": .bool(false), "text": .string("héllo 😀"),
            "bytes": .bytes(Data([0, 1, 2, 255])), "empty": .bytes(Data()), "link": .link(cid),
            "list": .array([.integer(-3), .array([]), .map([:])]), "long": .string(String(repeating: "x", count: 300)),
        ])
        XCTAssertEqual(try DAGCBOR.decode(DAGCBOR.encode(value)), value)
        XCTAssertEqual(try AtprotoDataModelValue(json: value.json), value)
    }

    func testDecodesLinkBytes() throws {
        let cid = CID(sha256Of: [UInt8]("x".utf8))
        XCTAssertEqual(try DAGCBOR.decode(linkBytes(cid)), .link(cid))
        XCTAssertEqual(DAGCBOR.encode(.link(cid)), linkBytes(cid))
    }

    func testDecodePrefixReadsOneValueAndSaysWhereItEnds() throws {
        // {"op": 1, "t": "#commit"} followed by a body.
        let header = DAGCBOR.encode(.map(["op": .integer(1), "t": .string("#commit")]))
        let body = DAGCBOR.encode(.map(["seq": .integer(42)]))
        let frame = Data(header + body)
        let (value, count) = try DAGCBOR.decodePrefix(frame)
        XCTAssertEqual(value["t"], .string("#commit"))
        XCTAssertEqual(count, header.count)
        XCTAssertEqual(try DAGCBOR.decode(frame[(frame.startIndex + count)...])["seq"], .integer(42))
    }

    func testRejectsNonCanonicalAndForbiddenForms() {
        let cases: [(bytes: [UInt8], kind: AtprotoBinaryDecodingError.Code, offset: Int, note: String)] = [
            ([], .truncated, 0, "empty input"),
            ([0x18, 0x17], .nonCanonical, 0, "23 written in two bytes"),
            ([0x19, 0x00, 0xFF], .nonCanonical, 0, "255 written in three bytes"),
            ([0x82, 0x01, 0x1A, 0x00, 0x00, 0xFF, 0xFF], .nonCanonical, 2, "65535 written in five bytes"),
            ([0x1B, 0x80, 0, 0, 0, 0, 0, 0, 0], .integerOutOfRange, 0, "2^63"),
            ([0x3B, 0x80, 0, 0, 0, 0, 0, 0, 0], .integerOutOfRange, 0, "-2^63 - 1"),
            ([0x5F, 0x41, 0x00, 0xFF], .indefiniteLength, 0, "indefinite byte string"),
            ([0x7F, 0xFF], .indefiniteLength, 0, "indefinite text string"),
            ([0x81, 0x9F, 0xFF], .indefiniteLength, 1, "indefinite array"),
            ([0xBF, 0xFF], .indefiniteLength, 0, "indefinite map"),
            ([0xFF], .indefiniteLength, 0, "stray break"),
            ([0xF9, 0x3C, 0x00], .float, 0, "half float"),
            ([0xFA, 0x3F, 0x80, 0x00, 0x00], .float, 0, "single float"),
            ([0xFB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0], .float, 0, "double float"),
            ([0xF7], .unsupportedSimpleValue, 0, "undefined"),
            ([0xF0], .unsupportedSimpleValue, 0, "simple value 16"),
            ([0xF8, 0x20], .unsupportedSimpleValue, 0, "simple value 32"),
            ([0x1C], .malformed, 0, "reserved additional information 28"),
            ([0xC1, 0x01], .unsupportedTag, 0, "tag 1 (epoch time)"),
            ([0xD8, 0x2B, 0x40], .unsupportedTag, 0, "tag 43"),
            ([0xD8, 0x2A, 0x61, 0x61], .invalidCID, 2, "tag 42 on a text string"),
            ([0xD8, 0x2A, 0x42, 0x01, 0x01], .invalidCID, 3, "tag 42 without the 0x00 prefix"),
            ([0xD8, 0x2A, 0x40], .invalidCID, 3, "tag 42 on empty bytes"),
            ([0xA1, 0x01, 0x01], .nonStringMapKey, 1, "integer map key"),
            ([0xA1, 0x41, 0x61, 0x01], .nonStringMapKey, 1, "byte string map key"),
            ([0xA2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x01], .unsortedMapKeys, 4, "b before a"),
            ([0xA2, 0x62, 0x61, 0x61, 0x01, 0x61, 0x62, 0x01], .unsortedMapKeys, 5, "aa before b"),
            ([0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02], .duplicateMapKey, 4, "a twice"),
            ([0x62, 0xC3, 0x28], .invalidUTF8, 0, "invalid UTF-8 text"),
            ([0xA1, 0x61, 0xFF, 0x01], .invalidUTF8, 1, "invalid UTF-8 key"),
            ([0x63, 0xED, 0xA0, 0x80], .invalidUTF8, 0, "encoded surrogate"),
            ([0x01, 0x02], .trailingBytes, 1, "two values"),
            ([0x83, 0x01, 0x02], .truncated, 0, "array longer than the input"),
            ([0x82, 0x01, 0x19, 0x01], .truncated, 2, "array element cut short"),
            ([0x65, 0x61, 0x62], .truncated, 0, "text cut short"),
            ([0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated, 0, "huge array count"),
            ([0x19, 0x01], .truncated, 0, "header cut short"),
        ]
        for (bytes, kind, offset, note) in cases {
            let error = decodeError(bytes)
            XCTAssertEqual(error?.code, kind, note)
            XCTAssertEqual(error?.offset, offset, "\(note): \(error?.description ?? "")")
        }
    }

    func testRejectsCIDv0AndMalformedCIDsInLinks() {
        let v0 = [0x12, 0x20] + [UInt8](repeating: 7, count: 32)
        let error = decodeError([0xD8, 0x2A, 0x58, 35, 0x00] + v0)
        XCTAssertEqual(error?.code, .invalidCID)
        XCTAssertEqual(error?.offset, 5)
        // A CIDv1 whose SHA-256 digest is one byte short: the fault is in the CID, after the prefix.
        let short = decodeError(
            [0xD8, 0x2A, 0x58, 36, 0x00, 0x01, 0x71, 0x12, 0x20] + [UInt8](repeating: 7, count: 31))
        XCTAssertEqual(short?.code, .truncated)
        XCTAssertEqual(short?.offset, 7)
    }

    func testRejectsNestingDeeperThanTheLimit() {
        let deep = [UInt8](repeating: 0x81, count: DAGCBOR.maximumDepth + 1) + [0x00]
        let error = decodeError(deep)
        XCTAssertEqual(error?.code, .tooDeep)
        XCTAssertEqual(error?.offset, DAGCBOR.maximumDepth)
        let allowed = [UInt8](repeating: 0x81, count: DAGCBOR.maximumDepth) + [0x00]
        XCTAssertNoThrow(try DAGCBOR.decode(allowed))
    }

    func testJSONFormRejectsFloatsAndBadLinks() {
        XCTAssertThrowsError(try AtprotoDataModelValue(json: .number(1.5)))
        XCTAssertEqual(try AtprotoDataModelValue(json: .number(123.0)), .integer(123))
        XCTAssertThrowsError(try AtprotoDataModelValue(json: .object(["$link": .string("not a cid")])))
        XCTAssertThrowsError(try AtprotoDataModelValue(json: .object(["$bytes": .string("!!")])))
        // With a second key, "$link" is an ordinary field.
        XCTAssertEqual(
            try AtprotoDataModelValue(json: .object(["$link": .integer(1), "x": .null])),
            .map(["$link": .integer(1), "x": .null]))
    }
}
