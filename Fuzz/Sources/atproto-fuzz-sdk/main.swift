import BlueskyKit
import Foundation
import FuzzDriver

// atproto-fuzz-sdk <target> [libFuzzer flags] [corpus folders]: typed decoding through the SDK.
runFuzzer([
    FuzzTarget("record", "AppBskyFeedPost from the text and through a tree, validated, written back, read again") {
        bytes in
        let direct = try? LexiconDecoder().decode(AppBskyFeedPost.self, from: Data(bytes))
        guard let json = try? JSONValue.parse(bytes), let post = try? AppBskyFeedPost(lexiconJSON: json) else {
            fuzzCheck(direct == nil, "the text path decodes a post the tree path rejects")
            return
        }
        fuzzCheck(direct?.lexiconJSON == post.lexiconJSON, "the text and tree paths decode a post differently")
        _ = try? post.validate()
        let written = post.lexiconJSON
        fuzzCheck((try? AppBskyFeedPost(lexiconJSON: written)) != nil, "a decoded post does not decode again")
    },
    FuzzTarget("feed-page", "AppBskyFeedGetTimeline.Output from the text and through a tree, a whole page") { bytes in
        let direct = try? LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: Data(bytes))
        guard let json = try? JSONValue.parse(bytes),
            let page = try? AppBskyFeedGetTimeline.Output(lexiconJSON: json)
        else {
            fuzzCheck(direct == nil, "the text path decodes a page the tree path rejects")
            return
        }
        fuzzCheck(direct?.lexiconJSON == page.lexiconJSON, "the text and tree paths decode a page differently")
        _ = page.lexiconJSON.serialized()
    },
])
