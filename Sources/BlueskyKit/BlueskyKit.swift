// BlueskyKit: the Bluesky app layer over the generated SDK.
//
// What every Bluesky client writes first, done once: rich text (facets are UTF-8 byte ranges over a
// post's text), composing posts with their embeds and gates, and moderation decisions. The generated
// layer (`AtprotoLexicons`) stays free of hand-written Bluesky policy; it lives here.

import AtprotoLexicons

/// Facts about the Bluesky lexicons this module applies its rules to.
public enum BlueskyKitInfo: Sendable {
    /// The collection NSID of the post record whose limits and facets this module applies.
    public static var postCollection: NSID { AppBskyFeedPost.collection }
}
