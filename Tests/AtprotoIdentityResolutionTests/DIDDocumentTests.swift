import AtprotoCrypto
import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

final class DIDDocumentTests: XCTestCase {
    static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let key = "zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF"

    static func documentJSON(
        id: String = did,
        alsoKnownAs: String = ##"["at://Alice.Example.com"]"##,
        extra: String = ""
    ) -> String {
        """
        {"@context": ["https://www.w3.org/ns/did/v1"], "id": "\(id)", "alsoKnownAs": \(alsoKnownAs),
         "verificationMethod": [{"id": "\(id)#atproto", "type": "Multikey", "controller": "\(id)",
                                 "publicKeyMultibase": "\(key)", "x-extra": 1}],
         "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer",
                      "serviceEndpoint": "https://pds.example.com"}]\(extra)}
        """
    }

    func testReadsTheAtprotoPartsOfADocument() throws {
        let document = try DIDDocument(jsonData: Data(Self.documentJSON().utf8))
        XCTAssertEqual(document.id.rawValue, Self.did)
        XCTAssertEqual(document.handle?.rawValue, "alice.example.com", "the claimed handle is lower-cased")
        XCTAssertEqual(document.pdsEndpoint?.absoluteString, "https://pds.example.com")
        let key = try XCTUnwrap(try document.signingKey())
        XCTAssertEqual(key.curve, .secp256k1)
        XCTAssertEqual(key.multikey, Self.key)
    }

    func testKeepsUnknownFieldsAndWritesThemBack() throws {
        let text = Self.documentJSON(extra: ##", "futureField": {"a": [1, 2]}"##)
        let document = try DIDDocument(jsonData: Data(text.utf8))
        XCTAssertEqual(document.fields["futureField"], .object(["a": .array([.integer(1), .integer(2)])]))
        XCTAssertEqual(document.verificationMethods.first?.fields["x-extra"], .integer(1))
        XCTAssertEqual(document.jsonValue, try JSONValue.parse(text))
    }

    func testTheHandleIsTheFirstAtURIAndOnlyWhenValid() throws {
        let other = try DIDDocument(
            jsonData: Data(
                Self.documentJSON(alsoKnownAs: ##"["https://x.example", "at://bob.test", "at://c.test"]"##).utf8))
        XCTAssertEqual(other.handle?.rawValue, "bob.test")
        let invalid = try DIDDocument(jsonData: Data(Self.documentJSON(alsoKnownAs: ##"["at://not_a handle"]"##).utf8))
        XCTAssertNil(invalid.handle)
        let none = try DIDDocument(jsonData: Data(Self.documentJSON(alsoKnownAs: "[]").utf8))
        XCTAssertNil(none.handle)
    }

    func testThePDSNeedsTheRightIdAndTypeAndAnHTTPURL() throws {
        func pds(_ service: String) throws -> URL? {
            let text = ##"{"id": "did:web:example.com", "service": [\##(service)]}"##
            return try DIDDocument(jsonData: Data(text.utf8)).pdsEndpoint
        }
        let full =
            ##"{"id": "did:web:example.com#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": "https://a.example"}"##
        XCTAssertEqual(try pds(full)?.absoluteString, "https://a.example")
        XCTAssertNil(try pds(##"{"id": "#atproto_pds", "type": "Other", "serviceEndpoint": "https://a.example"}"##))
        XCTAssertNil(
            try pds(##"{"id": "#other", "type": "AtprotoPersonalDataServer", "serviceEndpoint": "https://a.example"}"##)
        )
        XCTAssertNil(
            try pds(
                ##"{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": "ftp://a.example"}"##)
        )
        XCTAssertNil(
            try pds(##"{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": {"a": "b"}}"##))
    }

    func testLegacyKeyTypesAreRead() throws {
        // An uncompressed secp256k1 point (the generator), base58btc without a multicodec prefix.
        let generator: [UInt8] =
            [0x04] + hex("79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798")
            + hex("483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8")
        let method = DIDDocument.VerificationMethod(
            id: "#atproto", type: "EcdsaSecp256k1VerificationKey2019", controller: "did:web:example.com",
            publicKeyMultibase: "z" + Base58Text.encode(generator))
        let key = try method.publicKey()
        XCTAssertEqual(key.curve, .secp256k1)
        XCTAssertEqual(key.compressedBytes, [0x02] + Array(generator[1...32]))
        let unknown = DIDDocument.VerificationMethod(
            id: "#atproto", type: "Ed25519VerificationKey2020", controller: "did:web:example.com",
            publicKeyMultibase: "z" + Base58Text.encode(generator))
        XCTAssertThrowsError(try unknown.publicKey()) {
            XCTAssertEqual(($0 as? AtprotoPublicKeyError)?.code, .unsupportedCurve)
        }
    }

    func testErrorsNameTheJSONPath() {
        func path(_ text: String) -> String? {
            do {
                _ = try DIDDocument(jsonData: Data(text.utf8))
                return nil
            } catch { return error.path }
        }
        XCTAssertEqual(path(##"{"alsoKnownAs": []}"##), "$.id")
        XCTAssertEqual(path(##"{"id": "not a did"}"##), "$.id")
        XCTAssertEqual(path(##"{"id": "did:web:a.example", "service": {}}"##), "$.service")
        XCTAssertEqual(path(##"{"id": "did:web:a.example", "alsoKnownAs": ["at://a", 3]}"##), "$.alsoKnownAs[1]")
        XCTAssertEqual(
            path(##"{"id": "did:web:a.example", "verificationMethod": [{"id": "#k", "controller": "x"}]}"##),
            "$.verificationMethod[0].type")
        XCTAssertEqual(path("[1, 2]"), "$")
        XCTAssertEqual(path("{\"id\": "), "$")
    }

    func testErrorsCarryACodeForWhatIsWrong() {
        func code(_ text: String, maximumSize: Int = 1 << 20) -> DIDDocumentError.Code? {
            do {
                _ = try DIDDocument(jsonData: Data(text.utf8), maximumSize: maximumSize)
                return nil
            } catch { return error.code }
        }
        XCTAssertEqual(code(##"{"alsoKnownAs": []}"##), .missingField)
        XCTAssertEqual(code(##"{"id": "not a did"}"##), .invalidValue)
        XCTAssertEqual(code(##"{"id": "did:web:a.example", "service": {}}"##), .typeMismatch)
        XCTAssertEqual(code(##"{"id": "did:web:a.example", "alsoKnownAs": ["at://a", 3]}"##), .typeMismatch)
        XCTAssertEqual(code("{\"id\": "), .invalidJSON)
        XCTAssertEqual(code(##"{"id": "did:web:a.example"}"##, maximumSize: 10), .tooLarge)
        XCTAssertEqual(code(##"{"id": "did:web:a.example"}"##), nil)
    }

    func testAnOversizedDocumentIsRefusedBeforeParsing() {
        let padded = Self.documentJSON(extra: #", "pad": "# + "\"" + String(repeating: "x", count: 200) + "\"")
        XCTAssertThrowsError(try DIDDocument(jsonData: Data(padded.utf8), maximumSize: 100)) {
            XCTAssertTrue("\($0)".contains("over the limit of 100"), "\($0)")
        }
    }
}

func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

/// Base58btc for test fixtures (the package's own encoder is not public).
enum Base58Text {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    static func encode(_ bytes: [UInt8]) -> String {
        var digits: [Int] = []
        for byte in bytes {
            var carry = Int(byte)
            for index in digits.indices {
                carry += digits[index] << 8
                digits[index] = carry % 58
                carry /= 58
            }
            while carry > 0 {
                digits.append(carry % 58)
                carry /= 58
            }
        }
        let zeros = bytes.prefix { $0 == 0 }.count
        return String(repeating: "1", count: zeros) + String(digits.reversed().map { alphabet[$0] })
    }
}
