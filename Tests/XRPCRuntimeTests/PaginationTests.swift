import Foundation
import XCTest
import XRPCTesting

@testable import XRPCCore

/// `XRPCPages`: every page once, in order, ending on the cursors and never looping.
final class PaginationTests: XCTestCase {
    private struct Page: Sendable, Equatable {
        var items: [Int]
        var cursor: String?
    }

    // @unchecked Sendable: `asked` is read and written under `lock`; the pages are `let`s.
    /// Serves the pages of `book` by cursor (`nil` for the first) and records the cursors asked.
    private final class Server: @unchecked Sendable {
        private let lock = NSLock()
        private let book: [String: Page]
        private let first: Page
        private var asked: [String?] = []

        init(first: Page, _ book: [String: Page]) {
            self.first = first
            self.book = book
        }

        var cursors: [String?] { lock.withLock { asked } }

        func fetch(_ cursor: String?) throws -> Page {
            lock.withLock { asked.append(cursor) }
            guard let cursor else { return first }
            guard let page = book[cursor] else { throw URLError(.badServerResponse) }
            return page
        }
    }

    private func collect(_ pages: XRPCPages<Page>) async throws -> [[Int]] {
        var seen: [[Int]] = []
        for try await page in pages { seen.append(page.items) }
        return seen
    }

    private func pages(_ server: Server, start: String? = nil, maximum: Int? = nil) -> XRPCPages<Page> {
        let client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 500) })
        return client.pages(cursor: \.cursor, startingAt: start, maximumPages: maximum) { try server.fetch($0) }
    }

    func testEveryPageArrivesInOrderUntilAPageHasNoCursor() async throws {
        let server = Server(
            first: Page(items: [1, 2], cursor: "a"),
            ["a": Page(items: [3, 4], cursor: "b"), "b": Page(items: [5], cursor: nil)])
        let seen = try await collect(pages(server))
        XCTAssertEqual(seen, [[1, 2], [3, 4], [5]])
        XCTAssertEqual(server.cursors, [nil, "a", "b"])
    }

    func testARepeatedCursorEndsTheSequenceInsteadOfLooping() async throws {
        // An inclusive server: its last page names the cursor it was asked with. A stuck one: an
        // older cursor again.
        let inclusive = Server(
            first: Page(items: [1, 2, 3], cursor: "3"),
            ["3": Page(items: [3, 4, 5], cursor: "5"), "5": Page(items: [5], cursor: "5")])
        let seenInclusive = try await collect(pages(inclusive))
        XCTAssertEqual(seenInclusive, [[1, 2, 3], [3, 4, 5], [5]])
        XCTAssertEqual(inclusive.cursors, [nil, "3", "5"])

        let stuck = Server(
            first: Page(items: [1], cursor: "a"),
            ["a": Page(items: [2], cursor: "b"), "b": Page(items: [3], cursor: "a")])
        let seenStuck = try await collect(pages(stuck))
        XCTAssertEqual(seenStuck, [[1], [2], [3]])
        XCTAssertEqual(stuck.cursors, [nil, "a", "b"], "cursor a was used: no fourth fetch")
    }

    func testAnEmptyCursorEndsAnEmptyPageWithANewCursorDoesNotAndTheLimitHolds() async throws {
        let server = Server(
            first: Page(items: [], cursor: "a"),
            ["a": Page(items: [1], cursor: ""), "z": Page(items: [9], cursor: "y")])
        let seen = try await collect(pages(server))
        XCTAssertEqual(seen, [[], [1]])

        let endless = Server(
            first: Page(items: [0], cursor: "1"),
            (1...50).reduce(into: [:]) { book, index in
                book[String(index)] = Page(items: [index], cursor: index == 50 ? nil : String(index + 1))
            })
        let limited = try await collect(pages(endless, maximum: 3))
        XCTAssertEqual(limited, [[0], [1], [2]])
        XCTAssertEqual(endless.cursors.count, 3)
        let resumed = try await collect(pages(endless, start: "48"))
        XCTAssertEqual(resumed, [[48], [49], [50]])
    }

    func testAFailedFetchEndsTheLoopWithItsError() async throws {
        let server = Server(first: Page(items: [1], cursor: "gone"), [:])
        var iterator = pages(server).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.items, [1])
        do {
            _ = try await iterator.next()
            XCTFail("the missing page should throw")
        } catch {
            XCTAssertEqual((error as? URLError)?.code, .badServerResponse)
        }
        let after = try await iterator.next()
        XCTAssertNil(after, "nothing after the error")
        XCTAssertEqual(server.cursors, [nil, "gone"])
    }
}
