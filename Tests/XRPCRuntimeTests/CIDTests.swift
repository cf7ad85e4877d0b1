import AtprotoSyntax
import SHA2
import XCTest

@testable import AtprotoData
@testable import XRPCCore

/// The error `body` throws, failing the test when it throws none.
func binaryError<T>(
    _ body: () throws(AtprotoBinaryDecodingError) -> T, file: StaticString = #filePath, line: UInt = #line
) -> AtprotoBinaryDecodingError? {
    do {
        let value = try body()
        XCTFail("expected an AtprotoBinaryDecodingError, got \(value)", file: file, line: line)
    } catch {
        return error
    }
    return nil
}

final class CIDTests: XCTestCase {
    func testParsesAndPrintsCIDv1() throws {
        let text = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
        let cid = try CID(text)
        XCTAssertEqual(cid.version, 1)
        XCTAssertEqual(cid.codec, .dagCBOR)
        XCTAssertEqual(cid.hashFunction, .sha256)
        XCTAssertEqual(cid.digest.count, 32)
        XCTAssertEqual(cid.bytes.count, 36)
        XCTAssertEqual(Array(cid.bytes.prefix(4)), [0x01, 0x71, 0x12, 0x20])
        XCTAssertEqual(cid.string, text)
        XCTAssertEqual(try CID(bytes: cid.bytes), cid)
    }

    func testConvertsToAndFromItsStringField() throws {
        let field = CIDString(rawValue: "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a")
        let cid = try CID(field)
        XCTAssertEqual(cid, try CID(field.rawValue))
        XCTAssertEqual(CIDString(cid), field)
        let v0 = try CID("QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")
        XCTAssertEqual(CIDString(v0).rawValue, "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")
        // A string field is kept as written; parsing is where a malformed one is found.
        let malformed = CIDString(rawValue: "bafy!")
        XCTAssertEqual(binaryError { () throws(AtprotoBinaryDecodingError) in try CID(malformed) }?.code, .invalidCID)
    }

    func testParsesRawCodec() throws {
        let cid = try CID("bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity")
        XCTAssertEqual(cid.codec, .raw)
        XCTAssertEqual(cid.description, "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity")
    }

    func testParsesAndPrintsCIDv0() throws {
        let text = "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"
        let cid = try CID(text)
        XCTAssertEqual(cid.version, 0)
        XCTAssertEqual(cid.codec, .dagPB)
        XCTAssertEqual(cid.hashFunction, .sha256)
        XCTAssertEqual(cid.bytes.count, 34)
        XCTAssertEqual(Array(cid.bytes.prefix(2)), [0x12, 0x20])
        XCTAssertEqual(cid.string, text)
    }

    /// Checked against Python: `b` + base32 of `01 55 12 20` + hashlib.sha256(b"hello world").
    func testComputesCIDOfContent() {
        let cid = CID(sha256Of: Array("hello world".utf8), codec: .raw)
        XCTAssertEqual(cid.string, "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")
        XCTAssertEqual(try cid.matches(Array("hello world".utf8)), true)
        XCTAssertEqual(try cid.matches(Array("hello world!".utf8)), false)
    }

    /// atproto's CIDs are held inline and others as bytes: every way to the same CID gives an equal
    /// value with the same hash, and the two forms never meet.
    func testEveryConstructorOfOneCIDAgrees() throws {
        let content = Array("a block".utf8)
        let hashed = CID(sha256Of: content)
        let parsed = try CID(hashed.string)
        let fromBytes = try CID(bytes: hashed.bytes)
        var offset = 0
        let read = try hashed.bytes.withUnsafeBytes { buffer in try CID.read(buffer, at: &offset) }
        for other in [parsed, fromBytes, read] {
            XCTAssertEqual(other, hashed)
            XCTAssertEqual(other.hashValue, hashed.hashValue)
            XCTAssertEqual(other.bytes, hashed.bytes)
        }
        XCTAssertEqual(Set([hashed, parsed, fromBytes, read]).count, 1)
        XCTAssertEqual(hashed.withUnsafeBytes { Array($0) }, hashed.bytes)
        XCTAssertEqual(Array(hashed.digest), SHA256.hash(content))
        XCTAssertEqual(try hashed.matches(content), true)
        XCTAssertEqual(try hashed.matches(content + [0]), false)
        XCTAssertNotEqual(CID(sha256Of: content, codec: .raw), hashed)

        // dag-json (0x0129) needs two varint bytes: the bytes form, still equal across constructors.
        let wide = CID(sha256Of: content, codec: CID.Codec(rawValue: 0x0129))
        XCTAssertEqual(Array(wide.bytes.prefix(5)), [0x01, 0xA9, 0x02, 0x12, 0x20])
        XCTAssertEqual(try CID(bytes: wide.bytes), wide)
        XCTAssertEqual(try CID(wide.string), wide)
        XCTAssertEqual(wide.codec.rawValue, 0x0129)
        XCTAssertEqual(try wide.matches(content), true)
        XCTAssertEqual(Array(wide.digest), Array(hashed.digest))
        XCTAssertNotEqual(wide, hashed)

        // An identity CID and a CIDv0 keep their bytes; neither equals the SHA-256 CIDv1.
        let identity = try CID(bytes: [0x01, 0x71, 0x00, 0x03, 0x61, 0x62, 0x63])
        XCTAssertEqual(identity.hashFunction, .identity)
        XCTAssertEqual(try identity.matches(Array("abc".utf8)), true)
        let v0 = try CID(bytes: Array(hashed.bytes.dropFirst(2)))
        XCTAssertEqual(v0.version, 0)
        XCTAssertEqual(v0.digest, hashed.digest)
        XCTAssertNotEqual(v0, hashed)
    }

    func testRejectsTextWithItsOffset() {
        let bad = binaryError { () throws(AtprotoBinaryDecodingError) in
            try CID("bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz1a")
        }
        XCTAssertEqual(bad?.code, .invalidCID)
        XCTAssertEqual(bad?.offset, 57)

        let uppercase = binaryError { () throws(AtprotoBinaryDecodingError) in
            try CID("bAfyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a")
        }
        XCTAssertEqual(uppercase?.offset, 1)

        for text in ["", "zb2rhe5P4gXftAwvA4eXQ5HJwsER2owDyS9sKaQRRVQPn93bA", "Qm", "b", "bafyrei"] {
            XCTAssertEqual(
                binaryError { () throws(AtprotoBinaryDecodingError) in try CID(text) }?.code, .invalidCID, text)
        }
    }

    func testRejectsBinaryForms() {
        // Version 2.
        XCTAssertEqual(
            binaryError { () throws(AtprotoBinaryDecodingError) in try CID(bytes: [0x02, 0x71, 0x12, 0x20]) }?.code,
            .invalidCID)
        // A SHA-256 digest of 31 bytes.
        XCTAssertEqual(
            binaryError { () throws(AtprotoBinaryDecodingError) in
                try CID(bytes: [0x01, 0x71, 0x12, 0x1F] + [UInt8](repeating: 0, count: 31))
            }?.offset, 3)
        // Digest cut short.
        let short = binaryError { () throws(AtprotoBinaryDecodingError) in
            try CID(bytes: [0x01, 0x71, 0x12, 0x20, 0xAA])
        }
        XCTAssertEqual(short?.code, .truncated)
        // Non-minimal varint codec (0x71 written in two bytes).
        let varint = binaryError { () throws(AtprotoBinaryDecodingError) in
            try CID(bytes: [0x01, 0xF1, 0x00, 0x12, 0x20] + [UInt8](repeating: 0, count: 32))
        }
        XCTAssertEqual(varint?.code, .invalidVarint)
        XCTAssertEqual(varint?.offset, 1)
        // A byte after the digest.
        let trailing = binaryError { () throws(AtprotoBinaryDecodingError) in
            try CID(bytes: [0x01, 0x55, 0x00, 0x01, 0x61, 0x62])
        }
        XCTAssertEqual(trailing?.code, .trailingBytes)
        XCTAssertEqual(trailing?.offset, 5)
    }

    func testIdentityHashMatchesItsContentAndOtherHashesAreUnsupported() throws {
        let identity = try CID(bytes: [0x01, 0x55, 0x00, 0x02, 0x68, 0x69])
        XCTAssertEqual(try identity.matches(Array("hi".utf8)), true)
        XCTAssertEqual(try identity.matches(Array("ho".utf8)), false)
        // sha2-512 (0x13), which cannot be checked here.
        let sha512 = try CID(bytes: [0x01, 0x55, 0x13, 0x02, 0x00, 0x00])
        XCTAssertEqual(
            binaryError { () throws(AtprotoBinaryDecodingError) in try sha512.matches([UInt8]()) }?.code,
            .unsupportedHash)
    }
}
