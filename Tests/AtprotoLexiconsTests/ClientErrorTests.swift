import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// A success answer that does not decode is a local failure (`XRPCClientError`), not a server error.
final class ClientErrorTests: XCTestCase {
    func testUnreadableSuccessAnswerIsAClientErrorWithTheResponseAndTheCause() async throws {
        let agent = StubAgent(status: 200, json: #"{"feed": 5}"#)
        do {
            _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
            XCTFail("expected an error")
        } catch let error as XRPCClientError {
            XCTAssertEqual(error.code, .decodingFailed)
            XCTAssertEqual(error.nsid, AppBskyFeedGetTimeline.nsid)
            XCTAssertEqual(error.response?.status, 200)
            let cause = try XCTUnwrap(error.underlying as? LexiconDecodingError)
            XCTAssertEqual(cause.path.first, "feed")
        } catch {
            XCTFail("expected XRPCClientError, got \(type(of: error)): \(error)")
        }
    }

    func testServerErrorAnswerStaysAnXRPCError() async throws {
        let agent = StubAgent(status: 400, json: #"{"error":"InvalidRequest","message":"no"}"#)
        do {
            _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
            XCTFail("expected an error")
        } catch let error as XRPCError {
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(error.name, "InvalidRequest")
        }
    }
}
