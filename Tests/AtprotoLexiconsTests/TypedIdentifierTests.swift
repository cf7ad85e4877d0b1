import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// Endpoint and collection NSIDs are typed, and the generated constants (wrapped without a syntax
/// check, as literals) are valid NSIDs.
final class TypedIdentifierTests: XCTestCase {
    func testGeneratedCollectionsAreValidNSIDs() {
        let collections = LexiconRecordTypes.bluesky.collections
        XCTAssertFalse(collections.isEmpty)
        for collection in collections {
            XCTAssertNil(NSID.syntaxError(in: collection.rawValue), collection.rawValue)
        }
    }

    func testGeneratedEndpointNSIDsAreTypedAndValid() {
        let endpoints: [NSID] = [
            AppBskyFeedGetTimeline.nsid, ComAtprotoRepoCreateRecord.nsid, ComAtprotoSyncSubscribeRepos.nsid,
        ]
        XCTAssertEqual(
            endpoints.map(\.rawValue),
            [
                "app.bsky.feed.getTimeline", "com.atproto.repo.createRecord", "com.atproto.sync.subscribeRepos",
            ])
        XCTAssertTrue(endpoints.allSatisfy(\.isValid))
    }

    func testRequestsAndServerErrorsCarryTheEndpointNSID() async throws {
        let agent = StubAgent(status: 400, json: #"{"error":"InvalidRequest","message":"no"}"#)
        do {
            _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
            XCTFail("expected an XRPCCallError")
        } catch {
            XCTAssertEqual(error.nsid, AppBskyFeedGetTimeline.nsid)
            XCTAssertEqual(error.serverError?.nsid, AppBskyFeedGetTimeline.nsid)
        }
        XCTAssertEqual(agent.requests.map(\.nsid), [AppBskyFeedGetTimeline.nsid])
        XCTAssertEqual(agent.requests.first?.path, "/xrpc/app.bsky.feed.getTimeline")
    }

    func testRepoOperationSplitsItsPathIntoTypedParts() {
        let operation = RepoOperation(action: .create, path: "app.bsky.feed.post/3jzfcijpj2z2a", cid: nil, record: nil)
        XCTAssertEqual(operation.collection, AppBskyFeedPost.collection)
        XCTAssertEqual(operation.recordKey, RecordKey(rawValue: "3jzfcijpj2z2a"))
    }
}
