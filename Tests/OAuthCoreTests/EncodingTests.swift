import Foundation
@_spi(Plumbing) import OAuthCore
import XCTest

final class EncodingTests: XCTestCase {
    /// RFC 7636 appendix B.
    func testPKCEMatchesTheRFC7636Vector() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(pkce.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        XCTAssertEqual(PKCE.method, "S256")
    }

    func testFreshPKCEVerifiersAreLongRandomAndRedacted() throws {
        let first = PKCE(), second = PKCE()
        XCTAssertEqual(first.verifier.count, 43)
        XCTAssertNotEqual(first.verifier, second.verifier)
        XCTAssertNoThrow(try PKCE(verifier: first.verifier))
        XCTAssertFalse("\(first)".contains(first.verifier))
        XCTAssertFalse(String(reflecting: first).contains(first.verifier) && "\(first)".contains(first.verifier))
    }

    func testPKCERejectsVerifiersOutsideTheSyntax() {
        for bad in ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+", ""] {
            XCTAssertThrowsError(try PKCE(verifier: bad), bad)
        }
        XCTAssertNoThrow(try PKCE(verifier: String(repeating: "~", count: 128)))
    }

    func testBase64URLRoundTripsAndRejectsOtherAlphabets() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let text = Base64URL.encode(bytes)
            XCTAssertFalse(text.contains("=") || text.contains("+") || text.contains("/"))
            XCTAssertEqual(Base64URL.decode(text), bytes)
        }
        XCTAssertEqual(Base64URL.encode([0xFB, 0xFF]), "-_8")
        XCTAssertNil(Base64URL.decode("ab+c"))
        XCTAssertNil(Base64URL.decode("abcde"))
    }

    func testFormEncodingEscapesReservedBytes() {
        let body = FormEncoding.encode([("a b", "x&y=z"), ("redirect_uri", "http://127.0.0.1:8080/cb?x=1"), ("é", "~")])
        XCTAssertEqual(
            String(decoding: body, as: UTF8.self),
            "a+b=x%26y%3Dz&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcb%3Fx%3D1&%C3%A9=%7E")
        let back = FormEncoding.decode(String(decoding: body, as: UTF8.self))
        XCTAssertEqual(back.map(\.0), ["a b", "redirect_uri", "é"])
        XCTAssertEqual(back.map(\.1), ["x&y=z", "http://127.0.0.1:8080/cb?x=1", "~"])
    }

    func testSecureURLAllowsHTTPSAndLoopbackHTTPOnly() throws {
        for good in ["https://bsky.social", "http://127.0.0.1:2583", "http://localhost:8080/x", "http://[::1]:9/"] {
            XCTAssertTrue(SecureURL.isAllowed(try XCTUnwrap(URL(string: good))), good)
        }
        for bad in [
            "http://bsky.social", "ftp://127.0.0.1", "https://user:pw@bsky.social", "http://127.0.0.1.evil.com",
        ] {
            XCTAssertFalse(SecureURL.isAllowed(try XCTUnwrap(URL(string: bad))), bad)
        }
        XCTAssertEqual(
            SecureURL.origin(of: try XCTUnwrap(URL(string: "HTTPS://PDS.Example.com:443/x?y"))),
            "https://pds.example.com")
        XCTAssertEqual(
            SecureURL.origin(of: try XCTUnwrap(URL(string: "http://127.0.0.1:2583/xrpc/a"))), "http://127.0.0.1:2583")
    }
}
