import Foundation
import OAuthCore
import XCTest

final class ErrorTests: XCTestCase {
    func testWWWAuthenticateParsesDPoPChallenges() {
        let header =
            #"DPoP algs="ES256", error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
        let challenges = WWWAuthenticateChallenge.parse(header)
        XCTAssertEqual(challenges.count, 1)
        XCTAssertEqual(challenges.first?.scheme, "DPoP")
        XCTAssertEqual(challenges.first?.parameters["algs"], "ES256")
        XCTAssertEqual(challenges.first?.parameters["error"], "use_dpop_nonce")
        XCTAssertEqual(WWWAuthenticateChallenge.dpopError(in: header), "use_dpop_nonce")
    }

    func testWWWAuthenticateReadsSeveralChallengesEscapesAndTokens() {
        let header = #"Bearer realm="a\"b", error=invalid_token, DPoP ERROR="invalid_token" , Basic"#
        let challenges = WWWAuthenticateChallenge.parse(header)
        XCTAssertEqual(challenges.map(\.scheme), ["Bearer", "DPoP", "Basic"])
        XCTAssertEqual(challenges[0].parameters["realm"], "a\"b")
        XCTAssertEqual(challenges[0].parameters["error"], "invalid_token")
        XCTAssertEqual(challenges[1].parameters["error"], "invalid_token")
        XCTAssertEqual(WWWAuthenticateChallenge.dpopError(in: header), "invalid_token")
        XCTAssertNil(WWWAuthenticateChallenge.dpopError(in: "Bearer error=\"x\""))
        XCTAssertNil(WWWAuthenticateChallenge.dpopError(in: nil))
        // Malformed: an unclosed quote keeps what was read.
        XCTAssertEqual(
            WWWAuthenticateChallenge.parse(#"DPoP error="use_dpop_nonce", x="open"#).first?.parameters["error"],
            "use_dpop_nonce")
        XCTAssertTrue(WWWAuthenticateChallenge.parse("").isEmpty)
        XCTAssertLessThanOrEqual(WWWAuthenticateChallenge.parse(String(repeating: "A, ", count: 10_000)).count, 16)
    }

    func testErrorsComeFromJSONOrTheChallenge() {
        let json = HTTPTransportResponse(
            status: 400, body: Data(#"{"error":"invalid_grant","error_description":"Refresh token replayed"}"#.utf8))
        let fromJSON = OAuthError.fromResponse(json, "the refresh")
        XCTAssertEqual(fromJSON.serverCode, "invalid_grant")
        XCTAssertEqual(fromJSON.serverDescription, "Refresh token replayed")
        XCTAssertEqual(fromJSON.status, 400)
        let challenge = HTTPTransportResponse(
            status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#], body: Data("<html>".utf8))
        XCTAssertTrue(OAuthError.fromResponse(challenge, "a call").isUseDPoPNonce)
        XCTAssertNil(OAuthError.fromResponse(HTTPTransportResponse(status: 500), "x").serverCode)
    }

    func testTokenResponsesAreCheckedAndNeverPrintTokens() throws {
        let text =
            #"{"access_token":"AT-secret","token_type":"DPoP","expires_in":300,"refresh_token":"RT-secret","scope":"atproto","sub":"did:plc:abc"}"#
        let answer = try JSONDecoder().decode(OAuthTokenResponse.self, from: Data(text.utf8))
        XCTAssertNoThrow(try answer.validate())
        var dumped = ""
        dump(answer, to: &dumped)
        for shown in ["\(answer)", String(reflecting: answer), dumped] {
            XCTAssertFalse(shown.contains("secret"), shown)
        }
        var bearer = answer
        bearer.tokenType = "Bearer"
        XCTAssertThrowsError(try bearer.validate())
        var expired = answer
        expired.expiresIn = 0
        XCTAssertThrowsError(try expired.validate())
        var empty = answer
        empty.accessToken = ""
        XCTAssertThrowsError(try empty.validate())
    }
}
