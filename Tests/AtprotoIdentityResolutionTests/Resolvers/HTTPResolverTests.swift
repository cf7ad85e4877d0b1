import AtprotoIdentityResolution
import Foundation
import LoopbackHTTPServer
import XCTest
import XRPCRuntime

final class HTTPResolverTests: XCTestCase {
    let did = DID(rawValue: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")

    func wellKnown(_ server: IdentityTestServer, limits: IdentityFetchLimits = .init()) -> WellKnownHandleResolver {
        WellKnownHandleResolver(limits: limits, hostOverrides: HostOverrides(["alice.test": server.baseURL]))
    }

    func testWellKnownAnswersTheDIDAndSendsTheHandleAsHost() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: did.rawValue + "\n")
        let resolved = try await wellKnown(server).resolveHandle(ATHandle(rawValue: "Alice.TEST"))
        XCTAssertEqual(resolved, did)
        XCTAssertEqual(server.hostHeaders, ["alice.test"], "the handle, lower-cased, is the Host")
    }

    func testWellKnownFailuresAreTyped() async throws {
        let server = try IdentityTestServer()
        let resolver = wellKnown(
            server, limits: IdentityFetchLimits(timeout: .milliseconds(500), maximumHandleAnswerSize: 64))
        let handle = ATHandle(rawValue: "alice.test")
        var error = await identityError { _ = try await resolver.resolveHandle(handle) }
        XCTAssertEqual(error?.code, .handleNotFound)

        server.route("/.well-known/atproto-did", text: "<html>hello</html>")
        error = await identityError { _ = try await resolver.resolveHandle(handle) }
        XCTAssertEqual(error?.code, .malformedAnswer)
        XCTAssertTrue(error?.message.contains("/.well-known/atproto-did") ?? false, "\(String(describing: error))")

        server.route("/.well-known/atproto-did", text: did.rawValue + String(repeating: " ", count: 100))
        error = await identityError { _ = try await resolver.resolveHandle(handle) }
        XCTAssertEqual(error?.code, .answerTooLarge)

        server.route("/.well-known/atproto-did", text: did.rawValue, status: 500)
        error = await identityError { _ = try await resolver.resolveHandle(handle) }
        XCTAssertEqual(error?.code, .unexpectedStatus)

        server.route("/.well-known/atproto-did", text: did.rawValue, delay: 2)
        let started = ContinuousClock.now
        error = await identityError { _ = try await resolver.resolveHandle(handle) }
        XCTAssertEqual(error?.code, .timedOut)
        XCTAssertLessThan(started.duration(to: .now), .seconds(1.8))
    }

    func testRedirectsStayOnTheSameHost() async throws {
        let server = try IdentityTestServer()
        let handle = ATHandle(rawValue: "alice.test")
        server.route(
            "/.well-known/atproto-did", LoopbackHTTPServer.Response(status: 302, headers: ["Location": "/moved"]))
        server.route("/moved", text: did.rawValue)
        let resolved = try await wellKnown(server).resolveHandle(handle)
        XCTAssertEqual(resolved, did)

        server.route(
            "/.well-known/atproto-did",
            LoopbackHTTPServer.Response(
                status: 301, headers: ["Location": "https://evil.example/.well-known/atproto-did"]))
        let error = await identityError { _ = try await self.wellKnown(server).resolveHandle(handle) }
        XCTAssertEqual(error?.code, .redirected)
        XCTAssertTrue(error?.message.contains("evil.example") ?? false)

        server.route(
            "/.well-known/atproto-did", LoopbackHTTPServer.Response(status: 302, headers: ["Location": "/loop"]))
        server.route(
            "/loop", LoopbackHTTPServer.Response(status: 302, headers: ["Location": "/.well-known/atproto-did"]))
        let looping = await identityError { _ = try await self.wellKnown(server).resolveHandle(handle) }
        XCTAssertEqual(looping?.code, .redirected)
    }

    func testPLCDirectoryChecksTheDocumentIsForTheDID() async throws {
        let server = try IdentityTestServer()
        let resolver = PLCDirectoryResolver(directory: server.baseURL.appendingPathComponent("plc"))
        server.route("/plc/" + did.rawValue, text: documentText(did: did.rawValue, handle: "alice.test"))
        let document = try await resolver.resolveDID(did)
        XCTAssertEqual(document.handle?.rawValue, "alice.test")

        let other = DID(rawValue: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")
        server.route("/plc/" + other.rawValue, text: documentText(did: did.rawValue, handle: "alice.test"))
        var error = await identityError { _ = try await resolver.resolveDID(other) }
        XCTAssertEqual(error?.code, .documentMismatch)

        server.route("/plc/" + other.rawValue, text: "{not json")
        error = await identityError { _ = try await resolver.resolveDID(other) }
        XCTAssertEqual(error?.code, .malformedAnswer)
        XCTAssertTrue(error?.message.contains("line 1") ?? false, "\(String(describing: error))")

        server.route("/plc/" + other.rawValue, text: #"{"message": "DID not available"}"#, status: 410)
        error = await identityError { _ = try await resolver.resolveDID(other) }
        XCTAssertEqual(error?.code, .didNotFound)

        error = await identityError { _ = try await resolver.resolveDID(DID(rawValue: "did:web:example.com")) }
        XCTAssertEqual(error?.code, .unsupportedDIDMethod)

        let small = PLCDirectoryResolver(
            directory: server.baseURL.appendingPathComponent("plc"),
            limits: IdentityFetchLimits(maximumDocumentSize: 100))
        error = await identityError { _ = try await small.resolveDID(self.did) }
        XCTAssertEqual(error?.code, .answerTooLarge)
    }

    func testDIDWebNamesAHostAndOnLocalhostAPort() async throws {
        let server = try IdentityTestServer()
        let web = DID(rawValue: "did:web:localhost%3A\(server.port)")
        server.route("/.well-known/did.json", text: documentText(did: web.rawValue, handle: "bob.test"))
        let document = try await WebDIDResolver().resolveDID(web)
        XCTAssertEqual(document.id, web)

        for (text, kind) in [
            ("did:web:example.com:user:alice", IdentityError.Code.unsupportedDIDMethod),
            ("did:web:example.com%3A8443", .invalidIdentifier),
            ("did:web:localhost%3A99999", .invalidIdentifier),
            ("did:web:exa_mple.com", .invalidIdentifier),
            ("did:key:zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF", .unsupportedDIDMethod),
        ] {
            let error = await identityError {
                _ = try await StandardDIDResolver(
                    plc: PLCDirectoryResolver(directory: server.baseURL), web: WebDIDResolver()
                ).resolveDID(DID(rawValue: text))
            }
            XCTAssertEqual(error?.code, kind, text)
        }
    }

    func testDIDWebOverridesSendTheHostOfTheDID() async throws {
        let server = try IdentityTestServer()
        let web = DID(rawValue: "did:web:example.com")
        server.route("/.well-known/did.json", text: documentText(did: web.rawValue, handle: nil))
        let resolver = WebDIDResolver(hostOverrides: HostOverrides(["example.com": server.baseURL]))
        _ = try await resolver.resolveDID(web)
        XCTAssertEqual(server.hostHeaders, ["example.com"])
    }
}
