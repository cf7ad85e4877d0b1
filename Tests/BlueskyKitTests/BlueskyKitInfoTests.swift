import AtprotoLexicons
import BlueskyKit
import XCTest

final class BlueskyKitInfoTests: XCTestCase {
    func testPostCollectionIsTheFeedPostLexicon() {
        XCTAssertEqual("\(BlueskyKitInfo.postCollection)", "app.bsky.feed.post")
    }
}
