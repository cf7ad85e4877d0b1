import ComAtprotoLexicons
import Foundation
import XRPCCore

extension XRPCClient {
    /// Every page of the records of the collection of `type` in `repo`, fetched as the loop asks
    /// (`com.atproto.repo.listRecords` with each page's cursor); see ``RecordPages``.
    ///
    /// ```swift
    /// for try await page in client.recordPages(AppBskyFeedPost.self, repo: repo, limit: 100) {
    ///     for record in page.records { print(record.uri, record.value.text) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The record type; it names the collection.
    ///   - repo: The repository: the account's DID or handle.
    ///   - limit: Records per page (1-100); the server's default (50) when `nil`.
    ///   - reverse: Lists in the other order.
    ///   - validating: Whether records must also pass their lexicon's rules to count as valid.
    ///   - maximumPages: The most pages fetched; `nil` for no limit other than the cursors'.
    public func recordPages<R: LexiconRecord>(
        _ type: R.Type,
        repo: ATIdentifier,
        limit: Int? = nil,
        reverse: Bool? = nil,
        validating: Bool = true,
        maximumPages: Int? = nil
    ) -> RecordPages<R> {
        let client = self
        return RecordPages(
            pages: pages(cursor: \.cursor, maximumPages: maximumPages) { cursor in
                try await client.listRecords(
                    R.self, repo: repo, limit: limit, cursor: cursor, reverse: reverse, validating: validating)
            })
    }
}

/// The pages of a collection's records (`XRPCClient.recordPages(_:repo:limit:reverse:validating:maximumPages:)`),
/// each record once.
///
/// Some servers read the cursor inclusively, so a page starts with the last record of the page
/// before; such repeats are dropped (valid and invalid records alike), and a page left empty by
/// that is not delivered. The sequence ends as `XRPCPages` does: no cursor, a cursor already
/// used, the page limit, or an error.
public struct RecordPages<Record: LexiconRecord>: AsyncSequence, Sendable {
    public typealias Element = RecordPage<Record>
    public typealias Failure = any Error

    private let pages: XRPCPages<RecordPage<Record>>

    init(pages: XRPCPages<RecordPage<Record>>) {
        self.pages = pages
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// Fetches pages and drops the records the page before already had.
    public struct Iterator: AsyncIteratorProtocol {
        private var pages: XRPCPages<RecordPage<Record>>.Iterator
        private var previous: Set<String> = []

        init(pages: XRPCPages<RecordPage<Record>>.Iterator) {
            self.pages = pages
        }

        /// The next page with at least one record not seen on the page before, or `nil` at the end.
        public mutating func next() async throws -> RecordPage<Record>? {
            while var page = try await pages.next() {
                let uris = Set(page.records.map(\.uri.rawValue) + page.invalidRecords.map(\.uri.rawValue))
                let seen = previous
                previous = uris
                page.records.removeAll { seen.contains($0.uri.rawValue) }
                page.invalidRecords.removeAll { seen.contains($0.uri.rawValue) }
                if !page.records.isEmpty || !page.invalidRecords.isEmpty || seen.isEmpty { return page }
            }
            return nil
        }
    }
}
