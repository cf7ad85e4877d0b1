import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons
import XRPCTesting

/// Routes behind an authenticator: the handler sees the verified caller, refusals are error bodies.
final class AuthenticatedRouteTests: XCTestCase {
    func router(optional: Bool) throws -> (XRPCRouter, TestSigningKey) {
        let key = try TestSigningKey(curve: .secp256k1, seed: "alice")
        let resolver = TableResolver()
        resolver.publish(ServiceAuthTests.issuer, key: key)
        let verifier = ServiceAuthVerifier(audience: ServiceAuthTests.service, resolver: resolver)
        var router = XRPCRouter()
        let handler: @Sendable (String) -> ComExampleTestGetItems.Output = {
            ComExampleTestGetItems.Output(items: [$0])
        }
        if optional {
            router.query(ComExampleTestGetItems.self, auth: verifier.optional) { call in
                handler(call.caller?.did.rawValue ?? "anonymous")
            }
        } else {
            router.query(ComExampleTestGetItems.self, auth: verifier) { call in handler(call.caller.did.rawValue) }
        }
        return (router, key)
    }

    func token(_ key: TestSigningKey, lxm: String = "com.example.test.getItems") -> String {
        TestTokens.make(
            [
                "iss": .string(ServiceAuthTests.issuer), "aud": .string(ServiceAuthTests.service.rawValue),
                "exp": .integer(Int(Date().timeIntervalSince1970) + 60), "lxm": .string(lxm),
                "jti": .string(UUID().uuidString),
            ], key: key)
    }

    func request(_ token: String?) -> XRPCServerRequest {
        XRPCServerRequest(
            method: "GET", path: "/xrpc/com.example.test.getItems",
            query: "feed=at://did:plc:a/app.bsky.feed.generator/r",
            headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    func testTheHandlerGetsTheVerifiedCaller() async throws {
        let (router, key) = try router(optional: false)
        let response = await router.respond(to: request(token(key)))
        XCTAssertEqual(try TestRouter.items(response), [ServiceAuthTests.issuer])
    }

    func testWithoutCredentialsARequiredRouteIs401() async throws {
        let (router, _) = try router(optional: false)
        let response = await router.respond(to: request(nil))
        let (status, name, _) = try TestRouter.error(response)
        XCTAssertEqual(status, 401)
        XCTAssertEqual(name, "AuthenticationRequired")
        XCTAssertEqual(response.headers["www-authenticate"], "Bearer")
    }

    func testAnOptionalRouteTakesAnonymousCallsButNotBadTokens() async throws {
        let (router, key) = try router(optional: true)
        let anonymous = await router.respond(to: request(nil))
        XCTAssertEqual(try TestRouter.items(anonymous), ["anonymous"])
        let signed = await router.respond(to: request(token(key)))
        XCTAssertEqual(try TestRouter.items(signed), [ServiceAuthTests.issuer])
        let refused = await router.respond(to: request(token(key, lxm: "com.example.test.putItem")))
        let (status, name, _) = try TestRouter.error(refused)
        XCTAssertEqual(status, 401)
        XCTAssertEqual(name, "BadJwtLexiconMethod")
    }

    func testTokensComeFromThePDSThroughTheAgent() async throws {
        let agent = StubAgent(status: 200, json: #"{"token":"header.payload.signature"}"#)
        let expiry = Date(timeIntervalSince1970: 1_800_000_060)
        let token = try await ServiceAuthTokens(agent: agent).token(
            for: "did:web:feeds.example.com", method: "app.bsky.feed.getFeedSkeleton", expiration: expiry)
        XCTAssertEqual(token, "header.payload.signature")
        let sent = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(sent.nsid, "com.atproto.server.getServiceAuth")
        XCTAssertEqual(sent.method, .get)
        XCTAssertEqual(
            sent.queryItems,
            [
                URLQueryItem(name: "aud", value: "did:web:feeds.example.com"),
                URLQueryItem(name: "exp", value: "1800000060"),
                URLQueryItem(name: "lxm", value: "app.bsky.feed.getFeedSkeleton"),
            ])
    }

    func testAPDSRefusalIsAServerError() async throws {
        let agent = StubAgent(status: 400, json: #"{"error":"BadExpiration","message":"too far"}"#)
        do {
            _ = try await ServiceAuthTokens(agent: agent).token(for: "did:web:x.example", method: nil)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error.code, .serverError)
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(error.name, "BadExpiration")
            XCTAssertEqual(error.serverError?.name, "BadExpiration")
        }
    }
}

/// The client side: calls to a service carry a token minted for their method, never the session's own.
final class ServiceAuthAgentTests: XCTestCase {
    func testEachCallCarriesATokenForItsMethod() async throws {
        let minted = LogLines()
        let pds = StubAgent { request in
            let lxm = request.queryItems.first { $0.name == "lxm" }?.value ?? "-"
            minted.append(lxm)
            return XRPCResponse(status: 200, body: Data(#"{"token":"token-for-\#(lxm)"}"#.utf8))
        }
        let service = StubAgent(serviceURL: URL(string: "https://feeds.example.com")!) { _ in
            XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: Data(#"{"items":[]}"#.utf8))
        }
        let agent = ServiceAuthAgent(session: pds, audience: "did:web:feeds.example.com", agent: service)
        let client = XRPCClient(agent: agent)
        _ = try await client.query(
            ComExampleTestGetItems.self, parameters: .init(feed: "at://did:plc:a/app.bsky.feed.generator/r"))
        let sent = try XCTUnwrap(service.requests.first)
        XCTAssertEqual(sent.header("authorization"), "Bearer token-for-com.example.test.getItems")
        XCTAssertEqual(minted.lines, ["com.example.test.getItems"])
        XCTAssertEqual(pds.requests.first?.queryItems.first?.value, "did:web:feeds.example.com")
        XCTAssertFalse(sent.description.contains("token-for"), "the token is not shown in descriptions")
        let headers = try await agent.eventStreamHeaders(
            for: URL(string: "wss://feeds.example.com/xrpc/com.example.test.subscribeTicks")!, rejection: nil)
        XCTAssertEqual(headers["Authorization"], "Bearer token-for-com.example.test.subscribeTicks")
    }

    func testAServiceIDAddressesTheTokenToTheDIDsEntry() async throws {
        let pds = StubAgent { _ in XRPCResponse(status: 200, body: Data(#"{"token":"t"}"#.utf8)) }
        let service = StubAgent(serviceURL: URL(string: "https://labeler.example.com")!) { _ in
            XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: Data(#"{"items":[]}"#.utf8))
        }
        let agent = ServiceAuthAgent(
            session: pds, audience: "did:web:labeler.example.com", serviceID: "atproto_labeler", agent: service)
        _ = try await XRPCClient(agent: agent).query(
            ComExampleTestGetItems.self, parameters: .init(feed: "at://did:plc:a/app.bsky.feed.generator/r"))
        XCTAssertEqual(
            pds.requests.first?.queryItems.first { $0.name == "aud" }?.value,
            "did:web:labeler.example.com#atproto_labeler")
    }
}
