import AtprotoOAuth
import Foundation
import LoopbackHTTPServer
import XCTest
import XRPCRuntime

// @unchecked Sendable: `requests` is read and written under `lock`; `inner` is a Sendable `let`.
/// An app's own transport: adds a header to every request, records it, and hands it on.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [HTTPTransportRequest] = []
    let inner: any HTTPTransport

    init(_ inner: any HTTPTransport = URLSessionTransport()) { self.inner = inner }

    var seen: [HTTPTransportRequest] { lock.withLock { requests } }

    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        var request = request
        request.headers["X-App-Transport"] = "recording"
        lock.withLock { requests.append(request) }
        return try await inner.send(request)
    }
}

/// One transport, written once by the app, serves XRPC calls, identity resolution and OAuth.
final class OneTransportTests: XCTestCase {
    func testXRPCIdentityAndOAuthAllGoThroughTheAppsTransport() async throws {
        let transport = RecordingTransport()
        let seenHeaders = HeaderLog()
        let service = try LoopbackHTTPServer { request in
            seenHeaders.append(request.headers)
            switch request.path {
            case "/.well-known/atproto-did":
                return LoopbackHTTPServer.Response(status: 200, body: Data("did:plc:alice".utf8))
            default: return .json(#"{"did":"did:web:service.test"}"#)
            }
        }
        defer { service.stop() }

        // XRPC: the URLSession agent over the app's transport.
        let agent = URLSessionAgent(serviceURL: service.baseURL, transport: transport)
        let described = try await agent.send(XRPCRequest(method: .get, nsid: "com.atproto.server.describeServer"))
        XCTAssertEqual(described.status, 200)

        // Identity: a handle resolved over HTTPS through it.
        let handles = WellKnownHandleResolver(
            transport: transport, hostOverrides: HostOverrides(["alice.test": service.baseURL]))
        let did = try await handles.resolveHandle(ATHandle(rawValue: "alice.test"))
        XCTAssertEqual(did.rawValue, "did:plc:alice")
        XCTAssertEqual(seenHeaders.all.map { $0["x-app-transport"] }, ["recording", "recording"])

        // OAuth: discovery, PAR and the token request, then the session's calls, through it too.
        let server = try FakeOAuthServer()
        let client = AtprotoOAuthClient(
            configuration: .development(), keyFactory: FixedKeyFactory(),
            resolver: TableResolver(pds: ["did:plc:alice": server.url]), httpTransport: transport,
            refreshLock: OAuthInProcessRefreshLock())
        let pending = try await client.authorize(.account("did:plc:alice"))
        let session = try await client.complete(pending, callback: callback(pending))
        let call = try await session.send(XRPCRequest(method: .get, nsid: "com.atproto.server.getSession"))
        XCTAssertEqual(call.status, 200)
        XCTAssertEqual(server.resourceHeaders.map { $0["x-app-transport"] }, ["recording", "recording"])

        let seen = transport.seen.map { "\($0.method) \($0.url.path)" }
        XCTAssertEqual(
            seen,
            [
                "GET /xrpc/com.atproto.server.describeServer",
                "GET /.well-known/atproto-did",
                "GET /.well-known/oauth-protected-resource",
                "GET /.well-known/oauth-authorization-server",
                "POST /oauth/par",
                "POST /oauth/token",
                // The token's `sub` bound to its PDS: that PDS's authorization server, asked again.
                "GET /.well-known/oauth-protected-resource",
                // The nonce challenge, then the retry.
                "GET /xrpc/com.atproto.server.getSession",
                "GET /xrpc/com.atproto.server.getSession",
            ])
        // Each module's bounds and redirect policy travel as the request's parameters.
        let requests = transport.seen
        XCTAssertEqual(requests[0].redirects, .followDroppingCredentialsAcrossOrigins)
        XCTAssertEqual(requests[0].maximumResponseSize, .max)
        XCTAssertEqual(requests[1].redirects, .never)
        XCTAssertEqual(requests[1].maximumResponseSize, IdentityFetchLimits().maximumHandleAnswerSize)
        for oauth in requests[2...6] {
            XCTAssertEqual(oauth.redirects, .never, oauth.description)
            XCTAssertEqual(oauth.maximumResponseSize, 64 * 1024, oauth.description)
            XCTAssertNotNil(oauth.timeout, oauth.description)
        }
    }

    /// A transport failure keeps each module's own error, with the transport's as `underlying`.
    func testEachModuleReportsTheTransportsFailureInItsOwnError() async throws {
        let failing = FailingTransport()
        let url = try XCTUnwrap(URL(string: "https://pds.example.com"))
        do {
            _ = try await URLSessionAgent(serviceURL: url, transport: failing).send(
                XRPCRequest(method: .get, nsid: "com.atproto.server.describeServer"))
            XCTFail("the call succeeded")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .cannotConnect)
            XCTAssertEqual(error.underlying?.code, .hostNotFound)
        }
        do {
            _ = try await WellKnownHandleResolver(transport: failing).resolveHandle(ATHandle(rawValue: "alice.test"))
            XCTFail("the handle resolved")
        } catch {
            XCTAssertEqual(error.code, .hostNotFound)
            XCTAssertEqual(error.underlying?.code, .hostNotFound)
        }
        let client = AtprotoOAuthClient(
            configuration: .development(), keyFactory: FixedKeyFactory(),
            resolver: TableResolver(pds: ["did:plc:alice": url]), httpTransport: failing)
        do {
            _ = try await client.authorize(.account("did:plc:alice"))
            XCTFail("the authorization started")
        } catch let error as OAuthError {
            XCTAssertEqual(error.code, .transport)
            XCTAssertEqual(error.underlying?.code, .hostNotFound)
        }
    }
}

/// A transport whose every request fails as if the host did not exist.
struct FailingTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        throw HTTPTransportError(.hostNotFound, request: request, message: "no such host")
    }
}

// @unchecked Sendable: `items` is read and written under `lock`.
/// The header fields a server saw, in order.
final class HeaderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [HTTPHeaderFields] = []
    func append(_ headers: HTTPHeaderFields) { lock.withLock { items.append(headers) } }
    var all: [HTTPHeaderFields] { lock.withLock { items } }
}
