import Foundation
import XRPCRuntime

/// A video service: its DID, the audience of the service-auth tokens its calls carry, and its URL.
public struct BlueskyVideoService: Sendable, Hashable {
    /// The service's DID: each token's `aud`.
    public var did: DID
    /// Where its XRPC calls go.
    public var url: URL

    /// A service.
    public init(did: DID, url: URL) {
        self.did = did
        self.url = url
    }

    /// Bluesky's video service, `did:web:video.bsky.app` at `https://video.bsky.app`.
    public static let bluesky = BlueskyVideoService(
        did: DID(rawValue: "did:web:video.bsky.app"),
        url: URL(string: "https://video.bsky.app") ?? URL(fileURLWithPath: "/"))
}

/// How an upload retries and waits: every loop is bounded.
public struct BlueskyVideoUploadPolicy: Sendable, Hashable {
    /// Attempts per part (and per `finishUpload`), the first included: a part that fails for a
    /// reason that may pass (no answer, 5xx, `ServiceOverloaded`, 429) is sent again up to this many
    /// times in all. Default 3.
    public var attempts: Int
    /// The wait before the first retry, doubled for each next one. Default 0.5 s.
    public var retryDelay: Duration
    /// The wait before the first status poll, then multiplied by 1.5 per poll up to
    /// ``maximumPollDelay``. Default 0.5 s.
    public var firstPollDelay: Duration
    /// The longest wait between polls. Default 5 s.
    public var maximumPollDelay: Duration
    /// The most `getJobStatus` polls before ``BlueskyVideoUploadError/Code/processingTimedOut``. Default
    /// 180 (about 14 minutes with the default delays).
    public var maximumPolls: Int
    /// Whether `app.bsky.video.getUploadLimits` is asked first (a service that does not serve it is
    /// skipped). Default true.
    public var checksUploadLimits: Bool

    /// A policy; the defaults suit Bluesky's service.
    public init(
        attempts: Int = 3, retryDelay: Duration = .milliseconds(500), firstPollDelay: Duration = .milliseconds(500),
        maximumPollDelay: Duration = .seconds(5), maximumPolls: Int = 180, checksUploadLimits: Bool = true
    ) {
        self.attempts = max(1, attempts)
        self.retryDelay = retryDelay
        self.firstPollDelay = firstPollDelay
        self.maximumPollDelay = maximumPollDelay
        self.maximumPolls = max(1, maximumPolls)
        self.checksUploadLimits = checksUploadLimits
    }

    /// The wait before poll `index` (0 first).
    package func pollDelay(_ index: Int) -> Duration {
        var delay = firstPollDelay
        for _ in 0..<min(index, 64) {
            delay = delay * 3 / 2
            if delay >= maximumPollDelay { return maximumPollDelay }
        }
        return min(delay, maximumPollDelay)
    }
}

/// What an upload reports as it goes, for an app to show: a ``BlueskyVideoUpload`` yields these in order.
public enum BlueskyVideoUploadEvent: Sendable, Hashable {
    /// The service's limits for the account, read before starting (`nil`s: not given).
    case limitsChecked(remainingDailyVideos: Int?, remainingDailyBytes: Int?)
    /// The upload started: the service's job and how the file is split.
    case started(jobId: String, partCount: Int, partSizeBytes: Int)
    /// A part was sent: `bytes` of `totalBytes` are on the service.
    case sent(bytes: Int, totalBytes: Int)
    /// A part failed for a reason that may pass and is sent again (`attempt` 2...).
    case partRetried(partNumber: Int, attempt: Int)
    /// The job is processing: its state (`JOB_STATE_ENCODING`...) and progress in it (0...100).
    case processing(state: String, progress: Int?)
    /// Done: the video's blob, for ``BlueskyVideoEmbed/video``.
    case done(BlueskyUploadedVideo)
}

/// A processed video: its job and its blob on the account's PDS.
public struct BlueskyUploadedVideo: Sendable, Hashable {
    /// The job that processed it (`completedJobId`, which may differ from the upload's on deduplication).
    public var jobId: String
    /// The blob to embed.
    public var blob: LexiconBlob

    /// A processed video.
    public init(jobId: String, blob: LexiconBlob) {
        self.jobId = jobId
        self.blob = blob
    }
}
