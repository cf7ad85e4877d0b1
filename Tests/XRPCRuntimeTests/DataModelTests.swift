import Foundation
import XCTest

@testable import AtprotoData
@testable import AtprotoSyntax
@testable import XRPCCore

/// A case from the interop files: a JSON value and why it is (in)valid.
private struct InteropCase {
    var note: String
    var json: JSONValue
}

/// The interop data-model directory, `../shared/interop/data-model` next to the package root.
private func dataModelDirectory() throws -> URL {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directory = packageRoot.appendingPathComponent("../shared/interop/data-model").standardizedFileURL
    guard FileManager.default.fileExists(atPath: directory.path) else {
        throw XCTSkip("interop fixtures not found at \(directory.path); check out ../shared next to the package")
    }
    return directory
}

/// The entries of one interop file; entries without a `note` are named by their index.
private func interopCases(_ file: String) throws -> [InteropCase] {
    let data = try Data(contentsOf: try dataModelDirectory().appendingPathComponent(file))
    guard case .array(let entries) = try JSONValue.parse(data) else {
        throw LexiconDecodingError(message: "\(file) is not an array")
    }
    return try entries.enumerated().map { index, entry in
        guard let fields = entry.objectValue, let json = fields["json"] else {
            throw LexiconDecodingError(path: [String(index)], message: "\(file) entry has no json")
        }
        return InteropCase(note: fields["note"]?.stringValue ?? "\(file) entry \(index)", json: json)
    }
}

/// Parses JSON text.
private func json(_ text: String) throws -> JSONValue {
    try JSONValue.parse(Data(text.utf8))
}

/// The decoding error `body` throws, failing the test when it throws none or another kind.
private func decodingError(
    _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
) -> LexiconDecodingError? {
    do {
        try body()
        XCTFail("expected a LexiconDecodingError, nothing was thrown", file: file, line: line)
    } catch let error as LexiconDecodingError {
        return error
    } catch {
        XCTFail("expected a LexiconDecodingError, got \(error)", file: file, line: line)
    }
    return nil
}

private let cid = "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"

final class DataModelInteropTests: XCTestCase {
    func testEveryValidFixtureValidates() throws {
        let cases = try interopCases("data-model-valid.json")
        XCTAssertFalse(cases.isEmpty)
        for entry in cases {
            XCTAssertNoThrow(try AtprotoDataModel.validate(entry.json), "valid case rejected: \(entry.note)")
        }
    }

    func testEveryInvalidFixtureIsRejected() throws {
        let cases = try interopCases("data-model-invalid.json")
        XCTAssertFalse(cases.isEmpty)
        for entry in cases {
            XCTAssertThrowsError(try AtprotoDataModel.validate(entry.json), "invalid case accepted: \(entry.note)") {
                XCTAssertTrue($0 is LexiconDecodingError, "\(entry.note): wrong error type \($0)")
            }
        }
    }

    func testJSONOfEveryCBORFixtureValidates() throws {
        let cases = try interopCases("data-model-fixtures.json")
        XCTAssertFalse(cases.isEmpty)
        for entry in cases {
            XCTAssertNoThrow(try AtprotoDataModel.validate(entry.json), "fixture rejected: \(entry.note)")
        }
    }

    func testInvalidFixturesFailAtTheFaultyValue() throws {
        let expected: [String: [String]] = [
            "top-level not an object": [], "float": ["rcrd", "a"], "record with $type null": ["rcrd", "$type"],
            "record with $type wrong type": ["rcrd", "$type"], "record with empty $type string": ["rcrd", "$type"],
            "blob with string size": ["blb", "size"], "blob with missing key": ["blb", "ref"],
            "bytes with wrong field type": ["lnk", "$bytes"], "bytes with extra fields": ["lnk"],
            "link with wrong field type": ["lnk", "$link"], "link with bogus CID": ["lnk", "$link"],
            "link with extra fields": ["lnk"],
        ]
        for entry in try interopCases("data-model-invalid.json") {
            let error = decodingError { try AtprotoDataModel.validate(entry.json) }
            if let path = expected[entry.note] {
                XCTAssertEqual(error?.path, path, "\(entry.note): \(error.map(String.init(describing:)) ?? "")")
            }
        }
    }
}

final class DataModelValidationTests: XCTestCase {
    func testNumbersMustBeIntegersThatReadExactly() throws {
        XCTAssertNoThrow(try AtprotoDataModel.validateValue(json("[0, -1, 123.0, 1e3, -9223372036854775808]")))
        XCTAssertThrowsError(try AtprotoDataModel.validateValue(.number(0.5)))
        XCTAssertThrowsError(try AtprotoDataModel.validateValue(json("18446744073709551616")))
        XCTAssertThrowsError(try AtprotoDataModel.validateValue(.number(1e16)))
        XCTAssertEqual(decodingError { try AtprotoDataModel.validateValue(json("[1, [2, 3.5]]")) }?.path, ["1", "1"])
    }

    func testTopLevelValueMustBeAnOrdinaryObject() throws {
        let blob = try json(#"{"$type":"blob","ref":{"$link":"\#(cid)"},"mimeType":"image/png","size":1}"#)
        for special in [blob, try json(#"{"$link":"\#(cid)"}"#), try json(#"{"$bytes":"AAEC"}"#)] {
            XCTAssertNoThrow(try AtprotoDataModel.validateValue(special))
            XCTAssertThrowsError(try AtprotoDataModel.validate(special))
        }
        XCTAssertThrowsError(try AtprotoDataModel.validate(.array([])))
        XCTAssertNoThrow(try AtprotoDataModel.validate(json(#"{"cid":"\#(cid)","mimeType":"image/png"}"#)))
    }

    func testBlobMustHaveExactlyItsFourValidFields() throws {
        func blob(_ fields: String) throws -> JSONValue { try json(#"{"b":{"$type":"blob",\#(fields)}}"#) }
        let ref = #""ref":{"$link":"\#(cid)"}"#
        XCTAssertNoThrow(try AtprotoDataModel.validate(blob(#"\#(ref),"mimeType":"a/b","size":0"#)))
        let cases: [(String, [String])] = [
            (#"\#(ref),"mimeType":"","size":1"#, ["b", "mimeType"]),
            (#"\#(ref),"mimeType":"a/b","size":-1"#, ["b", "size"]),
            (#"\#(ref),"mimeType":"a/b","size":1.5"#, ["b", "size"]),
            (#"\#(ref),"mimeType":"a/b","size":1,"x":1"#, ["b"]),
            (#""ref":{"$link":"."},"mimeType":"a/b","size":1"#, ["b", "ref", "$link"]),
            (#""ref":"\#(cid)","mimeType":"a/b","size":1"#, ["b", "ref"]),
        ]
        for (fields, path) in cases {
            XCTAssertEqual(decodingError { try AtprotoDataModel.validate(blob(fields)) }?.path, path, fields)
        }
    }

    func testErrorsCarryTheGivenPathPrefix() throws {
        let error = decodingError { try AtprotoDataModel.validate(json(#"{"a":[{"$type":""}]}"#), at: ["record"]) }
        XCTAssertEqual(error?.path, ["record", "a", "0", "$type"])
        XCTAssertEqual(error?.pathDescription, "$.record.a.0.$type")
    }

    func testDeeplyNestedValuesAreCheckedWithoutRecursion() {
        var value = JSONValue.number(0.5)
        for _ in 0..<20_000 { value = .array([value]) }
        let error = decodingError { try AtprotoDataModel.validate(.object(["deep": value])) }
        XCTAssertEqual(error?.path.count, 20_001)
    }

    func testLinkCIDMustBeABase32CIDv1() {
        for valid in [cid, "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"] {
            XCTAssertTrue(AtprotoDataModel.isValidLinkCID(valid), valid)
        }
        let invalid = [
            "", ".", "b", "bafy", String(cid.dropLast()), cid + "a", cid.uppercased(), "B" + cid.dropFirst(),
            "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", "zdj7WWeQ43G6JJvLWQWZpyHuAMq6uYWRjkBXFad11vE2LHhQ7",
            " " + cid, cid + "=",
        ]
        for text in invalid {
            XCTAssertFalse(AtprotoDataModel.isValidLinkCID(text), text)
        }
    }
}

final class DataModelValueTests: XCTestCase {
    func testBytesReadsPaddedAndUnpaddedBase64AndWritesUnpadded() throws {
        for length in 0..<40 {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let padded = data.base64EncodedString()
            let unpadded = String(padded.prefix { $0 != "=" })
            XCTAssertEqual(try LexiconBytes(lexiconJSON: .object(["$bytes": .string(padded)])).data, data)
            let bytes = try LexiconBytes(lexiconJSON: .object(["$bytes": .string(unpadded)]))
            XCTAssertEqual(bytes.data, data)
            XCTAssertEqual(bytes.lexiconJSON, .object(["$bytes": .string(unpadded)]))
        }
    }

    func testBytesRejectsTextThatIsNotStandardBase64() {
        for text in ["YW J j", "YWJj\n", "-_8", "YQ=", "YQ===", "YWJjZ", "YW=J", "====", "YWJj===="] {
            let error = decodingError { _ = try LexiconBytes(lexiconJSON: .object(["$bytes": .string(text)])) }
            XCTAssertEqual(error?.path, ["$bytes"], text)
        }
    }

    func testBytesAndLinkRejectOtherShapesNamingTheField() throws {
        XCTAssertEqual(decodingError { _ = try LexiconBytes(lexiconJSON: json(#"{"$bytes":[1]}"#)) }?.path, ["$bytes"])
        XCTAssertEqual(decodingError { _ = try LexiconBytes(lexiconJSON: json(#"{"$bytes":"","x":1}"#)) }?.path, [])
        XCTAssertEqual(decodingError { _ = try CIDLink(lexiconJSON: json(#"{"$link":1234}"#)) }?.path, ["$link"])
        XCTAssertEqual(decodingError { _ = try CIDLink(lexiconJSON: json(#"{"other":"x"}"#)) }?.path, ["$link"])
        XCTAssertThrowsError(try CIDLink(lexiconJSON: .string(cid)))
    }

    func testCIDLinkRoundTrips() throws {
        let link = try CIDLink(lexiconJSON: json(#"{"$link":"\#(cid)"}"#))
        XCTAssertEqual(link.cid, cid)
        XCTAssertEqual(link.lexiconJSON, .object(["$link": .string(cid)]))
        XCTAssertEqual(try JSONDecoder().decode(CIDLink.self, from: JSONEncoder().encode(link)), link)
        XCTAssertEqual(try JSONValue.parse(JSONEncoder().encode(link)), link.lexiconJSON)
    }

    func testCIDLinkDecodedFromDAGCBORKeepsTheBinaryCID() throws {
        let binary = try CID(cid)
        let decoded = try CIDLink(dataModel: .link(binary))
        guard case .binary(let kept) = decoded.form else { return XCTFail("a decoded link keeps its binary CID") }
        XCTAssertEqual(kept, binary)
        XCTAssertEqual(try CID(decoded), binary)
        XCTAssertEqual(decoded.cid, cid)
        XCTAssertEqual(decoded, CIDLink(cid))
        XCTAssertEqual(decoded.hashValue, CIDLink(cid).hashValue)
        XCTAssertEqual(decoded.lexiconJSON, .object(["$link": .string(cid)]))
        XCTAssertEqual(binary.link, decoded)
        // Setting the text replaces the binary CID.
        var changed = decoded
        changed.cid = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
        guard case .text = changed.form else { return XCTFail("setting the text replaces the binary CID") }
        XCTAssertEqual(try CID(changed), try CID(changed.cid))
        changed.cid = "not a cid"
        XCTAssertThrowsError(try CID(changed))
        let blob = try LexiconBlob(
            dataModel: .map([
                "$type": .string("blob"), "ref": .link(binary), "mimeType": .string("image/png"), "size": .integer(3),
            ]))
        guard case .binary = blob.ref.form else { return XCTFail("a decoded blob keeps its binary CID") }
        XCTAssertEqual(try CID(blob.ref), binary)
        XCTAssertEqual(blob.ref.cid, cid)
    }

    func testBlobRoundTripsTheCurrentForm() throws {
        let text = #"{"$type":"blob","ref":{"$link":"\#(cid)"},"mimeType":"image/jpeg","size":10000}"#
        let blob = try LexiconBlob(lexiconJSON: json(text))
        XCTAssertEqual(blob, LexiconBlob(ref: CIDLink(cid), mimeType: "image/jpeg", size: 10000))
        XCTAssertFalse(blob.isLegacy)
        XCTAssertEqual(blob.lexiconJSON, try json(text))
        XCTAssertEqual(try JSONValue.parse(JSONEncoder().encode(blob)), try json(text))
    }

    func testLegacyBlobIsReadAndWrittenBackUnchanged() throws {
        let legacy = try json(#"{"cid":"\#(cid)","mimeType":"image/png"}"#)
        var blob = try LexiconBlob(lexiconJSON: legacy)
        XCTAssertTrue(blob.isLegacy)
        XCTAssertNil(blob.size)
        XCTAssertEqual(blob.ref, CIDLink(cid))
        XCTAssertEqual(blob.mimeType, "image/png")
        XCTAssertEqual(blob.lexiconJSON, legacy)
        blob.size = 42
        XCTAssertFalse(blob.isLegacy)
        XCTAssertEqual(blob.lexiconJSON, LexiconBlob(ref: CIDLink(cid), mimeType: "image/png", size: 42).lexiconJSON)
        XCTAssertNoThrow(try AtprotoDataModel.validateValue(blob.lexiconJSON))
    }

    func testBlobDecodingErrorsNameTheField() throws {
        let cases: [(String, [String])] = [
            (#"{"$type":"blob","mimeType":"a/b","size":1}"#, ["ref"]),
            (#"{"$type":"blob","ref":{"$link":"\#(cid)"},"mimeType":"a/b","size":"1"}"#, ["size"]),
            (#"{"$type":"blob","ref":{"$link":5},"mimeType":"a/b","size":1}"#, ["ref", "$link"]),
            (#"{"$type":"image","ref":{"$link":"\#(cid)"},"mimeType":"a/b","size":1}"#, ["$type"]),
            (#"{"cid":"\#(cid)"}"#, ["mimeType"]),
        ]
        for (text, path) in cases {
            XCTAssertEqual(decodingError { _ = try LexiconBlob(lexiconJSON: json(text)) }?.path, path, text)
        }
        let list = try json(#"[{"cid":"\#(cid)","mimeType":"a/b"},{"$type":"blob","ref":{"$link":"x"}}]"#)
        XCTAssertEqual(decodingError { _ = try [LexiconBlob](lexiconJSON: list) }?.path, ["1", "mimeType"])
    }

    func testUnknownValueKeepsAnyJSONAndEncodesItAsIs() throws {
        let record = try json(#"{"$type":"com.example.blah","a":123.0,"b":[null]}"#)
        let value = try LexiconUnknownValue(lexiconJSON: record)
        XCTAssertEqual(value.type, "com.example.blah")
        XCTAssertEqual(value.lexiconJSON, record)
        XCTAssertEqual(
            try JSONDecoder().decode(LexiconUnknownValue.self, from: JSONEncoder().encode(value)).type, value.type)
        XCTAssertEqual(try LexiconUnknownValue(lexiconJSON: .string("x")).json, .string("x"))
        XCTAssertEqual(try value.decode(as: JSONValue.self), record)
    }
}
