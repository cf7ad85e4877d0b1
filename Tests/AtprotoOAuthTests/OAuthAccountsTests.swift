import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

final class OAuthAccountsTests: XCTestCase {
    func testAccountsAreKeyedByDIDAndIndependent() async throws {
        let aliceServer = try FakeOAuthServer()
        let bobServer = try FakeOAuthServer()
        var behaviour = bobServer.behaviour
        behaviour.tokenSub = "did:web:bob.example.com"
        bobServer.behaviour = behaviour
        let client = makeClient(
            resolver: TableResolver(pds: ["did:plc:alice": aliceServer.url, "did:web:bob.example.com": bobServer.url]))
        var archives: [OAuthSessionArchive] = []
        for did in ["did:plc:alice", "did:web:bob.example.com"] {
            let pending = try await client.authorize(.account(did))
            archives.append(
                try await currentArchive(of: try await client.complete(pending, callback: callback(pending))))
        }
        let accounts = OAuthAccounts(client: client)
        let failed = await accounts.restore(archives)
        XCTAssertEqual(failed, [])
        let dids = await accounts.dids
        XCTAssertEqual(dids.map(\.rawValue), ["did:plc:alice", "did:web:bob.example.com"])
        let found = await accounts.session(for: DID(rawValue: "did:web:bob.example.com"))
        let bob = try XCTUnwrap(found)
        let response = try await bob.send(XRPCRequest(method: .get, nsid: "com.atproto.server.getSession"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(aliceServer.resourceHeaders.count, 0, "bob's call went to bob's PDS only")
        try await accounts.signOut(DID(rawValue: "did:plc:alice"))
        XCTAssertEqual(aliceServer.count("/oauth/revoke"), 1)
        XCTAssertEqual(bobServer.count("/oauth/revoke"), 0)
        let left = await accounts.dids
        XCTAssertEqual(left.map(\.rawValue), ["did:web:bob.example.com"])
        let stillBob = try await bob.send(XRPCRequest(method: .get, nsid: "com.atproto.server.getSession"))
        XCTAssertEqual(stillBob.status, 200)
    }
}
