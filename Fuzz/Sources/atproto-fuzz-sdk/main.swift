import BlueskyKit
import Foundation
import FuzzDriver
import XRPCServer

// atproto-fuzz-sdk <target> [libFuzzer flags] [corpus folders]: typed decoding through the SDK.
runFuzzer([
    FuzzTarget(
        "record", "AppBskyFeedPost from the text and through a tree, validated, written back both ways, read again"
    ) {
        bytes in
        let direct = try? LexiconDecoder().decode(AppBskyFeedPost.self, from: Data(bytes))
        guard let json = try? JSONValue.parse(bytes), let post = try? AppBskyFeedPost(lexiconJSON: json) else {
            fuzzCheck(direct == nil, "the text path decodes a post the tree path rejects")
            return
        }
        fuzzCheck(direct?.lexiconJSON == post.lexiconJSON, "the text and tree paths decode a post differently")
        _ = try? post.validate()
        let written = post.lexiconJSON
        fuzzCheck(
            LexiconEncoder().encode(post) == written.serialized(),
            "a post written as text is not its JSON form serialized")
        fuzzCheck((try? AppBskyFeedPost(lexiconJSON: written)) != nil, "a decoded post does not decode again")
    },
    FuzzTarget(
        "feed-page",
        "AppBskyFeedGetTimeline.Output from the text and through a tree, a whole page, written back both ways"
    ) { bytes in
        let direct = try? LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: Data(bytes))
        guard let json = try? JSONValue.parse(bytes),
            let page = try? AppBskyFeedGetTimeline.Output(lexiconJSON: json)
        else {
            fuzzCheck(direct == nil, "the text path decodes a page the tree path rejects")
            return
        }
        fuzzCheck(direct?.lexiconJSON == page.lexiconJSON, "the text and tree paths decode a page differently")
        fuzzCheck(
            LexiconEncoder().encode(page) == page.lexiconJSON.serialized(),
            "a page written as text is not its JSON form serialized")
    },
    FuzzTarget(
        "frame-writing",
        "a firehose frame's message decoded into its generated type, written back as a frame from the type and "
            + "through its JSON form: the same bytes, or an error both ways"
    ) { bytes in
        let nsid: NSID = "com.atproto.sync.subscribeRepos"
        guard let frame = try? XRPCEventFrame(decoding: bytes), let body = frame.messageDataModel(nsid: nsid),
            let message = try? LexiconDecoder().decode(ComAtprotoSyncSubscribeRepos.Message.self, fromDataModel: body)
        else { return }
        let typed = try? XRPCEventFrameEncoder.message(message, nsid: nsid)
        let throughJSON = try? XRPCEventFrameEncoder.message(message.lexiconJSON, nsid: nsid)
        fuzzCheck(typed == throughJSON, "a frame written from the type differs from the one through JSON")
    },
])
