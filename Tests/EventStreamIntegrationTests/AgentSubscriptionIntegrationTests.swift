import AtprotoIdentityResolution
import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// `com.atproto.sync.subscribeRepos` through every agent the package ships (the OAuth session is
/// tested in the SwiftCryptoSigner companion, which has ES256 keys), against the PDS of the
/// environment: each stream connects to the service its agent names, with no
/// `eventStreams.serviceURL`, and replays a post written for the test.
final class AgentSubscriptionIntegrationTests: XCTestCase {
    private struct TimedOut: Error, CustomStringConvertible {
        var description: String
    }

    private struct Fixture {
        var url: URL
        var handle: String
        var session: PasswordSession
        var did: DID
        /// The repo path of a post written for this test.
        var postPath: String
    }

    private func fixture() async throws -> Fixture {
        let variables = ProcessInfo.processInfo.environment
        guard let text = variables["ATPROTO_PDS_URL"], let url = URL(string: text),
            let handle = variables["ATPROTO_PDS_HANDLE"], let password = variables["ATPROTO_PDS_PASSWORD"]
        else {
            throw XCTSkip("set ATPROTO_PDS_URL, _HANDLE and _PASSWORD (eval \"$(scripts/pds.sh start)\")")
        }
        let session = PasswordSession(service: url)
        let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
        let post = AppBskyFeedPost(
            text: "agents \(UUID().uuidString)", createdAt: LexiconDatetime(rawValue: "2024-06-01T12:00:00.000Z"))
        let created = try await XRPCClient(agent: session).com.atproto.repo.createRecord(
            repo: ATIdentifier(rawValue: archive.did.rawValue), collection: "app.bsky.feed.post",
            record: LexiconUnknownValue(encoding: post))
        let path = created.uri.rawValue.components(separatedBy: "/").suffix(2).joined(separator: "/")
        return Fixture(url: url, handle: handle, session: session, did: archive.did, postPath: path)
    }

    /// Replays the firehose from the start through `client` until the fixture's post is seen; throws
    /// after 60 s (a generous bound: the PDS answers in milliseconds).
    private func seesThePost(through client: XRPCClient, _ fixture: Fixture) async throws {
        let stream = client.com.atproto.sync.subscribeRepos(cursor: 0)
        let path = fixture.postPath
        let found = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await message in stream {
                    if case .comAtprotoSyncSubscribeReposCommit(let commit) = message,
                        commit.ops.contains(where: { $0.path == path })
                    {
                        return true
                    }
                }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                throw TimedOut(description: "the post \(path) did not arrive within 60 s")
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        XCTAssertTrue(found, "the stream ended before \(path) arrived")
    }

    func testThroughTheURLSessionAgent() async throws {
        let fixture = try await fixture()
        try await seesThePost(through: XRPCClient(agent: URLSessionAgent(serviceURL: fixture.url)), fixture)
    }

    func testThroughThePasswordSession() async throws {
        let fixture = try await fixture()
        try await seesThePost(through: XRPCClient(agent: fixture.session), fixture)
    }

    func testThroughTheRetryingAgent() async throws {
        let fixture = try await fixture()
        try await seesThePost(through: XRPCClient(agent: RetryingAgent(wrapping: fixture.session)), fixture)
    }

    /// The PDS-routed client names the account's PDS as the stream's service (before, it named none
    /// and the stream failed with `invalidService`), and forwards the session's credentials for it.
    func testThroughThePDSRoutedClient() async throws {
        let fixture = try await fixture()
        let resolver = StandardIdentityResolver(
            handles: WellKnownHandleResolver(hostOverrides: HostOverrides([fixture.handle: fixture.url])),
            dids: StandardDIDResolver(
                plc: PLCDirectoryResolver(directory: fixture.url.appendingPathComponent("plc")), web: WebDIDResolver()))
        // The session's client, routed by resolution to the account's PDS.
        let routed = try await XRPCClient(agent: fixture.session).forPDS(
            of: ATIdentifier(fixture.did), resolver: resolver)
        let service = await routed.agent.defaultServiceURL()
        XCTAssertNotNil(service)
        try await seesThePost(through: routed, fixture)
    }

    /// The stub agent names the service it was given (before, a stub named none).
    func testThroughTheStubAgent() async throws {
        let fixture = try await fixture()
        let stub = StubAgent(serviceURL: fixture.url) { _ in XRPCResponse(status: 500) }
        try await seesThePost(through: XRPCClient(agent: stub), fixture)
    }
}
