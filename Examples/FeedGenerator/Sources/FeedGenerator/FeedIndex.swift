import AtprotoLexicons
import Foundation

/// The posts a feed shows: those its rule selected, newest first, at most `capacity` of them.
///
/// Pages are cut by a cursor that is the position of the last post shown, so posts indexed between
/// two pages neither repeat nor hide older ones.
public actor FeedIndex {
    /// Whether a post belongs in the feed.
    public typealias Rule = @Sendable (AppBskyFeedPost) -> Bool

    struct Entry {
        let position: Int
        let uri: ATURI
    }

    /// The most posts kept; the oldest go first.
    public let capacity: Int
    let rule: Rule
    private var entries: [Entry] = []
    private var nextPosition = 1

    /// An empty index keeping what `rule` selects.
    public init(capacity: Int = 10_000, rule: @escaping Rule) {
        self.capacity = max(1, capacity)
        self.rule = rule
    }

    /// A rule that selects posts whose text contains `word` as a whole word, ignoring case.
    public static func containing(word: String) -> Rule {
        let wanted = word.lowercased()
        return { post in
            post.text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0 == wanted }
        }
    }

    /// Adds `post` at `uri` when the rule selects it; returns whether it did.
    @discardableResult
    public func consider(_ post: AppBskyFeedPost, at uri: ATURI) -> Bool {
        guard rule(post) else { return false }
        entries.append(Entry(position: nextPosition, uri: uri))
        nextPosition += 1
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        return true
    }

    /// Removes a deleted post.
    public func remove(_ uri: ATURI) {
        entries.removeAll { $0.uri == uri }
    }

    /// How many posts are held.
    public var count: Int { entries.count }

    /// Up to `limit` posts older than `cursor` (all when `nil`), newest first, and the cursor of the
    /// next page (`nil` on the last one).
    ///
    /// - Throws: ``CursorError`` for a cursor this index did not give.
    public func page(limit: Int, cursor: String?) throws -> (uris: [ATURI], cursor: String?) {
        var before = Int.max
        if let cursor {
            guard let position = Int(cursor), position > 0 else { throw CursorError() }
            before = position
        }
        var uris: [ATURI] = []
        var last: Int?
        for entry in entries.reversed() where entry.position < before {
            guard uris.count < limit else { break }
            uris.append(entry.uri)
            last = entry.position
        }
        let more = last.map { oldest in entries.contains { $0.position < oldest } } ?? false
        return (uris, more ? last.map(String.init) : nil)
    }

    /// A cursor that is not a position this index gives.
    public struct CursorError: Error {}
}
