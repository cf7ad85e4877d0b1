import AtprotoLexicons
import Foundation
import XCTest

/// Walking listRecords against the PDS, whose cursor is inclusive: every record once, and the walk
/// ends on its own.
final class PaginationIntegrationTests: XCTestCase {
    func testTheGenericWalkOfAFreshCollectionEndsAndSeesEveryRecord() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        let letters = "abcdefghijklmnopqrstuvwxyz"
        let suffix = String((0..<10).compactMap { _ in letters.randomElement() })
        let collection = NSID(rawValue: "com.example.paging.c\(suffix)")
        var created: Set<String> = []
        for index in 0..<5 {
            let output = try await client.com.atproto.repo.createRecord(
                repo: account.repo, collection: collection,
                record: LexiconUnknownValue(.object(["$type": .string(collection.rawValue), "n": .integer(index)])),
                rkey: RecordKey(rawValue: TID.next().rawValue))
            created.insert(output.uri.rawValue)
        }
        var seen: [String] = []
        var pageCount = 0
        let pages = client.pages(cursor: \.cursor, maximumPages: 50) { cursor in
            try await client.com.atproto.repo.listRecords(
                repo: account.repo, collection: collection, cursor: cursor, limit: 2)
        }
        for try await page in pages {
            pageCount += 1
            seen += page.records.map(\.uri.rawValue)
        }
        XCTAssertEqual(Set(seen), created)
        XCTAssertLessThan(pageCount, 50, "the walk ended on the cursors, not on the limit")
        XCTAssertLessThanOrEqual(pageCount, 5, "5 records, 2 a page, overlapping by one: at most 5 pages")
    }

    func testRecordPagesOfThePostCollectionHoldEachRecordOnce() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        var keys: [String] = []
        for index in 0..<3 {
            let rkey = RecordKey(rawValue: TID.next().rawValue)
            try await client.createRecord(
                AppBskyFeedPost(text: "paged \(index)", createdAt: LexiconDatetime.now()), repo: account.repo,
                rkey: rkey)
            keys.append(rkey.rawValue)
        }
        var counts: [String: Int] = [:]
        var pageCount = 0
        for try await page in client.recordPages(
            AppBskyFeedPost.self, repo: account.repo, limit: 50, maximumPages: 2_000)
        {
            pageCount += 1
            for uri in page.records.map(\.uri) + page.invalidRecords.map(\.uri) {
                counts[uri.rkey?.rawValue ?? uri.rawValue, default: 0] += 1
            }
        }
        XCTAssertLessThan(pageCount, 2_000, "the walk ended on the cursors")
        XCTAssertEqual(counts.filter { $0.value > 1 }, [:], "no record twice, though the raw pages overlap")
        for key in keys { XCTAssertEqual(counts[key], 1, "record \(key)") }
    }
}
