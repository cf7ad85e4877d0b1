import AtprotoCrypto
import XCTest

final class PublicKeyParsingTests: XCTestCase {
    func testAMultikeyRoundTripsThroughDidKey() throws {
        let text = "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"
        let key = try AtprotoPublicKey(didKey: text)
        XCTAssertEqual(key.curve, .secp256k1)
        XCTAssertEqual(key.didKey, text)
    }

    func testAnUnknownMulticodecIsAnUnsupportedCurve() {
        // ed25519 (0xed): not an atproto signing key.
        XCTAssertThrowsError(try AtprotoPublicKey(didKey: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK")) {
            XCTAssertEqual(($0 as? AtprotoPublicKeyError)?.code, .unsupportedCurve)
        }
    }
}
