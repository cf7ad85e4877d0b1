import BlueskyKit
import Foundation
import XCTest
import XRPCTesting

/// What the uploader refuses before sending anything, and its policy's arithmetic; no server.
final class VideoInputTests: XCTestCase {
    func refusal(_ file: BlueskyVideoFile) async -> (BlueskyVideoUploadError?, StubAgent) {
        let agent = StubAgent { _ in XRPCResponse(status: 500, headers: [:], body: Data()) }
        do {
            _ = try await BlueskyVideoUploader(client: XRPCClient(agent: agent)).upload(file)
            return (nil, agent)
        } catch {
            return (error, agent)
        }
    }

    func testAVideoOverTheLimitsIsRefusedBeforeAnythingIsSent() async {
        // calloc'd: the pages are never touched, only the count is read.
        let cases: [(BlueskyVideoFile, String)] = [
            (
                BlueskyVideoFile(data: Data(count: 300_000_001)),
                "the video is 300000001 bytes, over the lexicon's 300000000"
            ),
            (
                BlueskyVideoFile(data: Data(count: 10), mimeType: "video/quicktime"),
                "the video is video/quicktime, not one of [\"video/mp4\"]"
            ),
            (BlueskyVideoFile(data: Data()), "the video is empty"),
            (
                BlueskyVideoFile(data: Data(count: 10), name: String(repeating: "n", count: 257)),
                "the file name is 257 bytes, over 256"
            ),
        ]
        for (file, message) in cases {
            let (error, agent) = await refusal(file)
            XCTAssertEqual(error?.code, .invalidVideo)
            XCTAssertEqual(error?.message, message)
            XCTAssertTrue(agent.requests.isEmpty, message)
        }
        // At the limit, and with parameters on the type: checked, then sent.
        let (error, agent) = await refusal(
            BlueskyVideoFile(data: Data(count: 300_000_000), mimeType: "Video/MP4; codecs=avc1"))
        XCTAssertEqual(error?.code, .refused)
        XCTAssertEqual(agent.requests.first?.nsid, "app.bsky.video.getUploadLimits")
    }

    func testPollDelaysGrowToTheirBound() {
        let policy = BlueskyVideoUploadPolicy(firstPollDelay: .milliseconds(100), maximumPollDelay: .milliseconds(300))
        XCTAssertEqual((0..<5).map { policy.pollDelay($0) }, [100, 150, 225, 300, 300].map { .milliseconds($0) })
        XCTAssertEqual(BlueskyVideoUploadPolicy(attempts: 0, maximumPolls: -1).attempts, 1)
    }
}
