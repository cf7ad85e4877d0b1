// The stand-in keeps to the service-auth rules (atproto.com/specs/xrpc), with tokens the shared PDS
// minted: a token for another method, another audience, used twice, expired, or not signed by the
// account's key is refused. Skipped without ATPROTO_PDS_URL.

import BlueskyKit
import Foundation
import XCTest

final class VideoServiceAuthTests: XCTestCase {
    /// The stand-in's answer to `getUploadLimits` with `token`.
    func limits(_ fixture: VideoFixture, token: String) async throws -> XRPCResponse {
        var request = XRPCRequest(method: .get, nsid: "app.bsky.video.getUploadLimits")
        request.setHeader("Authorization", "Bearer " + token)
        return try await URLSessionAgent(serviceURL: fixture.service.url).send(request)
    }

    func errorName(_ response: XRPCResponse) throws -> String? {
        try JSONValue.parse(response.body).objectValue?["error"]?.stringValue
    }

    func testTokensAreCheckedForAudienceMethodReplayAndSignature() async throws {
        let fixture = try await VideoFixture.make()
        let tokens = ServiceAuthTokens(agent: fixture.session)
        let audience = fixture.service.did

        let good = try await tokens.token(for: audience, method: "app.bsky.video.getUploadLimits")
        let accepted = try await limits(fixture, token: good)
        XCTAssertEqual(accepted.status, 200)
        // The same token again: replayed.
        let replayed = try await limits(fixture, token: good)
        XCTAssertEqual(replayed.status, 401)
        XCTAssertEqual(try errorName(replayed), "JwtReplayed")

        let otherMethod = try await tokens.token(for: audience, method: "app.bsky.video.startUpload")
        let badJwtLexiconMethod = try await limits(fixture, token: otherMethod)
        XCTAssertEqual(try errorName(badJwtLexiconMethod), "BadJwtLexiconMethod")

        let otherService = try await tokens.token(
            for: "did:web:elsewhere.test", method: "app.bsky.video.getUploadLimits")
        let badJwtAudience = try await limits(fixture, token: otherService)
        XCTAssertEqual(try errorName(badJwtAudience), "BadJwtAudience")

        // A signature that is not the account's key: the last byte of the signature changed.
        let fresh = try await tokens.token(for: audience, method: "app.bsky.video.getUploadLimits")
        var parts = fresh.split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[signature.count - 2] = signature[signature.count - 2] == "A" ? "B" : "A"
        parts[2] = String(signature)
        let badJwtSignature = try await limits(fixture, token: parts.joined(separator: "."))
        XCTAssertEqual(try errorName(badJwtSignature), "BadJwtSignature")

        // No token at all.
        let anonymous = try await URLSessionAgent(serviceURL: fixture.service.url).send(
            XRPCRequest(method: .get, nsid: "app.bsky.video.getUploadLimits"))
        XCTAssertEqual(try errorName(anonymous), "AuthenticationRequired")
        XCTAssertEqual(fixture.methods, ["getUploadLimits"])
    }

    func testAnExpiredTokenIsRefused() async throws {
        let fixture = try await VideoFixture.make()
        // The PDS refuses to mint a token expiring in the past: an expired one is forged from a good
        // one by hand, so its signature no longer holds either; the verifier checks exp first.
        let good = try await ServiceAuthTokens(agent: fixture.session).token(
            for: fixture.service.did, method: "app.bsky.video.getUploadLimits")
        var parts = good.split(separator: ".").map(String.init)
        var payload = try XCTUnwrap(
            try JSONValue.parse(try XCTUnwrap(Data(base64URL: parts[1]))).objectValue)
        payload["exp"] = .integer(1_000_000)
        parts[1] = JSONValue.object(payload).serialized().base64URLEncoded()
        let jwtExpired = try await limits(fixture, token: parts.joined(separator: "."))
        XCTAssertEqual(try errorName(jwtExpired), "JwtExpired")
    }
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }

    func base64URLEncoded() -> String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
