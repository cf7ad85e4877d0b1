import Foundation
import LoopbackHTTPServer
import OAuthCore
import XCTest

final class AuthorizationServerClientTests: XCTestCase {
    private func client(
        _ http: ScriptedHTTPClient, nonces: DPoPNonceStore = DPoPNonceStore(),
        authentication: ClientAuthentication = .none
    ) throws -> AuthorizationServerClient {
        let metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: jsonData(pdsMetadata()))
        return AuthorizationServerClient(
            metadata: metadata, clientID: "https://app.example/client.json", authentication: authentication,
            transport: http, nonces: nonces)
    }

    private let nonceAnswer = HTTPTransportResponse(
        status: 400, headers: ["DPoP-Nonce": "nonce-1"], body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
    private let tokenAnswer = HTTPTransportResponse(
        status: 200, headers: ["DPoP-Nonce": "nonce-2"],
        body: Data(
            #"{"access_token":"at","token_type":"DPoP","expires_in":60,"refresh_token":"rt","sub":"did:plc:a"}"#.utf8))

    func testPARRetriesOnceWithTheNonceAndSendsPKCE() async throws {
        let par = HTTPTransportResponse(
            status: 201, body: Data(#"{"request_uri":"urn:x:req-1","expires_in":300}"#.utf8))
        let http = ScriptedHTTPClient([nonceAnswer, par])
        let nonces = DPoPNonceStore()
        let pkce = PKCE()
        let request = PushedAuthorizationRequest(
            redirectURI: "http://127.0.0.1:9/cb", scope: "atproto transition:generic", state: "s1", pkce: pkce,
            loginHint: "alice.test")
        let answer = try await client(http, nonces: nonces).push(request, signer: try FixedSignatureSigner())
        XCTAssertEqual(answer.requestURI, "urn:x:req-1")
        XCTAssertEqual(http.sent.count, 2)
        let fields = formFields(http.sent[1])
        XCTAssertEqual(fields["code_challenge"], pkce.challenge)
        XCTAssertEqual(fields["code_challenge_method"], "S256")
        XCTAssertEqual(fields["login_hint"], "alice.test")
        XCTAssertNil(fields["code_verifier"], "the verifier never goes in the PAR")
        let proofs = http.sent.map { jsonObject(CompactJWS.split($0.headers["DPoP"] ?? "")?.claims ?? []) }
        XCTAssertNil(proofs[0]["nonce"])
        XCTAssertEqual(proofs[1]["nonce"] as? String, "nonce-1")
        XCTAssertNotEqual(proofs[0]["jti"] as? String, proofs[1]["jti"] as? String)
        XCTAssertEqual(nonces.snapshot["https://pds.example.com"], "nonce-1")
        let url = try answer.authorizationURL(
            endpoint: try XCTUnwrap(URL(string: "https://pds.example.com/oauth/authorize")),
            clientID: "https://app.example/client.json")
        XCTAssertEqual(
            url.absoluteString,
            "https://pds.example.com/oauth/authorize?client_id=https%3A%2F%2Fapp.example%2Fclient.json&request_uri=urn%3Ax%3Areq-1"
        )
    }

    func testANonceErrorIsRetriedOnlyOnce() async throws {
        let http = ScriptedHTTPClient([nonceAnswer, nonceAnswer, tokenAnswer])
        let oauth = try client(http), signer = try FixedSignatureSigner()
        do {
            _ = try await oauth.refresh(refreshToken: "rt", signer: signer)
            XCTFail("a second use_dpop_nonce was retried")
        } catch {
            XCTAssertTrue(error.isUseDPoPNonce)
        }
        XCTAssertEqual(http.sent.count, 2)
    }

    func testTokenGrantsAndConfidentialAssertionsPerAttempt() async throws {
        let http = ScriptedHTTPClient([nonceAnswer, tokenAnswer])
        let counter = MessageLog()
        let authentication = ClientAuthentication.privateKeyJWT { issuer in
            counter.append(Array(issuer.utf8))
            return "assertion-\(counter.all.count)"
        }
        let nonces = DPoPNonceStore()
        let tokens = try await client(http, nonces: nonces, authentication: authentication).exchange(
            code: "cod-1", redirectURI: "http://127.0.0.1:9/cb", pkce: PKCE(), signer: try FixedSignatureSigner())
        XCTAssertEqual(tokens.sub, "did:plc:a")
        XCTAssertEqual(nonces.snapshot["https://pds.example.com"], "nonce-2", "the nonce of every answer is kept")
        XCTAssertEqual(formFields(http.sent[0])["client_assertion"], "assertion-1")
        XCTAssertEqual(formFields(http.sent[1])["client_assertion"], "assertion-2", "a fresh assertion per attempt")
        XCTAssertEqual(formFields(http.sent[1])["grant_type"], "authorization_code")
        XCTAssertEqual(
            formFields(http.sent[1])["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        XCTAssertEqual(String(decoding: counter.all[0], as: UTF8.self), "https://pds.example.com")
    }

    func testAnInvalidGrantIsTyped() async throws {
        let http = ScriptedHTTPClient([
            HTTPTransportResponse(
                status: 400, body: Data(#"{"error":"invalid_grant","error_description":"replayed"}"#.utf8))
        ])
        let oauth = try client(http), signer = try FixedSignatureSigner()
        do {
            _ = try await oauth.refresh(refreshToken: "rt", signer: signer)
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.serverCode, "invalid_grant")
            XCTAssertFalse(error.description.contains("rt\""))
        }
    }

    func testURLSessionClientLimitsSizeAndTime() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/big": return .json("\"" + String(repeating: "x", count: 200_000) + "\"")
            case "/slow": return LoopbackHTTPServer.Response(status: 200, body: Data("{}".utf8), delay: 3)
            default:
                return .json(
                    #"{"form":"\#(String(decoding: request.body, as: UTF8.self))"}"#, headers: ["DPoP-Nonce": "n"])
            }
        }
        defer { server.stop() }
        let http = URLSessionTransport.oauthDefault()
        let echo = try await http.sendOAuth(.postForm(server.baseURL.appendingPathComponent("echo"), [("a", "b c")]))
        XCTAssertEqual(echo.status, 200)
        XCTAssertEqual(echo.header("dpop-nonce"), "n")
        XCTAssertTrue(String(decoding: echo.body, as: UTF8.self).contains("a=b+c"))
        do {
            _ = try await http.sendOAuth(.getJSON(server.baseURL.appendingPathComponent("big")))
            XCTFail("a 200 KB answer was read")
        } catch {
            XCTAssertEqual(error.code, .tooLarge)
        }
        var slow = HTTPTransportRequest.getJSON(server.baseURL.appendingPathComponent("slow"))
        slow.timeout = .milliseconds(300)
        let start = ContinuousClock.now
        do {
            _ = try await http.sendOAuth(slow)
            XCTFail("no timeout")
        } catch {
            XCTAssertEqual(error.code, .timedOut)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }
}
