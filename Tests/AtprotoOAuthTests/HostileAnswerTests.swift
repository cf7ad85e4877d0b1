import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

/// Every check of the sign-in against a server that lies: each must refuse.
final class HostileAnswerTests: XCTestCase {
    func testAnHonestServerSignsIn() async throws {
        let server = try FakeOAuthServer()
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": server.url], handles: ["alice.test": "did:plc:alice"]))
        let pending = try await client.authorize(.account("alice.test"))
        XCTAssertEqual(pending.expectedDID?.rawValue, "did:plc:alice")
        XCTAssertEqual(pending.loginHint, "alice.test")
        XCTAssertTrue(
            pending.authorizationURL.absoluteString.hasPrefix(
                server.origin + "/oauth/authorize?client_id=http%3A%2F%2Flocalhost"))
        XCTAssertFalse("\(pending)".contains(pending.pkce.verifier))
        let session = try await client.complete(pending, callback: callback(pending))
        let archive = try await currentArchive(of: session)
        XCTAssertEqual(archive.did.rawValue, "did:plc:alice")
        XCTAssertEqual(archive.handle?.rawValue, "alice.test")
        XCTAssertEqual(archive.issuer, server.origin)
    }

    private func expectRefusal(
        _ kind: OAuthError.Kind, _ what: String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            XCTFail("\(what) was accepted", file: file, line: line)
        } catch let error as OAuthError {
            XCTAssertEqual(error.kind, kind, "\(what): \(error)", file: file, line: line)
        } catch {
            XCTFail("\(what): \(error)", file: file, line: line)
        }
    }

    func testACallbackWithAnotherIssuerOrStateIsRefusedBeforeAnyExchange() async throws {
        let server = try FakeOAuthServer()
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": server.url], handles: ["alice.test": "did:plc:alice"]))
        let pending = try await client.authorize(.account("alice.test"))
        await expectRefusal(.invalidCallback, "a wrong iss") {
            _ = try await client.complete(pending, callback: callback(pending, iss: "https://evil.example.com"))
        }
        await expectRefusal(.invalidCallback, "a wrong state") {
            _ = try await client.complete(pending, callback: callback(pending, state: "forged"))
        }
        let withoutIss = try XCTUnwrap(
            URL(string: pending.redirectURI + "?code=c&state=" + pending.state))
        await expectRefusal(.invalidCallback, "no iss") { _ = try await client.complete(pending, callback: withoutIss) }
        XCTAssertEqual(server.count("/oauth/token"), 0, "no code was exchanged")
    }

    func testTokensForAnotherAccountThanTheOneAskedAreRefused() async throws {
        let server = try FakeOAuthServer()
        var behaviour = server.behaviour
        behaviour.tokenSub = "did:plc:mallory"
        server.behaviour = behaviour
        let client = makeClient(
            resolver: TableResolver(
                pds: ["did:plc:alice": server.url, "did:plc:mallory": server.url],
                handles: ["alice.test": "did:plc:alice"]))
        let pending = try await client.authorize(.account("alice.test"))
        await expectRefusal(.bindingMismatch, "a wrong sub") {
            _ = try await client.complete(pending, callback: callback(pending))
        }
        XCTAssertEqual(server.revokedTokens, ["rt-1"], "the refused grant is revoked")
    }

    func testAFailingRevocationNeverHidesWhyTheSignInWasRefused() async throws {
        let server = try FakeOAuthServer()
        var behaviour = server.behaviour
        behaviour.tokenSub = "did:plc:mallory"
        behaviour.revocationUnavailable = true
        server.behaviour = behaviour
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": server.url], handles: ["alice.test": "did:plc:alice"]))
        let pending = try await client.authorize(.account("alice.test"))
        await expectRefusal(.bindingMismatch, "a wrong sub, its revocation failing") {
            _ = try await client.complete(pending, callback: callback(pending))
        }
        XCTAssertEqual(server.revokedTokens, ["rt-1"], "the revocation was tried")
    }

    func testTokensOfAnotherTypeThanDPoPAreRefusedAndRevoked() async throws {
        let server = try FakeOAuthServer()
        var behaviour = server.behaviour
        behaviour.tokenType = "Bearer"
        server.behaviour = behaviour
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        await expectRefusal(.invalidResponse, "Bearer tokens") {
            _ = try await client.complete(pending, callback: callback(pending))
        }
        XCTAssertEqual(server.revokedTokens, ["rt-1"])
    }

    func testAServerThatClaimsSomeoneElsesAccountIsRefused() async throws {
        // The victim's PDS (and authorization server) is another server; the hostile one issues tokens
        // whose sub is the victim's DID.
        let victimPDS = try FakeOAuthServer()
        let hostile = try FakeOAuthServer()
        var behaviour = hostile.behaviour
        behaviour.tokenSub = "did:plc:victim"
        hostile.behaviour = behaviour
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:victim": victimPDS.url]))
        let pending = try await client.authorize(.server(hostile.url))
        XCTAssertNil(pending.expectedDID)
        await expectRefusal(.bindingMismatch, "a sub bound to another issuer") {
            _ = try await client.complete(pending, callback: callback(pending))
        }
        XCTAssertEqual(hostile.revokedTokens, ["rt-1"], "revoked where they were issued")
        XCTAssertEqual(victimPDS.revokedTokens, [])
    }

    func testMetadataWhoseIssuerDiffersIsRefused() async throws {
        let server = try FakeOAuthServer()
        var behaviour = server.behaviour
        behaviour.metadataIssuer = "https://evil.example.com"
        server.behaviour = behaviour
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": server.url], handles: ["alice.test": "did:plc:alice"]))
        await expectRefusal(.invalidMetadata, "metadata of another issuer") {
            _ = try await client.authorize(.account("alice.test"))
        }
        XCTAssertEqual(server.count("/oauth/par"), 0)
    }

    func testAPDSWhoseMetadataNamesAnotherServerIsBoundToThatServer() async throws {
        // The PDS names another authorization server; the sign-in must go there, and a callback that
        // claims the PDS itself as issuer is refused.
        let pds = try FakeOAuthServer()
        let entryway = try FakeOAuthServer()
        var behaviour = pds.behaviour
        behaviour.namedAuthorizationServer = entryway.origin
        pds.behaviour = behaviour
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": pds.url], handles: ["alice.test": "did:plc:alice"]))
        let pending = try await client.authorize(.account("alice.test"))
        XCTAssertEqual(pending.issuer, entryway.origin)
        XCTAssertEqual(entryway.count("/oauth/par"), 1)
        XCTAssertEqual(pds.count("/oauth/par"), 0)
        await expectRefusal(.invalidCallback, "the PDS as issuer") {
            _ = try await client.complete(pending, callback: callback(pending, iss: pds.origin))
        }
        // And tokens from the entryway bind: alice's PDS names it.
        let session = try await client.complete(pending, callback: callback(pending))
        let archive = try await currentArchive(of: session)
        XCTAssertEqual(archive.pdsEndpoint.absoluteString, pds.url.absoluteString)
        XCTAssertEqual(archive.nonces, [entryway.origin: "as-n2"], "the server's nonce, not the PDS's")
        _ = try await session.send(XRPCRequest(method: .get, nsid: "com.atproto.server.getSession"))
        let after = try await currentArchive(of: session)
        XCTAssertEqual(after.nonces, [entryway.origin: "as-n2", pds.origin: "rs-n1"], "nonces per origin, kept apart")
    }

    func testAPlainHTTPServerOffLoopbackIsNeverContacted() async throws {
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": try XCTUnwrap(URL(string: "http://pds.example.com"))]))
        await expectRefusal(.insecureURL, "an http PDS") { _ = try await client.authorize(.account("did:plc:alice")) }
        await expectRefusal(.insecureURL, "an http server") {
            _ = try await client.authorize(.server(try XCTUnwrap(URL(string: "http://pds.example.com"))))
        }
    }
}

final class DiscoveryTests: XCTestCase {
    func testAServerNamedByTheResourceIsNotSwappedForTheResourceItself() async throws {
        // The PDS names an authorization server whose metadata is bad: the sign-in must fail, not fall
        // back to the PDS as its own issuer.
        let pds = try FakeOAuthServer()
        let bad = try FakeOAuthServer()
        var behaviour = bad.behaviour
        behaviour.metadataIssuer = "https://evil.example.com"
        bad.behaviour = behaviour
        behaviour = pds.behaviour
        behaviour.namedAuthorizationServer = bad.origin
        pds.behaviour = behaviour
        let client = makeClient(resolver: TableResolver(pds: [:]))
        do {
            _ = try await client.authorize(.server(pds.url))
            XCTFail("fell back to the resource as issuer")
        } catch let error as OAuthError {
            XCTAssertEqual(error.kind, .invalidMetadata)
        }
        XCTAssertEqual(pds.count("/.well-known/oauth-authorization-server"), 0)
        XCTAssertEqual(pds.count("/oauth/par"), 0)
    }
}
