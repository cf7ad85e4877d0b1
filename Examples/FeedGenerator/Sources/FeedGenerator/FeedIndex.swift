import AtprotoLexicons
import Foundation

/// The posts a feed shows: those its rule selected, newest first, at most `capacity` of them.
///
/// Pages are cut by a cursor that is the position of the last post shown, so posts indexed between
/// two pages neither repeat nor hide older ones.
public actor FeedIndex {
    /// Whether a post belongs in the feed.
    public typealias Rule = @Sendable (AppBskyFeedPost) -> Bool

    struct Entry: Codable {
        let position: Int
        let uri: ATURI
    }

    /// What the index holds, for a checkpoint (``FeedCheckpoint``): its posts and the next position.
    public struct State: Codable, Sendable {
        var entries: [Entry]
        var nextPosition: Int
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

    /// What the index holds now.
    public var state: State { State(entries: entries, nextPosition: nextPosition) }

    /// Replaces what the index holds with `state` (read from a checkpoint), cut to `capacity`.
    public func restore(_ state: State) {
        entries = Array(state.entries.suffix(capacity))
        nextPosition = max(state.nextPosition, (entries.last?.position ?? 0) + 1)
    }

    /// Adds `post` at `uri` when the rule selects it and the index does not hold `uri` yet (an event
    /// delivered again after a restart is not counted twice); returns whether it added it.
    @discardableResult
    public func consider(_ post: AppBskyFeedPost, at uri: ATURI) -> Bool {
        guard rule(post), !entries.contains(where: { $0.uri == uri }) else { return false }
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
