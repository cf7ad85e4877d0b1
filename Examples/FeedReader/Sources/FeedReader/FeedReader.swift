import XRPCRuntime

/// The app's own code beside its generated lexicons: the generated types are this module's.
extension ComExampleFeedreaderBookmark {
    /// A bookmark of `post` made now.
    public static func saving(_ post: AppBskyFeedDefs.PostView, note: String? = nil) -> ComExampleFeedreaderBookmark {
        ComExampleFeedreaderBookmark(
            subject: ComAtprotoRepoStrongRef(uri: post.uri, cid: post.cid), createdAt: LexiconDatetime.now(), note: note
        )
    }
}
