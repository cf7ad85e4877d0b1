#if SwiftCryptoSigner
    import AtprotoIdentityResolution
    import AtprotoOAuth
    import Foundation
    import OAuthCore
    import XCTest
    import XRPCRuntime

    /// `com.atproto.sync.subscribeRepos` through an OAuth session against the shared PDS (skipped unless
    /// ATPROTO_PDS_URL is set): the session names its account's PDS as the stream's service and signs the
    /// upgrade with a DPoP proof; the PDS-routed client over it does the same.
    final class OAuthSubscriptionTests: XCTestCase {
        /// The firehose as its frames come, each message kept as JSON (no generated SDK here).
        enum SubscribeRepos: XRPCSubscription {
            static let nsid: NSID = "com.atproto.sync.subscribeRepos"
            typealias Parameters = XRPCNoParameters
            typealias Message = LexiconUnknownValue
            typealias Error = XRPCUndeclaredError
        }

        private struct TimedOut: Swift.Error {}

        /// Writes a post through `session` and returns its repo path (`collection/rkey`).
        private func writePost(_ session: OAuthSession, did: DID) async throws -> String {
            let record =
                #"{"repo":"\#(did.rawValue)","collection":"app.bsky.feed.post","record":{"$type":"app.bsky.feed.post","text":"stream \#(UUID().uuidString)","createdAt":"2026-11-25T00:00:00.000Z"}}"#
            let created = try await session.send(
                XRPCRequest(
                    method: .post, nsid: "com.atproto.repo.createRecord", body: Data(record.utf8),
                    contentType: "application/json"))
            XCTAssertEqual(created.status, 200, String(decoding: created.body, as: UTF8.self))
            let uri = try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["uri"] as? String)
            return uri.components(separatedBy: "/").suffix(2).joined(separator: "/")
        }

        /// Replays the firehose from the start through `client` until a commit holds `path`.
        private func seesCommit(of path: String, through client: XRPCClient) async throws {
            var parameters = XRPCNoParameters()
            parameters.unknownFields["cursor"] = .integer(0)
            let stream = client.subscribe(SubscribeRepos.self, parameters: parameters)
            let found = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for try await message in stream {
                        guard case .array(let operations)? = message.json.objectValue?["ops"] else { continue }
                        if operations.contains(where: { $0.objectValue?["path"]?.stringValue == path }) { return true }
                    }
                    return false
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(60))
                    throw TimedOut()
                }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
            XCTAssertTrue(found, "the stream ended before \(path) arrived")
        }

        func testTheFirehoseThroughAnOAuthSession() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let did = try await currentArchive(of: session).did
            let path = try await writePost(session, did: did)
            let service = await session.defaultServiceURL()
            XCTAssertEqual(service.map(SecureURL.origin(of:)), SecureURL.origin(of: pds.url))
            try await seesCommit(of: path, through: XRPCClient(agent: session))
        }

        func testTheFirehoseThroughThePDSRoutedClientOfAnOAuthSession() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let did = try await currentArchive(of: session).did
            let path = try await writePost(session, did: did)
            let routed = try await XRPCClient(agent: session).forPDS(of: ATIdentifier(did), resolver: pds.resolver)
            try await seesCommit(of: path, through: routed)
        }
    }
#endif  // SwiftCryptoSigner
