import Foundation
import OAuthCore
import XCTest

final class JOSETests: XCTestCase {
    /// RFC 7638 section 3.1: the RSA example key's thumbprint.
    func testThumbprintMatchesTheRFC7638Example() {
        let n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        XCTAssertEqual(
            JWKThumbprint.sha256(["e": "AQAB", "kty": "RSA", "n": n]), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    /// The RFC 7517 A.1 EC key; expected value from Python's json + hashlib (sorted keys, no spaces).
    func testECThumbprintUsesCrvKtyXYInOrder() throws {
        let signer = try FixedSignatureSigner()
        XCTAssertEqual(signer.publicJWK.thumbprint, "cn-I_WNMClehiVp51i_0VpOENW1upEerA8sEam5hn-s")
        XCTAssertEqual(signer.publicJWK.uncompressed?.count, 65)
        XCTAssertThrowsError(try ECPublicJWK(x: [1, 2], y: [3]))
        XCTAssertThrowsError(try ECPublicJWK(uncompressed: [0x02] + Array(repeating: 0, count: 64)))
    }

    func testDPoPProofHasTheRFC9449HeaderAndClaims() async throws {
        let signer = try FixedSignatureSigner()
        let url = try XCTUnwrap(URL(string: "https://pds.example.com/xrpc/com.atproto.repo.createRecord?x=1#frag"))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let proof = try await DPoPProof.make(
            method: "post", url: url, nonce: "n-1", accessToken: "an-access-token", signer: signer, now: now)
        let parts = try XCTUnwrap(CompactJWS.split(proof))
        let header = jsonObject(parts.header), claims = jsonObject(parts.claims)
        XCTAssertEqual(header["typ"] as? String, "dpop+jwt")
        XCTAssertEqual(header["alg"] as? String, "ES256")
        let jwk = try XCTUnwrap(header["jwk"] as? [String: Any])
        XCTAssertEqual(jwk["kty"] as? String, "EC")
        XCTAssertEqual(jwk["crv"] as? String, "P-256")
        XCTAssertEqual(jwk["x"] as? String, signer.publicJWK.x)
        XCTAssertNil(jwk["d"])
        XCTAssertEqual(claims["htm"] as? String, "POST")
        XCTAssertEqual(claims["htu"] as? String, "https://pds.example.com/xrpc/com.atproto.repo.createRecord")
        XCTAssertEqual(claims["iat"] as? Int, 1_700_000_000)
        XCTAssertEqual(claims["nonce"] as? String, "n-1")
        // Python: base64url(sha256(b"an-access-token")).
        XCTAssertEqual(claims["ath"] as? String, "YiHPD2T9DaX5B837XJXto32BKkT6ZcpVAT6si9f5KiY")
        XCTAssertGreaterThanOrEqual((claims["jti"] as? String)?.count ?? 0, 16)
        XCTAssertEqual(parts.signature, signer.signature)
        // What was signed is exactly the first two segments.
        let signingInput = proof.split(separator: ".").prefix(2).joined(separator: ".")
        XCTAssertEqual(signer.messages.all.last, Array(signingInput.utf8))

        let other = try await DPoPProof.make(method: "GET", url: url, nonce: nil, signer: signer)
        let otherClaims = jsonObject(try XCTUnwrap(CompactJWS.split(other)).claims)
        XCTAssertNotEqual(otherClaims["jti"] as? String, claims["jti"] as? String)
        XCTAssertNil(otherClaims["nonce"])
        XCTAssertNil(otherClaims["ath"], "no ath without an access token")
    }

    func testASignerThatReturnsAWrongLengthIsRefused() async throws {
        let signer = try FixedSignatureSigner(signature: [1, 2, 3])
        let url = try XCTUnwrap(URL(string: "https://a.example"))
        do {
            _ = try await DPoPProof.make(method: "GET", url: url, nonce: nil, signer: signer)
            XCTFail("a 3-byte signature was accepted")
        } catch {
            XCTAssertEqual(error.code, .signing)
        }
    }

    func testClientAssertionNamesTheClientAndTheIssuer() async throws {
        let signer = try FixedSignatureSigner()
        let jws = try await ClientAssertion.make(
            clientID: "https://app.example/client.json", audience: "https://as.example", signer: signer, keyID: "k1",
            now: Date(timeIntervalSince1970: 100))
        let parts = try XCTUnwrap(CompactJWS.split(jws))
        XCTAssertEqual(jsonObject(parts.header)["kid"] as? String, "k1")
        XCTAssertNil(jsonObject(parts.header)["jwk"])
        let claims = jsonObject(parts.claims)
        XCTAssertEqual(claims["iss"] as? String, "https://app.example/client.json")
        XCTAssertEqual(claims["sub"] as? String, "https://app.example/client.json")
        XCTAssertEqual(claims["aud"] as? String, "https://as.example")
        XCTAssertEqual(claims["exp"] as? Int, 160)
    }

    func testKeyArchivesNeverPrintTheirBytes() {
        let archive = OAuthSigningKeyArchive(kind: OAuthSigningKeyArchive.p256Raw, data: Data("secret-scalar".utf8))
        for text in [
            "\(archive)", String(reflecting: archive),
            {
                var out = ""; dump(archive, to: &out); return out
            }(),
        ] {
            XCTAssertFalse(text.contains("secret") || text.contains("c2VjcmV0"), text)
        }
    }
}
