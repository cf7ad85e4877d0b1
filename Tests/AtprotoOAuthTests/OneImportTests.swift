import AtprotoOAuth
import XCTest

/// `import AtprotoOAuth` is the one import signing in takes: this file imports nothing else, so it
/// compiles only while AtprotoOAuth re-exports what its signatures use (OAuthCore's key factory, the
/// identity resolver, the XRPC client and agents, the HTTP transport).
final class OneImportTests: XCTestCase {
    func testSigningInNeedsOneImport() throws {
        let resolver: any IdentityResolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
        let makeClient = { (keys: any ES256KeyFactory) in
            AtprotoOAuthClient(
                configuration: .development(scopes: [.transitionGeneric]), keyFactory: keys, resolver: resolver)
        }
        let authenticator: any OAuthUserAuthenticator = OAuthLoopbackAuthenticator { _ in }
        let call: (any XRPCAgent) -> XRPCClient = { XRPCClient(agent: $0) }
        XCTAssertNotNil(makeClient as Any)
        XCTAssertNotNil(authenticator as Any)
        XCTAssertNotNil(call as Any)
        XCTAssertEqual(DID(rawValue: "did:plc:x").rawValue, "did:plc:x")
    }

    /// An app's own transport, written against this one import, passed to all three users of HTTP.
    func testAnAppsTransportNeedsOneImport() throws {
        struct AppTransport: HTTPTransport {
            let inner = URLSessionTransport()
            func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
                try await inner.send(request)
            }
        }
        let transport = AppTransport()
        let resolver = try StandardIdentityResolver(transport: transport)
        let client = AtprotoOAuthClient(
            configuration: .development(scopes: [.transitionGeneric]), keyFactory: FixedKeyFactory(),
            resolver: resolver, httpTransport: transport)
        let service = try XCTUnwrap(PLCDirectoryResolver.publicDirectory)
        let agent = URLSessionAgent(serviceURL: service, transport: transport)
        XCTAssertNotNil(client as Any)
        XCTAssertEqual(agent.serviceURL, service)
    }
}
