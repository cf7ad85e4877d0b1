import Foundation

/// Builds a realistic `app.bsky.feed.getTimeline` page: posts with authors, facets, embeds (images,
/// external links, quoted records, record-with-media), labels, viewer state, replies and reposts.
enum TimelinePage {
    static func json(posts: Int) -> String {
        let items = (0..<posts).map { feedItem($0) }
        return #"{"cursor": "3l2pqjgkz7k2a", "feed": ["# + items.joined(separator: ",\n") + "]}"
    }

    private static func did(_ index: Int) -> String {
        "did:plc:"
            + String(String(index * 7_919 + 104_729, radix: 32).reversed()).padding(
                toLength: 24, withPad: "q", startingAt: 0)
    }

    private static let cid = "bafyreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"
    private static let blobCID = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"

    private static func text(_ index: Int) -> String {
        let words = [
            "atproto", "lexicons", "swift", "the", "firehose", "is", "busy", "today", "and", "every", "post",
            "carries", "facets", "embeds", "labels", "🦋", "ünïcödé", "résumé", "#buildinpublic", "@alice.test",
        ]
        return (0..<(30 + index % 25)).map { words[($0 * 7 + index) % words.count] }.joined(separator: " ")
    }

    private static func author(_ index: Int) -> String {
        """
        {"did": "\(did(index))", "handle": "user\(index).bsky.social", "displayName": "User Number \(index) ✨",
         "avatar": "https://cdn.bsky.app/img/avatar/plain/\(did(index))/\(blobCID)@jpeg",
         "associated": {"chat": {"allowIncoming": "following"}, "activitySubscription": {"allowSubscriptions": "followers"}},
         "viewer": {"muted": false, "blockedBy": false, "following": "at://\(did(0))/app.bsky.graph.follow/3k\(index)abc"},
         "labels": [\(index % 3 == 0 ? label(index, uri: "at://\(did(index))/app.bsky.actor.profile/self") : "")],
         "createdAt": "2023-04-\(10 + index % 18)T12:34:56.789Z",
         "verification": {"verifications": [], "verifiedStatus": "none", "trustedVerifierStatus": "none"}}
        """
    }

    private static func label(_ index: Int, uri: String) -> String {
        """
        {"ver": 1, "src": "did:plc:ar7c4by46qjdydhdevvrndac", "uri": "\(uri)", "cid": "\(cid)",
         "val": "\(["porn", "sexual", "graphic-media", "!warn"][index % 4])", "cts": "2024-06-01T10:00:00.000Z",
         "sig": {"$bytes": "fGxNdEsK3WjxB3nLD8KeHcoDqQSBZXP1xOzj4T5r1bkkJjmm0G3U3k5JzH8t1YGbTRn1H+uZ+O0mdX0Pw2Aapg"}}
        """
    }

    private static func facets(_ index: Int) -> String {
        """
        [{"index": {"byteStart": 0, "byteEnd": 7}, "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": "atproto"}]},
         {"index": {"byteStart": 8, "byteEnd": 20}, "features": [{"$type": "app.bsky.richtext.facet#mention", "did": "\(did(index + 1))"}]},
         {"index": {"byteStart": 21, "byteEnd": 40}, "features": [{"$type": "app.bsky.richtext.facet#link", "uri": "https://example.com/\(index)"}]}]
        """
    }

    private static func image(_ index: Int) -> (record: String, view: String) {
        let record = """
            {"alt": "A photo of item \(index), a description for screen readers", "aspectRatio": {"width": 1200, "height": 800},
             "image": {"$type": "blob", "ref": {"$link": "\(blobCID)"}, "mimeType": "image/jpeg", "size": \(200_000 + index)}}
            """
        let view = """
            {"thumb": "https://cdn.bsky.app/img/feed_thumbnail/plain/\(did(index))/\(blobCID)@jpeg",
             "fullsize": "https://cdn.bsky.app/img/feed_fullsize/plain/\(did(index))/\(blobCID)@jpeg",
             "alt": "A photo of item \(index), a description for screen readers", "aspectRatio": {"width": 1200, "height": 800}}
            """
        return (record, view)
    }

    private static func embeds(_ index: Int) -> (record: String, view: String)? {
        switch index % 5 {
        case 0, 1:
            let images = (0...(index % 4)).map { image(index * 4 + $0) }
            return (
                #"{"$type": "app.bsky.embed.images", "images": ["# + images.map(\.record).joined(separator: ",") + "]}",
                #"{"$type": "app.bsky.embed.images#view", "images": ["# + images.map(\.view).joined(separator: ",")
                    + "]}"
            )
        case 2:
            let external = """
                "uri": "https://news.example.com/story/\(index)", "title": "A headline about item \(index)",
                "description": "A longer summary of the linked page that goes on for a sentence or two."
                """
            return (
                #"{"$type": "app.bsky.embed.external", "external": {"# + external
                    + #", "thumb": {"$type": "blob", "ref": {"$link": "\#(blobCID)"}, "mimeType": "image/jpeg", "size": 5000}}}"#,
                #"{"$type": "app.bsky.embed.external#view", "external": {"# + external
                    + #", "thumb": "https://cdn.bsky.app/img/thumb/\#(index)@jpeg"}}"#
            )
        case 3:
            let quoted = "at://\(did(index + 3))/app.bsky.feed.post/3kq\(index)"
            return (
                #"{"$type": "app.bsky.embed.record", "record": {"uri": "\#(quoted)", "cid": "\#(cid)"}}"#,
                """
                {"$type": "app.bsky.embed.record#view", "record": {"$type": "app.bsky.embed.record#viewRecord",
                 "uri": "\(quoted)", "cid": "\(cid)", "author": \(author(index + 3)),
                 "value": {"$type": "app.bsky.feed.post", "text": "\(text(index + 3))", "createdAt": "2024-05-01T08:00:00.000Z"},
                 "labels": [], "likeCount": \(index), "replyCount": 2, "repostCount": 1, "quoteCount": 0,
                 "indexedAt": "2024-05-01T08:00:01.000Z"}}
                """
            )
        default:
            return nil
        }
    }

    private static func post(_ index: Int) -> String {
        let uri = "at://\(did(index))/app.bsky.feed.post/3kz\(index)xyz"
        let embed = embeds(index)
        let record = """
            {"$type": "app.bsky.feed.post", "text": "\(text(index))", "langs": ["en"], "facets": \(facets(index)),
             \(embed.map { #""embed": \#($0.record), "# } ?? "")"createdAt": "2024-06-\(10 + index % 18)T09:\(10 + index % 50):00.000Z"}
            """
        return """
            {"uri": "\(uri)", "cid": "\(cid)", "author": \(author(index)), "record": \(record),
             \(embed.map { #""embed": \#($0.view), "# } ?? "")"replyCount": \(index % 7), "repostCount": \(index % 11),
             "likeCount": \(index * 13 % 500), "quoteCount": \(index % 3), "bookmarkCount": 0,
             "indexedAt": "2024-06-\(10 + index % 18)T09:\(10 + index % 50):01.000Z",
             "viewer": {"like": \(index % 2 == 0 ? #""at://\#(did(0))/app.bsky.feed.like/3l\#(index)""# : "null"), "threadMuted": false,
                        "replyDisabled": false, "embeddingDisabled": false, "pinned": false, "bookmarked": false},
             "labels": [\(index % 4 == 0 ? label(index, uri: uri) : "")]}
            """.replacingOccurrences(of: #""like": null, "#, with: "")
    }

    private static func feedItem(_ index: Int) -> String {
        var item = #"{"post": "# + post(index)
        if index % 6 == 1 {
            item +=
                #", "reply": {"root": {"$type": "app.bsky.feed.defs#postView", "#
                + post(index + 1000).dropFirst() + #", "parent": {"$type": "app.bsky.feed.defs#postView", "#
                + post(index + 2000).dropFirst() + "}"
        }
        if index % 8 == 3 {
            item +=
                #", "reason": {"$type": "app.bsky.feed.defs#reasonRepost", "by": "# + author(index + 5)
                + #", "indexedAt": "2024-06-12T00:00:00.000Z"}"#
        }
        return item + "}"
    }
}
