import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// Walking a collection's pages (an inclusive cursor never repeats a record or loops).
final class PagingAndFeedTests: XCTestCase {
    private static let did = "did:plc:abc"
    private var did: String { Self.did }

    private static func json(_ value: JSONValue) -> XRPCResponse {
        XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: value.serialized())
    }

    private static func record(_ index: Int) -> JSONValue {
        let text: JSONValue = index == 4 ? .integer(4) : .string("post \(index)")  // record 4 is not a post
        return .object([
            "uri": .string("at://\(did)/app.bsky.feed.post/rk\(index)"), "cid": .string("bafyrei\(index)"),
            "value": .object([
                "$type": .string("app.bsky.feed.post"), "text": text, "createdAt": .string("2024-01-01T00:00:00Z"),
            ]),
        ])
    }

    /// listRecords as the test PDS answers it: ascending, the cursor inclusive (the page after
    /// cursor `rkN` starts with record N), the last page's cursor its last record.
    private func inclusiveServer(records: Int, pageSize: Int) -> StubAgent {
        StubAgent { request in
            let cursor = request.queryItems.first { $0.name == "cursor" }?.value
            let start = cursor.flatMap { Int($0.dropFirst(2)) } ?? 1
            let end = min(start + pageSize - 1, records)
            return Self.json(
                .object(["records": .array((start...end).map(Self.record)), "cursor": .string("rk\(end)")]))
        }
    }

    func testRecordPagesDeliverEachRecordOnceAndStopOnTheRepeatedCursor() async throws {
        let agent = inclusiveServer(records: 7, pageSize: 3)
        let client = XRPCClient(agent: agent)
        var texts: [String] = []
        var invalid: [String] = []
        var pageCount = 0
        for try await page in client.recordPages(AppBskyFeedPost.self, repo: ATIdentifier(rawValue: did), limit: 3) {
            pageCount += 1
            texts += page.records.map(\.value.text)
            invalid += page.invalidRecords.map(\.uri.rawValue)
        }
        XCTAssertEqual(texts, ["post 1", "post 2", "post 3", "post 5", "post 6", "post 7"])
        XCTAssertEqual(invalid, ["at://\(did)/app.bsky.feed.post/rk4"], "a bad record is kept apart, once")
        XCTAssertEqual(pageCount, 3, "the fourth page (record 7 again) held nothing new")
        XCTAssertEqual(
            agent.requests.map { $0.queryItems.first { $0.name == "cursor" }?.value },
            [nil, "rk3", "rk5", "rk7"], "rk7 came back as the next cursor: the walk ends")
        XCTAssertTrue(agent.requests.allSatisfy { $0.queryItems.contains(URLQueryItem(name: "limit", value: "3")) })
    }

    func testTheGenericHelperWalksAGeneratedMethodAndItsLimitHolds() async throws {
        let agent = inclusiveServer(records: 100, pageSize: 10)
        let client = XRPCClient(agent: agent)
        var uris: [String] = []
        let pages = client.pages(cursor: \.cursor, maximumPages: 4) { cursor in
            try await client.com.atproto.repo.listRecords(
                repo: "did:plc:abc", collection: "app.bsky.feed.post", cursor: cursor, limit: 10)
        }
        for try await page in pages { uris += page.records.map(\.uri.rawValue) }
        XCTAssertEqual(uris.count, 40, "4 pages of 10, records 10, 19 and 28 twice (the raw pages overlap)")
        XCTAssertEqual(agent.requests.count, 4)
    }
}
