import AtprotoLexicons
import Foundation
import FuzzDriver
import XRPCRuntime

// atproto-fuzz-sdk <target> [libFuzzer flags] [corpus folders]: typed decoding through the SDK.
runFuzzer([
    FuzzTarget("record", "AppBskyFeedPost(lexiconJSON:), validated, written back and read again") { bytes in
        guard let json = try? JSONValue.parse(bytes), let post = try? AppBskyFeedPost(lexiconJSON: json) else { return }
        _ = try? post.validate()
        let written = post.lexiconJSON
        fuzzCheck((try? AppBskyFeedPost(lexiconJSON: written)) != nil, "a decoded post does not decode again")
    },
    FuzzTarget("feed-page", "AppBskyFeedGetTimeline.Output(lexiconJSON:), a whole timeline page") { bytes in
        guard let json = try? JSONValue.parse(bytes),
            let page = try? AppBskyFeedGetTimeline.Output(lexiconJSON: json)
        else { return }
        _ = page.lexiconJSON.serialized()
    },
])
