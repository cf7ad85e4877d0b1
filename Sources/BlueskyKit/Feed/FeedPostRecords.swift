import AppBskyLexicons
import ComAtprotoLexicons
import Foundation

extension AppBskyFeedDefs.PostView {
    /// The post's `record` (an `unknown` in the lexicon) decoded as an `app.bsky.feed.post`.
    ///
    /// Throws `LexiconDecodingError` when it is not one; never because of a lexicon constraint.
    public func postRecord() throws -> AppBskyFeedPost {
        try AppBskyFeedPost(lexiconJSON: record.json)
    }
}

/// A post of a feed with its record decoded.
public struct FeedPost: Sendable, Hashable {
    /// The post as the feed shows it: author, counts, embeds, viewer state.
    public var view: AppBskyFeedDefs.PostView
    /// Its record: text, facets, reply, embed, languages, `createdAt`.
    public var record: AppBskyFeedPost

    /// Pairs a post with its record.
    public init(view: AppBskyFeedDefs.PostView, record: AppBskyFeedPost) {
        self.view = view
        self.record = record
    }
}

/// A post whose record does not decode as an `app.bsky.feed.post`, with the reason.
public struct InvalidFeedPost: Sendable, Hashable, CustomStringConvertible {
    /// The post as the feed shows it; its `record` is the value as read.
    public var view: AppBskyFeedDefs.PostView
    /// Why the record does not decode.
    public var error: LexiconDecodingError

    /// Pairs a post with the reason its record does not decode.
    public init(view: AppBskyFeedDefs.PostView, error: LexiconDecodingError) {
        self.view = view
        self.error = error
    }

    /// The post's URI and the reason.
    public var description: String { "post \(view.uri.rawValue): \(error)" }
}

/// The posts of a feed page with their records decoded, the ones that decode and the ones that do
/// not apart: one odd record never loses the page.
///
/// ```swift
/// let page = try await client.app.bsky.feed.getTimeline(limit: 50)
/// let posts = page.feed.postRecords()
/// for post in posts.posts { print(post.view.author.handle, post.record.text) }
/// for bad in posts.invalid { print(bad) }
/// ```
public struct FeedPostRecords: Sendable, Hashable {
    /// The posts whose records decode, in feed order.
    public var posts: [FeedPost]
    /// The posts whose records do not, in feed order.
    public var invalid: [InvalidFeedPost]

    /// Decodes the record of each of `views`.
    public init(_ views: some Sequence<AppBskyFeedDefs.PostView>) {
        posts = []
        invalid = []
        for view in views {
            do {
                posts.append(FeedPost(view: view, record: try view.postRecord()))
            } catch {
                let reason = error as? LexiconDecodingError ?? LexiconDecodingError(message: "\(error)")
                invalid.append(InvalidFeedPost(view: view, error: reason))
            }
        }
    }
}

extension Sequence where Element == AppBskyFeedDefs.FeedViewPost {
    /// The records of the feed's posts (`getTimeline`, `getAuthorFeed`, `getFeed`, `getListFeed`,
    /// `getActorLikes`), decoded; see ``FeedPostRecords``.
    public func postRecords() -> FeedPostRecords {
        FeedPostRecords(map(\.post))
    }
}

extension Sequence where Element == AppBskyFeedDefs.PostView {
    /// The records of the posts (`searchPosts`, `getPosts`, `getQuotes`), decoded; see
    /// ``FeedPostRecords``.
    public func postRecords() -> FeedPostRecords {
        FeedPostRecords(self)
    }
}
