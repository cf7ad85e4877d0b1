import AtprotoData
import Foundation
import XCTest

@testable import AtprotoCrypto

/// The on-curve check of every key read, and the scalar multiplication against the W3C did:key
/// vectors (private key -> public key, derived here in the tests only).
final class PointCheckTests: XCTestCase {
    private struct W3CVector: Decodable {
        var privateKeyBytesHex: String?
        var privateKeyBytesBase58: String?
        var publicDidKey: String
    }

    func testW3CSecp256k1KeysAreOnTheCurveAndMatchTheirPrivateKeys() throws {
        try checkW3C("w3c_didkey_K256.json", Secp256k1.self, .secp256k1)
    }

    func testW3CP256KeysAreOnTheCurveAndMatchTheirPrivateKeys() throws {
        try checkW3C("w3c_didkey_P256.json", P256.self, .p256)
    }

    private func checkW3C<Curve: ShortWeierstrassCurve>(_ file: String, _: Curve.Type, _ curve: AtprotoKeyCurve) throws
    {
        let vectors = try JSONDecoder().decode([W3CVector].self, from: try TestData.interop(file))
        XCTAssertFalse(vectors.isEmpty)
        for vector in vectors {
            let key = try AtprotoPublicKey(didKey: vector.publicDidKey)
            XCTAssertEqual(key.curve, curve)
            let secret: [UInt8]
            if let hex = vector.privateKeyBytesHex {
                secret = try TestData.hex(hex)
            } else {
                secret = try Base58.decode(Array(try XCTUnwrap(vector.privateKeyBytesBase58).utf8))
            }
            let scalar = try XCTUnwrap(UInt256(bigEndian: secret))
            let derived = try XCTUnwrap(Curve.linearCombination(scalar, .zero, Curve.generator).affine)
            XCTAssertEqual(derived.compressedBytes, key.compressedBytes, vector.publicDidKey)
            XCTAssertEqual(derived.uncompressedBytes, key.uncompressedBytes, vector.publicDidKey)
            // The same point read back from its uncompressed form.
            let again = try AtprotoPublicKey(sec1: key.uncompressedBytes, curve: curve)
            XCTAssertEqual(again, key)
        }
    }

    func testAPointOffTheCurveIsRefused() throws {
        for (curve, point) in [
            (AtprotoKeyCurve.secp256k1, Secp256k1.generator.uncompressedBytes),
            (.p256, P256.generator.uncompressedBytes),
        ] {
            XCTAssertNoThrow(try AtprotoPublicKey(sec1: point, curve: curve))
            var moved = point
            moved[64] ^= 1
            assertNotOnCurve(moved, curve, "y^2 != x^3 + ax + b")
        }
    }

    func testACoordinateNotBelowPIsRefused() throws {
        let k256Prime = Secp256k1.FieldModulus.modulus.bigEndianBytes
        let p256Prime = P256.FieldModulus.modulus.bigEndianBytes
        assertNotOnCurve([0x02] + k256Prime, .secp256k1, "x is not below")
        assertNotOnCurve([0x03] + p256Prime, .p256, "x is not below")
        assertNotOnCurve([0x04] + k256Prime + Secp256k1.generator.y.value.bigEndianBytes, .secp256k1, "x is not below")
        // x = p + 1 is the same residue as x = 1, but its bytes are not canonical.
        let p256PrimePlusOne = P256.FieldModulus.modulus.addingReportingOverflow(.one).partialValue
        assertNotOnCurve([0x02] + p256PrimePlusOne.bigEndianBytes, .p256, "x is not below")
        // y = p: zero modulo p, but not a canonical coordinate.
        assertNotOnCurve([0x04] + P256.generator.x.value.bigEndianBytes + p256Prime, .p256, "y is not below")
        assertNotOnCurve([0x04] + Secp256k1.generator.x.value.bigEndianBytes + k256Prime, .secp256k1, "y is not below")
    }

    func testACompressedXWithNoSquareRootIsRefused() {
        // x^3 + 7 is not a square modulo p for x = 5 (secp256k1); x^3 - 3x + b for x = 1 (P-256).
        assertNotOnCurve([0x02] + UInt256(5, 0, 0, 0).bigEndianBytes, .secp256k1, "is not a square")
        assertNotOnCurve([0x03] + UInt256(1, 0, 0, 0).bigEndianBytes, .p256, "is not a square")
        // x = 1 on secp256k1 has a point (8 is a square): both parities decompress, to y and -y.
        let even = try? AtprotoPublicKey(sec1: [0x02] + UInt256(1, 0, 0, 0).bigEndianBytes, curve: .secp256k1)
        let odd = try? AtprotoPublicKey(sec1: [0x03] + UInt256(1, 0, 0, 0).bigEndianBytes, curve: .secp256k1)
        XCTAssertEqual(even?.uncompressedBytes.last.map { $0 & 1 }, 0)
        XCTAssertEqual(odd?.uncompressedBytes.last.map { $0 & 1 }, 1)
    }

    func testAWrongLengthOrPrefixIsMalformed() {
        for bytes in [[0x00], [0x04] + [UInt8](repeating: 1, count: 32), [0x05] + [UInt8](repeating: 1, count: 32)] {
            XCTAssertThrowsError(try AtprotoPublicKey(sec1: bytes, curve: .p256)) {
                XCTAssertEqual(($0 as? AtprotoPublicKeyError)?.code, .malformedPoint)
            }
        }
    }

    private func assertNotOnCurve(
        _ bytes: [UInt8], _ curve: AtprotoKeyCurve, _ reason: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try AtprotoPublicKey(sec1: bytes, curve: curve), file: file, line: line) { error in
            let keyError = error as? AtprotoPublicKeyError
            XCTAssertEqual(keyError?.code, .notOnCurve, "\(error)", file: file, line: line)
            XCTAssertTrue(keyError?.message.contains(reason) == true, "\(error)", file: file, line: line)
        }
    }
}
