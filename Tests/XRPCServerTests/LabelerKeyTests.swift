import Foundation
import XCTest
import XRPCCore
import XRPCServer

/// A labeler's tokens (`iss` = `<did>#atproto_labeler`) are signed by its `#atproto_label` key, as the
/// spec maps that service to that key; tokens of the plain DID by its `#atproto` key. Neither key
/// passes for the other, not even once remembered.
final class LabelerKeyTests: XCTestCase {
    static let labeler = "did:plc:labeler00000000000000000"
    static let labelerIssuer = labeler + "#atproto_labeler"

    struct Labeler {
        let fixture: AuthFixture
        let accountKey: TestSigningKey
        let labelKey: TestSigningKey

        init(labelKey published: Bool = true) throws {
            fixture = try AuthFixture()
            accountKey = try TestSigningKey(curve: .secp256k1, seed: "labeler account")
            labelKey = try TestSigningKey(curve: .p256, seed: "labeler label")
            var keys = [(fragment: "atproto", key: accountKey)]
            if published { keys.append((fragment: "atproto_label", key: labelKey)) }
            fixture.resolver.publish(LabelerKeyTests.labeler, keys: keys)
        }

        func token(iss: String, key: TestSigningKey) -> String {
            fixture.token(["iss": .string(iss)], key: key)
        }
    }

    func testALabelerTokenIsCheckedWithTheLabelKey() async throws {
        let labeler = try Labeler()
        let verifier = labeler.fixture.verifier()
        let caller = try await verifier.verify(
            labeler.token(iss: Self.labelerIssuer, key: labeler.labelKey), method: AuthFixture.method)
        XCTAssertEqual(caller.did.rawValue, Self.labeler)
        XCTAssertEqual(caller.issuer, Self.labelerIssuer)
        // The account's own key does not sign for its labeler.
        let error = await labeler.fixture.refusal(
            labeler.token(iss: Self.labelerIssuer, key: labeler.accountKey), verifier)
        XCTAssertEqual(error?.code, .badJwtSignature)
        XCTAssertEqual(error?.message, "the signature is not by \(Self.labeler)'s #atproto_label key")
    }

    func testAPlainIssuerIsCheckedWithTheAccountKey() async throws {
        let labeler = try Labeler()
        let verifier = labeler.fixture.verifier()
        _ = try await verifier.verify(
            labeler.token(iss: Self.labeler, key: labeler.accountKey), method: AuthFixture.method)
        let error = await labeler.fixture.refusal(labeler.token(iss: Self.labeler, key: labeler.labelKey), verifier)
        XCTAssertEqual(error?.code, .badJwtSignature)
        XCTAssertEqual(error?.message, "the signature is not by \(Self.labeler)'s #atproto key")
        // Another service fragment is not a labeler: the account key signs for it.
        _ = try await verifier.verify(
            labeler.token(iss: Self.labeler + "#atproto_labelerx", key: labeler.accountKey), method: AuthFixture.method)
    }

    func testARememberedLabelKeyNeverPassesAPlainToken() async throws {
        let labeler = try Labeler()
        let verifier = labeler.fixture.verifier()
        _ = try await verifier.verify(
            labeler.token(iss: Self.labelerIssuer, key: labeler.labelKey), method: AuthFixture.method)
        let error = await labeler.fixture.refusal(labeler.token(iss: Self.labeler, key: labeler.labelKey), verifier)
        XCTAssertEqual(error?.code, .badJwtSignature)
        // Nor does a remembered account key pass a labeler token.
        _ = try await verifier.verify(
            labeler.token(iss: Self.labeler, key: labeler.accountKey), method: AuthFixture.method)
        let other = await labeler.fixture.refusal(
            labeler.token(iss: Self.labelerIssuer, key: labeler.accountKey), verifier)
        XCTAssertEqual(other?.code, .badJwtSignature)
        // Both remembered side by side, each proves its own tokens without the resolver.
        _ = try await verifier.verify(
            labeler.token(iss: Self.labelerIssuer, key: labeler.labelKey), method: AuthFixture.method)
        let calls = labeler.fixture.resolver.callCount
        for _ in 0..<2 {
            _ = try await verifier.verify(
                labeler.token(iss: Self.labelerIssuer, key: labeler.labelKey), method: AuthFixture.method)
            _ = try await verifier.verify(
                labeler.token(iss: Self.labeler, key: labeler.accountKey), method: AuthFixture.method)
        }
        XCTAssertEqual(labeler.fixture.resolver.callCount, calls)
    }

    func testALabelerWithoutALabelKeyIsRefused() async throws {
        let labeler = try Labeler(labelKey: false)
        let error = await labeler.fixture.refusal(
            labeler.token(iss: Self.labelerIssuer, key: labeler.accountKey), labeler.fixture.verifier())
        XCTAssertEqual(error?.code, .badJwtSignature)
        XCTAssertEqual(error?.message, "\(Self.labeler) has no usable #atproto_label key")
    }
}
