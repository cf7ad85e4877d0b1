#if SwiftCryptoSigner
    import CryptoKitSignerTwin
    import Foundation
    import OAuthCore
    import SwiftCryptoSigner
    import XCTest

    /// OAuthCore's CryptoKit signer (the same source, compiled against swift-crypto by the
    /// CryptoKitSignerTwin target): its JWS checked by AtprotoCrypto, its archives interchangeable with
    /// the swift-crypto signer's.
    extension SignerTests {
        func testTheCryptoKitSignerSourceSignsProofsThatVerify() async throws {
            let factory = CryptoKitSignerTwin.CryptoKitES256KeyFactory()
            for _ in 0..<4 {
                let signer = try await factory.makeKey()
                let proof = try await DPoPProof.make(
                    method: "POST", url: try XCTUnwrap(URL(string: "https://pds.example.com/oauth/token")),
                    nonce: "n", signer: signer)
                try verify(proof, signer: signer)
            }
        }

        func testTheCryptoKitAndSwiftCryptoArchivesAreOneFormat() async throws {
            let kit = CryptoKitSignerTwin.CryptoKitES256KeyFactory()
            let swiftCrypto = SwiftCryptoES256KeyFactory()
            let kitKey = try await kit.makeKey()
            let kitArchive = try kitKey.exportForArchive()
            XCTAssertEqual(kitArchive.kind, OAuthSigningKeyArchive.p256Raw)
            let asSwiftCrypto = try await swiftCrypto.restoreKey(from: kitArchive)
            XCTAssertEqual(asSwiftCrypto.publicJWK, kitKey.publicJWK)
            let swiftCryptoKey = try await swiftCrypto.makeKey()
            let asKit = try await kit.restoreKey(from: try swiftCryptoKey.exportForArchive())
            XCTAssertEqual(asKit.publicJWK, swiftCryptoKey.publicJWK)
            let proof = try await DPoPProof.make(
                method: "GET", url: try XCTUnwrap(URL(string: "https://pds.example.com/xrpc/x")), nonce: nil,
                accessToken: "t", signer: asKit)
            try verify(proof, signer: swiftCryptoKey)
        }

        func testAnEnclaveArchiveWithoutAnEnclaveIsAnError() async throws {
            let kit = CryptoKitSignerTwin.CryptoKitES256KeyFactory(secureEnclave: true)
            // No Secure Enclave here: a software key, never a crash.
            let key = try await kit.makeKey()
            XCTAssertEqual(try key.exportForArchive().kind, OAuthSigningKeyArchive.p256Raw)
            #if !canImport(CryptoKit)
                do {
                    _ = try await kit.restoreKey(
                        from: OAuthSigningKeyArchive(kind: OAuthSigningKeyArchive.secureEnclave, data: Data([1, 2, 3])))
                    XCTFail("an enclave archive was read where there is no enclave")
                } catch let error as OAuthError {
                    XCTAssertTrue("\(error)".contains(OAuthSigningKeyArchive.secureEnclave), "\(error)")
                }
            #endif
        }
    }
#endif  // SwiftCryptoSigner
