import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// Outputs that are not JSON objects: raw bytes of any type, JSON lines, and no output at all.
final class BodyKindTests: XCTestCase {
    func testAJSONLinesOutputIsKeptAsRawBytesWithItsType() async throws {
        let lines = Data("{\"a\":1}\n{\"b\":2}\n".utf8)
        let agent = StubAgent { _ in
            XRPCResponse(status: 200, headers: ["Content-Type": "application/jsonl"], body: lines)
        }
        let export = try await XRPCClient(agent: agent).chat.bsky.actor.exportAccountData()
        XCTAssertEqual(export.data, lines)
        XCTAssertEqual(export.contentType, "application/jsonl")
    }

    func testABlobOfAnyTypeIsReturnedAsRead() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let agent = StubAgent { _ in XRPCResponse(status: 200, headers: ["content-type": "image/png"], body: bytes) }
        let blob = try await XRPCClient(agent: agent).com.atproto.sync.getBlob(
            did: "did:plc:abc", cid: "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy")
        XCTAssertEqual(blob.data, bytes)
        XCTAssertEqual(blob.contentType, "image/png")
        XCTAssertEqual(agent.requests.first?.method, .get)
    }

    func testAProcedureWithoutOutputAcceptsAnEmptyOrNonJSONSuccessBody() async throws {
        for body in [Data(), Data("OK".utf8), Data("{\"unexpected\": true}".utf8)] {
            let agent = StubAgent { _ in XRPCResponse(status: 200, headers: ["content-type": "text/plain"], body: body)
            }
            let output: AppBskyActorPutPreferences.Output = try await XRPCClient(agent: agent).app.bsky.actor
                .putPreferences(preferences: [])
            XCTAssertEqual(output, XRPCEmptyBody())
            XCTAssertEqual(agent.requests.first?.contentType, "application/json")
        }
    }
}
