#if NIOHTTPTransport
    import AtprotoLexicons
    import Foundation
    import NIOHTTPTransport
    import XCTest
    import XRPCRuntime

    /// The NIO transport under a real session against the shared PDS (`scripts/pds.sh start`; skipped
    /// unless ATPROTO_PDS_URL is set): an account made, logged in, a record written and read back,
    /// every request through `NIOHTTPTransport`.
    final class NIOHTTPTransportPDSTests: XCTestCase {
        func testASessionWritesAndReadsThroughTheNIOTransport() async throws {
            guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], let pds = URL(string: text)
            else {
                throw XCTSkip("set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\") to run the PDS tests")
            }
            let agent = URLSessionAgent(serviceURL: pds, transport: NIOHTTPTransport())
            let handle = "nio\(UInt32.random(in: 0...UInt32.max)).test"
            let password = "pw-\(UUID().uuidString)"
            _ = try await XRPCClient(agent: agent).com.atproto.server.createAccount(
                handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
            let session = PasswordSession(service: pds, agent: agent)
            let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
            let client = XRPCClient(agent: session)
            let repo = ATIdentifier(rawValue: archive.did.rawValue)
            let written = try await client.createRecord(
                AppBskyFeedPost(text: "through SwiftNIO", createdAt: LexiconDatetime.now()), repo: repo)
            let read = try await client.getRecord(
                AppBskyFeedPost.self, repo: repo, rkey: try XCTUnwrap(written.uri.rkey))
            XCTAssertEqual(read.value.text, "through SwiftNIO")
            XCTAssertEqual(read.cid, written.cid)
        }
    }
#endif  // NIOHTTPTransport
