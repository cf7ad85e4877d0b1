import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// A success answer that does not decode is a local failure (`invalidOutput`), not a server error.
final class ClientErrorTests: XCTestCase {
    func testUnreadableSuccessAnswerIsInvalidOutputWithTheResponseAndTheCause() async throws {
        let agent = StubAgent(status: 200, json: #"{"feed": 5}"#)
        do {
            _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .invalidOutput)
            XCTAssertEqual(error.nsid, AppBskyFeedGetTimeline.nsid)
            XCTAssertEqual(error.response?.status, 200)
            XCTAssertNil(error.serverError)
            let cause = try XCTUnwrap(error.underlying as? LexiconDecodingError)
            XCTAssertEqual(cause.path.first, "feed")
        }
    }

    func testServerErrorAnswerKeepsTheServersXRPCError() async throws {
        let agent = StubAgent(status: 400, json: #"{"error":"InvalidRequest","message":"no"}"#)
        do {
            _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .serverError)
            XCTAssertEqual(error.serverError?.status, 400)
            XCTAssertEqual(error.serverError?.name, "InvalidRequest")
        }
    }
}
