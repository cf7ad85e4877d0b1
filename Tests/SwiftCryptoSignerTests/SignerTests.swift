#if SwiftCryptoSigner
    import AtprotoCrypto
    import Crypto
    import Foundation
    @_spi(Plumbing) import OAuthCore
    import SwiftCryptoSigner
    import XCTest

    /// The swift-crypto signer, its JWS checked by AtprotoCrypto's pure-Swift P-256 verification.
    final class SignerTests: XCTestCase {
        /// The P-256 group order n.
        private static let order: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]

        /// `r || s` with s replaced by n - s when s > n/2: JOSE allows either half, AtprotoCrypto checks
        /// atproto's low-S rule. Arithmetic on a public signature only.
        func lowS(_ signature: [UInt8]) -> [UInt8] {
            let s = Array(signature[32...])
            var half = [UInt8](repeating: 0, count: 32)
            var carry: UInt16 = 0
            for index in 0..<32 {
                let value = (carry << 8) | UInt16(Self.order[index])
                half[index] = UInt8(value >> 1)
                carry = value & 1
            }
            guard s.lexicographicallyPrecedes(half) || s == half else {
                var result = [UInt8](repeating: 0, count: 32)
                var borrow = 0
                for index in (0..<32).reversed() {
                    var value = Int(Self.order[index]) - Int(s[index]) - borrow
                    borrow = value < 0 ? 1 : 0
                    if value < 0 { value += 256 }
                    result[index] = UInt8(value)
                }
                return Array(signature[..<32]) + result
            }
            return signature
        }

        func verify(_ jws: String, signer: any ES256Signer, file: StaticString = #filePath, line: UInt = #line)
            throws
        {
            let parts = jws.split(separator: ".")
            XCTAssertEqual(parts.count, 3, file: file, line: line)
            let input = Array(parts.prefix(2).joined(separator: ".").utf8)
            let signature = try XCTUnwrap(Base64URL.decode(String(parts[2])))
            XCTAssertEqual(signature.count, 64, file: file, line: line)
            let key = try AtprotoPublicKey(sec1: try XCTUnwrap(signer.publicJWK.uncompressed), curve: .p256)
            XCTAssertTrue(
                key.isValidSignature(lowS(signature), for: input), "AtprotoCrypto accepts it", file: file, line: line)
            var tampered = input
            tampered[tampered.count - 1] ^= 1
            XCTAssertFalse(key.isValidSignature(lowS(signature), for: tampered), file: file, line: line)
            let cryptoKey = try P256.Signing.PublicKey(x963Representation: try XCTUnwrap(signer.publicJWK.uncompressed))
            XCTAssertTrue(
                cryptoKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input),
                file: file, line: line)
        }

        func testDPoPProofsVerifyWithAtprotoCrypto() async throws {
            let factory = SwiftCryptoES256KeyFactory()
            for _ in 0..<8 {
                let signer = try await factory.makeKey()
                let proof = try await DPoPProof.make(
                    method: "POST", url: try XCTUnwrap(URL(string: "https://pds.example.com/oauth/token")), nonce: "n",
                    signer: signer)
                try verify(proof, signer: signer)
            }
        }

        func testClientAssertionsVerifyAndNameTheirKey() async throws {
            let signer = try await SwiftCryptoES256KeyFactory().makeKey()
            let jws = try await ClientAssertion.make(
                clientID: "https://app.example/client.json", audience: "https://as.example", signer: signer, keyID: "k1"
            )
            try verify(jws, signer: signer)
        }

        func testAnArchivedKeyRestoresToTheSameKey() async throws {
            let factory = SwiftCryptoES256KeyFactory()
            let signer = try await factory.makeKey()
            let archive = try signer.exportForArchive()
            XCTAssertEqual(archive.kind, OAuthSigningKeyArchive.p256Raw)
            XCTAssertEqual(archive.data.count, 32)
            let restored = try await factory.restoreKey(from: archive)
            XCTAssertEqual(restored.publicJWK, signer.publicJWK)
            XCTAssertEqual(restored.publicJWK.thumbprint, signer.publicJWK.thumbprint)
            let proof = try await DPoPProof.make(
                method: "GET", url: try XCTUnwrap(URL(string: "https://pds.example.com/xrpc/x")), nonce: nil,
                accessToken: "t", signer: restored)
            try verify(proof, signer: signer)
            let other = try await factory.makeKey()
            XCTAssertNotEqual(other.publicJWK.thumbprint, signer.publicJWK.thumbprint, "a fresh key per session")
            do {
                _ = try await factory.restoreKey(from: OAuthSigningKeyArchive(kind: "secure-enclave", data: Data()))
                XCTFail("a foreign archive kind was read")
            } catch {}
            XCTAssertFalse("\(archive)".contains(archive.data.base64EncodedString()))
        }
    }
#endif  // SwiftCryptoSigner
