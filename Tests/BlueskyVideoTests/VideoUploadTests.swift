// Video upload through the loopback video service (VideoServiceStandIn), every call with a real
// service-auth token from the shared PDS that the stand-in verifies (aud, lxm, exp, jti, and the
// signature against the account's key). Skipped without ATPROTO_PDS_URL.
//
//   eval "$(scripts/pds.sh start)" && swift test --filter BlueskyVideoTests; scripts/pds.sh stop

import AtprotoData
import BlueskyKit
import Foundation
import VideoServiceStandIn
import XCTest

final class VideoUploadTests: XCTestCase {
    func testUploadsInPartsWithServiceAuthAndReportsProgress() async throws {
        let fixture = try await VideoFixture.make()
        let data = mp4Bytes(150 * 1024)
        let events = try await collect(fixture.uploader().upload(BlueskyVideoFile(data: data, name: "cat.mp4")))
        XCTAssertEqual(events.first, .limitsChecked(remainingDailyVideos: 25, remainingDailyBytes: 1 << 30))
        XCTAssertEqual(events[1], .started(jobId: "job-1", partCount: 3, partSizeBytes: 64 * 1024))
        XCTAssertEqual(
            events.filter { if case .sent = $0 { true } else { false } },
            [65_536, 131_072, 153_600].map { .sent(bytes: $0, totalBytes: 153_600) })
        XCTAssertEqual(
            events.filter { if case .processing = $0 { true } else { false } },
            [
                .processing(state: "JOB_STATE_ENCODING", progress: 0),
                .processing(state: "JOB_STATE_ENCODING", progress: 50),
                .processing(state: "JOB_STATE_COMPLETED", progress: 100),
            ])
        guard case .done(let video)? = events.last else { return XCTFail("not done: \(events)") }
        XCTAssertEqual(video.blob.ref.cid, CID(sha256Of: data, codec: .raw).string)
        XCTAssertEqual(video.blob.size, data.count)
        XCTAssertEqual(video.blob.mimeType, "video/mp4")
        XCTAssertEqual(
            fixture.methods,
            [
                "getUploadLimits", "startUpload", "uploadPart", "uploadPart", "uploadPart", "finishUpload",
                "getJobStatus",
                "getJobStatus",
            ])
        // Each call carried its own token: for this service, bound to the method, from the account.
        for call in fixture.service.calls {
            XCTAssertEqual(call.audience, fixture.service.did.rawValue)
            XCTAssertEqual(call.boundMethod, call.method)
            XCTAssertEqual(call.issuer, fixture.did)
        }
    }

    func testAServiceWithoutUploadLimitsIsStillUsed() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.limits = nil
        configuration.processingPolls = 0
        let fixture = try await VideoFixture.make(configuration)
        let video = try await fixture.uploader().upload(BlueskyVideoFile(data: mp4Bytes(1000)))
        XCTAssertEqual(video.blob.size, 1000)
        XCTAssertEqual(fixture.methods, ["startUpload", "uploadPart", "finishUpload"])
    }

    func testTheServicesLimitsStopTheUploadBeforeItStarts() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.limits = .init(canUpload: true, remainingDailyBytes: 999, remainingDailyVideos: 3)
        let fixture = try await VideoFixture.make(configuration)
        do {
            _ = try await fixture.uploader().upload(BlueskyVideoFile(data: mp4Bytes(1000)))
            XCTFail("uploaded over the daily bytes")
        } catch {
            XCTAssertEqual(error.code, .limitReached)
            XCTAssertTrue(error.message.contains("999"), error.message)
        }
        configuration.limits = .init(canUpload: false, message: "verify your email first")
        let refused = try await VideoFixture.make(configuration)
        do {
            _ = try await refused.uploader().upload(BlueskyVideoFile(data: mp4Bytes(1000)))
            XCTFail("uploaded though the account may not")
        } catch {
            XCTAssertEqual(error.code, .limitReached)
            XCTAssertEqual(error.message, "verify your email first")
        }
        XCTAssertEqual(fixture.methods, ["getUploadLimits"])
        XCTAssertEqual(refused.methods, ["getUploadLimits"])
    }

    func testAFailedPartIsSentAgain() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.partFailures = [2: 2]
        configuration.processingPolls = 0
        let fixture = try await VideoFixture.make(configuration)
        let events = try await collect(
            fixture.uploader(attempts: 3).upload(BlueskyVideoFile(data: mp4Bytes(150 * 1024))))
        XCTAssertEqual(
            events.filter { if case .partRetried = $0 { true } else { false } },
            [.partRetried(partNumber: 2, attempt: 2), .partRetried(partNumber: 2, attempt: 3)])
        guard case .done = events.last else { return XCTFail("not done") }
        XCTAssertEqual(fixture.methods.filter { $0 == "uploadPart" }.count, 5)
    }

    func testAPartThatKeepsFailingEndsTheUploadAndAbortsIt() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.partFailures = [2: 10]
        let fixture = try await VideoFixture.make(configuration)
        do {
            _ = try await fixture.uploader(attempts: 3).upload(BlueskyVideoFile(data: mp4Bytes(150 * 1024)))
            XCTFail("uploaded")
        } catch {
            XCTAssertEqual(error.code, .refused)
            XCTAssertEqual(error.underlying?.declaredError(for: AppBskyVideoUploadPart.self), .serviceOverloaded)
            XCTAssertEqual(error.jobId, "job-1")
        }
        // Three attempts at part 2 (the policy's bound), then the abort released the upload.
        XCTAssertEqual(
            fixture.methods,
            ["getUploadLimits", "startUpload"] + Array(repeating: "uploadPart", count: 4) + ["abortUpload"])
        XCTAssertEqual(fixture.service.uploadStates, ["job-1": "aborted"])
    }

    func testCancellingTheTaskAbortsTheUpload() async throws {
        let fixture = try await VideoFixture.make()
        let uploader = fixture.uploader()
        let task = Task { () throws(BlueskyVideoUploadError) -> [BlueskyVideoUploadEvent] in
            var events: [BlueskyVideoUploadEvent] = []
            var iterator = uploader.upload(BlueskyVideoFile(data: mp4Bytes(200 * 1024))).makeAsyncIterator()
            while let event = try await iterator.next() {
                events.append(event)
                // The app gives up after the first part.
                if case .sent = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return events
        }
        do {
            let events = try await task.value
            XCTFail("not cancelled: \(events)")
        } catch let error as BlueskyVideoUploadError {
            XCTAssertEqual(error.code, .cancelled)
            XCTAssertTrue(error.message.contains("aborted: aborted"), error.message)
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertEqual(fixture.methods, ["getUploadLimits", "startUpload", "uploadPart", "abortUpload"])
        XCTAssertEqual(fixture.service.uploadStates, ["job-1": "aborted"])
    }

    func testPartsTheServiceLostAreSentAgainBeforeFinishing() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.partsLost = [1]
        configuration.processingPolls = 0
        let fixture = try await VideoFixture.make(configuration)
        let data = mp4Bytes(100 * 1024)
        let video = try await fixture.uploader().upload(BlueskyVideoFile(data: data))
        XCTAssertEqual(video.blob.ref.cid, CID(sha256Of: data, codec: .raw).string)
        XCTAssertEqual(
            fixture.methods,
            [
                "getUploadLimits", "startUpload", "uploadPart", "uploadPart", "finishUpload", "getUploadStatus",
                "uploadPart", "finishUpload",
            ])
    }

    func testAFailedJobIsTyped() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.jobFailure = "encoding_failure"
        let fixture = try await VideoFixture.make(configuration)
        do {
            _ = try await fixture.uploader().upload(BlueskyVideoFile(data: mp4Bytes(1000)))
            XCTFail("uploaded")
        } catch {
            XCTAssertEqual(error.code, .processingFailed)
            XCTAssertEqual(error.failureCode, "encoding_failure")
        }
        // Past finishUpload nothing is aborted: the job is the service's.
        XCTAssertFalse(fixture.methods.contains("abortUpload"))
    }

    func testPollingIsBounded() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.processingPolls = 1000
        let fixture = try await VideoFixture.make(configuration)
        do {
            _ = try await fixture.uploader(maximumPolls: 4).upload(BlueskyVideoFile(data: mp4Bytes(1000)))
            XCTFail("uploaded")
        } catch {
            XCTAssertEqual(error.code, .processingTimedOut)
        }
        XCTAssertEqual(fixture.methods.filter { $0 == "getJobStatus" }.count, 4)
    }

    func testTheServiceRefusesWhatTheLexiconRefuses() async throws {
        let fixture = try await VideoFixture.make()
        do {
            // Not an MP4 file inside: the service's probe refuses it at finishUpload.
            _ = try await fixture.uploader().upload(BlueskyVideoFile(data: Data(repeating: 1, count: 1000)))
            XCTFail("uploaded")
        } catch {
            XCTAssertEqual(error.code, .refused)
            XCTAssertEqual(error.underlying?.declaredError(for: AppBskyVideoFinishUpload.self), .unsupportedContentType)
        }
    }
}

final class AbandonedUploadTests: XCTestCase {
    func testDroppingTheIteratorAbortsTheUpload() async throws {
        _ = try VideoFixture.pdsURL()  // skip before the expectation exists
        let aborted = expectation(description: "abortUpload called")
        var configuration = VideoServiceStandIn.Configuration()
        configuration.observer = { call in
            if call.method == AppBskyVideoAbortUpload.nsid { aborted.fulfill() }
        }
        let fixture = try await VideoFixture.make(configuration)
        do {
            var iterator = fixture.uploader().upload(BlueskyVideoFile(data: mp4Bytes(200 * 1024))).makeAsyncIterator()
            // The app reads up to the first part sent, then lets the upload go without cancelling.
            while let event = try await iterator.next() {
                if case .sent = event { break }
            }
        }
        // The abort is sent from the iterator's end, in a task of its own: waited for, not timed.
        await fulfillment(of: [aborted], timeout: 60)
        XCTAssertEqual(fixture.methods, ["getUploadLimits", "startUpload", "uploadPart", "abortUpload"])
        XCTAssertEqual(fixture.service.uploadStates, ["job-1": "aborted"])
    }
}
