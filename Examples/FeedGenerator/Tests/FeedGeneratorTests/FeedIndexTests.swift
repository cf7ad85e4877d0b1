import AtprotoLexicons
import FeedGenerator
import Foundation
import XCTest

/// The index: the rule, newest first, pages without repeats or gaps, bounded.
final class FeedIndexTests: XCTestCase {
    func post(_ text: String) -> AppBskyFeedPost {
        AppBskyFeedPost(text: text, createdAt: LexiconDatetime.now())
    }

    func uri(_ n: Int) -> ATURI { ATURI(rawValue: "at://did:plc:a/app.bsky.feed.post/\(n)") }

    func testTheRuleSelectsWholeWordsIgnoringCase() async {
        let index = FeedIndex(rule: FeedIndex.containing(word: "swift"))
        let kept = await index.consider(post("Writing Swift today"), at: uri(1))
        let notKept = await index.consider(post("swiftly done"), at: uri(2))
        XCTAssertTrue(kept)
        XCTAssertFalse(notKept)
        let count = await index.count
        XCTAssertEqual(count, 1)
    }

    func testAPostDeliveredAgainIsNotCountedTwice() async throws {
        let index = FeedIndex(rule: { _ in true })
        let added = await index.consider(post("p"), at: uri(1))
        let again = await index.consider(post("p"), at: uri(1))
        XCTAssertTrue(added)
        XCTAssertFalse(again)
        let uris = try await index.page(limit: 10, cursor: nil).uris
        XCTAssertEqual(uris, [uri(1)])
    }

    func testAStateRestoredIntoANewIndexKeepsItsPostsAndPositions() async throws {
        let index = FeedIndex(rule: { _ in true })
        for n in 1...3 { await index.consider(post("p"), at: uri(n)) }
        let first = try await index.page(limit: 2, cursor: nil)
        let state = try JSONDecoder().decode(FeedIndex.State.self, from: JSONEncoder().encode(await index.state))
        let restored = FeedIndex(rule: { _ in true })
        await restored.restore(state)
        await restored.consider(post("p"), at: uri(4))
        let second = try await restored.page(limit: 2, cursor: first.cursor)  // a cursor of the old index
        XCTAssertEqual(second.uris, [uri(1)])
        let all = try await restored.page(limit: 10, cursor: nil).uris
        XCTAssertEqual(all, [uri(4), uri(3), uri(2), uri(1)])
    }

    func testPagesAreNewestFirstAndResumeAfterTheCursor() async throws {
        let index = FeedIndex(rule: { _ in true })
        for n in 1...5 { await index.consider(post("p"), at: uri(n)) }
        let first = try await index.page(limit: 2, cursor: nil)
        XCTAssertEqual(first.uris, [uri(5), uri(4)])
        await index.consider(post("p"), at: uri(6))  // a new post between pages
        let second = try await index.page(limit: 2, cursor: first.cursor)
        XCTAssertEqual(second.uris, [uri(3), uri(2)])
        let last = try await index.page(limit: 2, cursor: second.cursor)
        XCTAssertEqual(last.uris, [uri(1)])
        XCTAssertNil(last.cursor)
        do {
            _ = try await index.page(limit: 2, cursor: "nonsense")
            XCTFail("a foreign cursor was taken")
        } catch {}
    }

    func testTheIndexKeepsAtMostItsCapacity() async throws {
        let index = FeedIndex(capacity: 3, rule: { _ in true })
        for n in 1...5 { await index.consider(post("p"), at: uri(n)) }
        let page = try await index.page(limit: 10, cursor: nil)
        XCTAssertEqual(page.uris, [uri(5), uri(4), uri(3)])
        await index.remove(uri(4))
        let after = try await index.page(limit: 10, cursor: nil)
        XCTAssertEqual(after.uris, [uri(5), uri(3)])
    }
}
