import AtprotoOAuth
import XCTest

/// `import AtprotoOAuth` is the one import signing in takes: this file imports nothing else, so it
/// compiles only while AtprotoOAuth re-exports what its signatures use (OAuthCore's key factory, the
/// identity resolver, the XRPC client and agents).
final class OneImportTests: XCTestCase {
    func testSigningInNeedsOneImport() throws {
        let resolver: any IdentityResolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
        let makeClient = { (keys: any ES256KeyFactory) in
            AtprotoOAuthClient(
                configuration: .development(scopes: [.transitionGeneric]), keyFactory: keys, resolver: resolver)
        }
        let authenticator: any UserAuthenticator = LoopbackAuthenticator { _ in }
        let call: (any XRPCAgent) -> XRPCClient = { XRPCClient(agent: $0) }
        XCTAssertNotNil(makeClient as Any)
        XCTAssertNotNil(authenticator as Any)
        XCTAssertNotNil(call as Any)
        XCTAssertEqual(DID(rawValue: "did:plc:x").rawValue, "did:plc:x")
    }
}
