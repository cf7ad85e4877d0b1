// The single-request upload (`uploadVideo`, as Bluesky's app sends it) through the loopback video
// service, with real service-auth tokens from the shared PDS that the stand-in verifies: for the
// PDS's did:web, bound to com.atproto.repo.uploadBlob, single use. Skipped without ATPROTO_PDS_URL.
//
//   eval "$(scripts/pds.sh start)" && swift test --filter SingleRequestUploadTests; scripts/pds.sh stop

import AtprotoData
import BlueskyKit
import Foundation
import VideoServiceStandIn
import XCTest

final class SingleRequestUploadTests: XCTestCase {
    func testTheWholeFileGoesInOneRequestWithATokenForThePDSBoundToUploadBlob() async throws {
        let fixture = try await VideoFixture.make()
        let data = mp4Bytes(150 * 1024)
        let uploader = fixture.uploader(method: .singleRequest)
        XCTAssertEqual(uploader.method, .singleRequest)
        let events = try await collect(uploader.upload(BlueskyVideoFile(data: data, name: "cat.mp4")))
        XCTAssertEqual(
            Array(events.prefix(2)),
            [
                .limitsChecked(remainingDailyVideos: 25, remainingDailyBytes: 1 << 30),
                .sent(bytes: data.count, totalBytes: data.count),
            ])
        guard case .done(let video)? = events.last else { return XCTFail("not done: \(events)") }
        XCTAssertEqual(video.blob.ref.cid, CID(sha256Of: data, codec: .raw).string, "the service got every byte")
        XCTAssertEqual(fixture.methods, ["getUploadLimits", "uploadVideo", "getJobStatus", "getJobStatus"])
        let pdsHost = try XCTUnwrap(fixture.pds.host)
        for call in fixture.service.calls {
            XCTAssertEqual(call.issuer, fixture.did)
            if call.method == AppBskyVideoUploadVideo.nsid {
                XCTAssertEqual(call.audience, "did:web:" + pdsHost, "the PDS stores the processed video")
                XCTAssertEqual(call.boundMethod, "com.atproto.repo.uploadBlob")
            } else {
                XCTAssertEqual(call.audience, fixture.service.did.rawValue)
                XCTAssertEqual(call.boundMethod, call.method)
            }
        }
    }

    func testAFailedRequestIsSentAgainWithANewTokenAndARefusalIsTyped() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.partFailures = [1: 1]
        configuration.processingPolls = 0
        let fixture = try await VideoFixture.make(configuration)
        let events = try await collect(
            fixture.uploader(method: .singleRequest).upload(BlueskyVideoFile(data: mp4Bytes(70_000))))
        guard case .done = events.last else { return XCTFail("not done: \(events)") }
        // The stand-in refuses a token used twice: the second request carried a new one.
        XCTAssertEqual(fixture.methods, ["getUploadLimits", "uploadVideo", "uploadVideo"])

        var notVideo = mp4Bytes(70_000)
        notVideo[4] = 0
        do {
            _ = try await fixture.uploader(method: .singleRequest).upload(BlueskyVideoFile(data: notVideo))
            XCTFail("a file that is not MP4 was accepted")
        } catch {
            XCTAssertEqual(error.code, .refused)
            XCTAssertEqual(error.underlying?.name, "UnsupportedContentType")
            XCTAssertNil(error.jobId, "no job was made")
        }
    }
}
