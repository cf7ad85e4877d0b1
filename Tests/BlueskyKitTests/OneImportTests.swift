import BlueskyKit
import XCTest

/// `import BlueskyKit` is the one import a Bluesky client takes: this file imports nothing else, so it
/// compiles only while BlueskyKit re-exports the SDK and the handle resolver its signatures use.
final class OneImportTests: XCTestCase {
    func testABlueskyClientNeedsOneImport() async throws {
        let post = AppBskyFeedPost(text: "hi @alice.test", createdAt: LexiconDatetime.now())
        let resolver: any HandleResolver = DNSHandleResolver(lookup: StaticTXT())
        let rich = await RichText.detecting(post.text, resolver: resolver)
        XCTAssertEqual(rich.facets.count, 0, "the handle does not resolve: no mention facet")
        XCTAssertEqual(AppBskyFeedPost.collection.rawValue, "app.bsky.feed.post")
    }

    /// A DNS lookup with no records.
    struct StaticTXT: DNSTXTLookup {
        func txtRecords(for name: String) async throws -> [String] { [] }
    }
}
