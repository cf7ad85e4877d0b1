import Foundation

/// Every page of a cursor-paginated call, as an `AsyncSequence`: each page is fetched when the loop
/// asks for it, with the cursor of the page before.
///
/// ```swift
/// let pages = client.pages(cursor: \.cursor) { cursor in
///     try await client.com.atproto.repo.listRecords(repo: did, collection: "app.bsky.feed.post", cursor: cursor)
/// }
/// for try await page in pages { for record in page.records { print(record.uri) } }
/// ```
///
/// The sequence ends after a page without a cursor (or with an empty one), after a page whose cursor
/// was already used (a server whose cursor is inclusive, or one that is stuck, never makes it loop),
/// after ``maximumPages`` pages, or when the fetch throws (the error ends the loop). A page that is
/// empty but has a new cursor does not end it: some services page over items they then filter out.
public struct XRPCPages<Page: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Page
    public typealias Failure = any Error

    /// The cursor of the first fetch; `nil` starts at the beginning.
    public let startCursor: String?
    /// The most pages fetched; `nil` for no limit other than the cursors'.
    public let maximumPages: Int?
    private let fetch: @Sendable (String?) async throws -> Page
    private let cursorOf: @Sendable (Page) -> String?

    /// Pages fetched by `fetch` (given the cursor, `nil` for the first page), whose next cursor
    /// `cursorOf` reads.
    public init(
        startingAt startCursor: String? = nil,
        maximumPages: Int? = nil,
        cursorOf: @escaping @Sendable (Page) -> String?,
        fetch: @escaping @Sendable (String?) async throws -> Page
    ) {
        self.startCursor = startCursor
        self.maximumPages = maximumPages
        self.fetch = fetch
        self.cursorOf = cursorOf
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// Fetches one page per call to `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        private let pages: XRPCPages
        private var cursor: String?
        private var usedCursors: Set<String> = []
        private var fetched = 0
        private var finished = false

        init(pages: XRPCPages) {
            self.pages = pages
            self.cursor = pages.startCursor
        }

        /// The next page, or `nil` once the cursors (or ``XRPCPages/maximumPages``) say there is none.
        public mutating func next() async throws -> Page? {
            guard !finished else { return nil }
            if let maximum = pages.maximumPages, fetched >= maximum {
                finished = true
                return nil
            }
            if let cursor { usedCursors.insert(cursor) }
            let page: Page
            do {
                page = try await pages.fetch(cursor)
            } catch {
                finished = true
                throw error
            }
            fetched += 1
            let next = pages.cursorOf(page)
            if let next, !next.isEmpty, !usedCursors.contains(next) {
                cursor = next
            } else {
                finished = true
            }
            return page
        }
    }
}

extension XRPCClient {
    /// Every page of a cursor-paginated call, fetched as the loop asks; see ``XRPCPages``.
    ///
    /// ```swift
    /// for try await page in client.pages(cursor: \.cursor, { cursor in
    ///     try await client.app.bsky.graph.getFollows(actor: "alice.test", limit: 100, cursor: cursor)
    /// }) {
    ///     for follow in page.follows { print(follow.handle) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - cursor: Where the next cursor is in a page: the `cursor` field of the call's output.
    ///   - startCursor: The cursor of the first fetch; `nil` starts at the beginning.
    ///   - maximumPages: The most pages fetched; `nil` for no limit other than the cursors'.
    ///   - fetch: Fetches the page at a cursor (`nil` for the first page).
    public func pages<Page: Sendable>(
        cursor: KeyPath<Page, String?> & Sendable,
        startingAt startCursor: String? = nil,
        maximumPages: Int? = nil,
        _ fetch: @escaping @Sendable (String?) async throws -> Page
    ) -> XRPCPages<Page> {
        XRPCPages(
            startingAt: startCursor, maximumPages: maximumPages, cursorOf: { $0[keyPath: cursor] }, fetch: fetch)
    }
}
