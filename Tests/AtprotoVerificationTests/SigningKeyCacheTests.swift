import AtprotoCrypto
import AtprotoIdentityResolution
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// The firehose's cache of keys read from DID documents: a rotated key is read afresh, a bad key is
/// never remembered, the cache stays bounded.
final class SigningKeyCacheTests: XCTestCase {
    /// Two secp256k1 keys of the interop files (crypto/w3c_didkey_K256.json).
    let first = "zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"
    let second = "zQ3shtxV1FrJfhqE1dvxYRcCknWNjHc3c5X1y3ZSoPDi2aur2"
    let did = DID(rawValue: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")

    func document(_ multibase: String?, type: String = "Multikey") -> DIDDocument {
        DIDDocument(
            id: did,
            verificationMethods: [
                .init(id: "#atproto", type: type, controller: did.rawValue, publicKeyMultibase: multibase)
            ])
    }

    func testARotatedKeyIsReadAfreshNotTakenFromTheCache() throws {
        let cache = SigningKeyCache()
        let before = try cache.signingKey(of: document(first))
        XCTAssertEqual(before, try AtprotoPublicKey(multikey: first))
        // The same DID, a new key: the cache must not answer with the old one.
        let after = try cache.signingKey(of: document(second))
        XCTAssertEqual(after, try AtprotoPublicKey(multikey: second))
        XCTAssertNotEqual(before, after)
        XCTAssertEqual(try cache.signingKey(of: document(first)), before)
        XCTAssertEqual(cache.count, 2)
    }

    func testTheMethodTypeIsPartOfTheKeyText() throws {
        let cache = SigningKeyCache()
        _ = try cache.signingKey(of: document(first))
        // The same multibase under a type atproto does not sign with fails as DIDDocument.signingKey() does.
        let other = document(first, type: "JsonWebKey2020")
        XCTAssertThrowsError(try other.signingKey())
        XCTAssertThrowsError(try cache.signingKey(of: other))
    }

    func testABadKeyFailsEveryTimeAndIsNotKept() {
        let cache = SigningKeyCache()
        let broken = document("zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBm")
        XCTAssertThrowsError(try cache.signingKey(of: broken))
        XCTAssertThrowsError(try cache.signingKey(of: broken))
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(try cache.signingKey(of: DIDDocument(id: did)))
    }

    func testTheCacheStaysWithinItsCapacity() throws {
        let cache = SigningKeyCache(capacity: 1)
        _ = try cache.signingKey(of: document(first))
        XCTAssertEqual(try cache.signingKey(of: document(second)), try AtprotoPublicKey(multikey: second))
        XCTAssertEqual(cache.count, 1)
    }
}
