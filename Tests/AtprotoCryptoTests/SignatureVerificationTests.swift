import AtprotoCrypto
import Foundation
import XCTest

/// ECDSA verification by atproto's rules against the interop fixtures and our own OpenSSL-made
/// vectors (scripts/make-signature-vectors.py).
final class SignatureVerificationTests: XCTestCase {
    private struct Fixture: Decodable {
        var comment: String
        var messageBase64: String
        var didDocSuite: String
        var publicKeyDid: String?
        var publicKeyMultibase: String?
        var signatureBase64: String
        var validSignature: Bool
    }

    private struct VectorFile: Decodable {
        var vectors: [Vector]
    }

    private struct Vector: Decodable {
        var `case`: String
        var curve: String
        var publicKeyHex: String
        var messageHex: String
        var digestHex: String
        var signatureHex: String
        var valid: Bool
    }

    func testEveryInteropFixtureIsAnsweredAsItSays() throws {
        let fixtures = try JSONDecoder().decode([Fixture].self, from: try TestData.interop("signature-fixtures.json"))
        XCTAssertFalse(fixtures.isEmpty)
        var checked = 0
        for fixture in fixtures {
            let message = try TestData.base64(fixture.messageBase64)
            let signature = try TestData.base64(fixture.signatureBase64)
            var keys: [AtprotoPublicKey] = []
            if let did = fixture.publicKeyDid {
                keys.append(try AtprotoPublicKey(didKey: did))
            }
            if let multibase = fixture.publicKeyMultibase {
                keys.append(try AtprotoPublicKey(legacyType: fixture.didDocSuite, multibase: multibase))
            }
            XCTAssertFalse(keys.isEmpty, fixture.comment)
            for key in keys {
                XCTAssertEqual(key.isValidSignature(signature, for: message), fixture.validSignature, fixture.comment)
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, fixtures.count)
    }

    func testEveryOwnVectorIsAnsweredAsOpenSSLAndAtprotoRulesSay() throws {
        let file = try JSONDecoder().decode(VectorFile.self, from: try TestData.local("signature-vectors.json"))
        var seen: [String: Int] = [:]
        for vector in file.vectors {
            let curve = try XCTUnwrap(AtprotoKeyCurve(rawValue: vector.curve))
            let key = try AtprotoPublicKey(sec1: try TestData.hex(vector.publicKeyHex), curve: curve)
            let signature = try TestData.hex(vector.signatureHex)
            let message = try TestData.hex(vector.messageHex)
            let label = "\(vector.curve) \(vector.case) \(vector.signatureHex)"
            XCTAssertEqual(key.isValidSignature(signature, for: message), vector.valid, label)
            XCTAssertEqual(
                key.isValidSignature(signature, forDigest: try TestData.hex(vector.digestHex)), vector.valid, label)
            seen["\(vector.curve) \(vector.case) \(vector.valid)", default: 0] += 1
        }
        // The file holds every kind of case for both curves, with the expected answers.
        for curve in ["secp256k1", "p256"] {
            XCTAssertGreaterThanOrEqual(seen["\(curve) valid true"] ?? 0, 50, curve)
            for tampered in ["message-bit", "r-bit", "s-bit", "high-s"] {
                XCTAssertGreaterThanOrEqual(seen["\(curve) \(tampered) false"] ?? 0, 50, "\(curve) \(tampered)")
            }
            XCTAssertGreaterThanOrEqual(seen["\(curve) r-wraps true"] ?? 0, 1, "\(curve) r-wraps")
            XCTAssertEqual(seen["\(curve) s-half true"], 1, "\(curve) s-half")
            for invalid in ["s-half-plus-one", "r-zero", "s-zero", "r-is-n", "s-is-n", "der", "short"] {
                XCTAssertEqual(seen["\(curve) \(invalid) false"], 1, "\(curve) \(invalid)")
            }
        }
    }

    func testADigestOfTheWrongLengthIsInvalid() throws {
        let fixtures = try JSONDecoder().decode([Fixture].self, from: try TestData.interop("signature-fixtures.json"))
        let fixture = try XCTUnwrap(fixtures.first { $0.validSignature && $0.publicKeyDid != nil })
        let key = try AtprotoPublicKey(didKey: try XCTUnwrap(fixture.publicKeyDid))
        let signature = try TestData.base64(fixture.signatureBase64)
        let message = try TestData.base64(fixture.messageBase64)
        XCTAssertTrue(key.isValidSignature(signature, for: message))
        // The message itself is not a digest; a digest with a byte more or less is not one either.
        XCTAssertFalse(key.isValidSignature(signature, forDigest: message))
        XCTAssertFalse(key.isValidSignature(signature, forDigest: [UInt8](repeating: 0, count: 31)))
        XCTAssertFalse(key.isValidSignature(signature, forDigest: [UInt8](repeating: 0, count: 33)))
        XCTAssertFalse(key.isValidSignature([], for: message))
    }

    func testASignatureDoesNotVerifyUnderAKeyOfTheOtherCurve() throws {
        let fixtures = try JSONDecoder().decode([Fixture].self, from: try TestData.interop("signature-fixtures.json"))
        let valid = fixtures.filter(\.validSignature)
        let k256 = try XCTUnwrap(valid.first { $0.didDocSuite == "EcdsaSecp256k1VerificationKey2019" })
        let p256 = try XCTUnwrap(valid.first { $0.didDocSuite == "EcdsaSecp256r1VerificationKey2019" })
        let p256Key = try AtprotoPublicKey(didKey: try XCTUnwrap(p256.publicKeyDid))
        let k256Key = try AtprotoPublicKey(didKey: try XCTUnwrap(k256.publicKeyDid))
        XCTAssertTrue(
            p256Key.isValidSignature(
                try TestData.base64(p256.signatureBase64), for: try TestData.base64(p256.messageBase64)))
        XCTAssertFalse(
            p256Key.isValidSignature(
                try TestData.base64(k256.signatureBase64), for: try TestData.base64(k256.messageBase64)))
        XCTAssertFalse(
            k256Key.isValidSignature(
                try TestData.base64(p256.signatureBase64), for: try TestData.base64(p256.messageBase64)))
    }
}
