import Foundation
import XCTest
import XRPCCore
import XRPCServer

/// RFC 7515 4.1.11: a JWS whose `crit` names a header parameter the recipient does not understand
/// must be refused, and a `crit` that is not a non-empty array of strings is malformed. This verifier
/// understands no extension, so every well-formed `crit` is refused too.
final class CriticalHeaderTests: XCTestCase {
    func token(_ fixture: AuthFixture, header: [String: JSONValue]) -> String {
        TestTokens.make(AuthFixture.claims(), key: fixture.key, extraHeader: header)
    }

    func testACritNamingAnExtensionIsRefused() async throws {
        let f = try AuthFixture()
        let cases: [([String: JSONValue], String)] = [
            (["crit": .array([.string("exp")]), "exp": .integer(5)], #"crit names "exp""#),
            (["crit": .array([.string("b64")]), "b64": .bool(false)], #"crit names "b64""#),
            (["crit": .array([.string("kid"), .string("http://example.com/ext")])], #"crit names "kid""#),
        ]
        for (header, expected) in cases {
            let error = await f.refusal(token(f, header: header), f.verifier())
            XCTAssertEqual(error?.code, .badJwt, expected)
            XCTAssertEqual(error?.status, 401)
            XCTAssertTrue(error?.message.hasPrefix(expected) == true, error?.message ?? "")
        }
    }

    func testAMalformedCritIsRefused() async throws {
        let f = try AuthFixture()
        let values: [JSONValue] = [
            .array([]), .string("exp"), .array([.integer(1)]), .array([.string("a"), .null]), .null, .object([:]),
            .bool(true),
        ]
        for crit in values {
            let error = await f.refusal(token(f, header: ["crit": crit]), f.verifier())
            XCTAssertEqual(error?.code, .badJwt, crit.serializedString())
            XCTAssertEqual(error?.message, "crit is not a non-empty array of strings", crit.serializedString())
        }
    }

    func testAnUnknownHeaderParameterOutsideCritIsIgnored() async throws {
        let f = try AuthFixture()
        let token = token(f, header: ["kid": .string("did:plc:alice#atproto"), "x-note": .integer(1)])
        let caller = try await f.verifier().verify(token, method: AuthFixture.method)
        XCTAssertEqual(caller.did.rawValue, AuthFixture.issuer)
    }
}
