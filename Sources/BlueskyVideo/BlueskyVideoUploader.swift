import Foundation
import XRPCRuntime

/// Uploads videos to a video service the way the `app.bsky.video` lexicons define it: limits
/// checked first, then `startUpload`, each part with `uploadPart`, `finishUpload`, and
/// `getJobStatus` polled until the processed video's blob is ready; or, with
/// ``BlueskyVideoUploadMethod/singleRequest``, the whole file in one `uploadVideo` request as
/// Bluesky's own app does.
///
/// Every call to the service carries a service-auth token from the account's PDS
/// (`com.atproto.server.getServiceAuth`, `aud` the service's DID, `lxm` the method called), never
/// the session's own credentials.
///
/// ```swift
/// let uploader = BlueskyVideoUploader(session: session)                       // Bluesky's video service
/// for try await event in uploader.upload(BlueskyVideoFile(data: mp4, durationMs: 12_000)) {
///     switch event {
///     case .sent(let bytes, let total): print("sent \(bytes) of \(total)")
///     case .processing(let state, let progress): print(state, progress ?? 0)
///     case .done(let video):
///         var draft = BlueskyPostDraft(text: RichText(text: "my video"))
///         draft.video = BlueskyVideoEmbed(video: video.blob, alt: "a cat", width: 1920, height: 1080)
///         _ = try await client.publishPost(draft, repo: did)
///     default: break
///     }
/// }
/// ```
///
/// Cancelling the task that iterates aborts an upload still in its upload phase
/// (`app.bsky.video.abortUpload`, releasing the service's quota); so does dropping the iterator
/// before the end. A part that fails for a reason that may pass is sent again, as the policy bounds.
public struct BlueskyVideoUploader: Sendable {
    /// The client of the video service, its agent adding service auth.
    public let client: XRPCClient
    /// Retries and polls.
    public let policy: BlueskyVideoUploadPolicy
    /// How the file is sent: in parts, or in one request as Bluesky's app does.
    public var method: BlueskyVideoUploadMethod { singleRequest == nil ? .multipart : .singleRequest }
    /// The session and the service's own agent, for ``BlueskyVideoUploadMethod/singleRequest``.
    let singleRequest: SingleRequestRoute?

    /// An uploader to `service` with tokens from `session`'s PDS (a password or OAuth session).
    ///
    /// - Parameters:
    ///   - session: The signed-in account's agent; only `getServiceAuth` goes through it.
    ///   - service: The video service; Bluesky's by default.
    ///   - agent: What sends the calls to the service; a `URLSessionAgent` to `service.url` by default.
    ///   - method: In parts (the default) or in one `uploadVideo` request.
    ///   - policy: Retries and polls.
    public init(
        session: any XRPCAgent, service: BlueskyVideoService = .bluesky, agent: (any XRPCAgent)? = nil,
        method: BlueskyVideoUploadMethod = .multipart, policy: BlueskyVideoUploadPolicy = BlueskyVideoUploadPolicy()
    ) {
        let agent = agent ?? URLSessionAgent(serviceURL: service.url)
        self.client = XRPCClient(agent: ServiceAuthAgent(session: session, audience: service.did, agent: agent))
        self.policy = policy
        self.singleRequest = method == .singleRequest ? SingleRequestRoute(session: session, serviceAgent: agent) : nil
    }

    /// An uploader through `client`, whose agent already reaches the service with service auth; it
    /// uploads in parts (the single request needs the session: the other initializer).
    public init(client: XRPCClient, policy: BlueskyVideoUploadPolicy = BlueskyVideoUploadPolicy()) {
        self.client = client
        self.policy = policy
        self.singleRequest = nil
    }

    /// The upload of `file`, as the events an app shows; nothing is sent until it is iterated.
    /// The sequence throws ``BlueskyVideoUploadError``: ``BlueskyVideoUploadError/Code/invalidVideo`` at the first
    /// `next()`, before anything is sent, when the file breaks the lexicons' limits.
    public func upload(_ file: BlueskyVideoFile) -> BlueskyVideoUpload {
        BlueskyVideoUpload(uploader: self, file: file)
    }

    /// Uploads `file` and waits for the processed video, telling `progress` each event.
    ///
    /// - Throws: ``BlueskyVideoUploadError``.
    public func upload(
        _ file: BlueskyVideoFile, progress: @Sendable (BlueskyVideoUploadEvent) -> Void = { _ in }
    ) async throws(BlueskyVideoUploadError) -> BlueskyUploadedVideo {
        var events = upload(file).makeAsyncIterator()
        while let event = try await events.next() {
            progress(event)
            if case .done(let video) = event { return video }
        }
        throw BlueskyVideoUploadError(.unexpectedAnswer, message: "the upload ended without a processed video")
    }
}

/// The events of one upload (``BlueskyVideoUploader/upload(_:)``), ending after ``BlueskyVideoUploadEvent/done(_:)``.
///
/// Each iterator runs an upload of its own, step by step as it is asked: one part per `next()` (or
/// one retry, or one status poll). Cancelling the iterating task, or dropping the iterator, aborts an
/// upload still in its upload phase.
public struct BlueskyVideoUpload: AsyncSequence, Sendable {
    /// Each element is one event.
    public typealias Element = BlueskyVideoUploadEvent
    /// A sequence ends with a ``BlueskyVideoUploadError``.
    public typealias Failure = BlueskyVideoUploadError

    let uploader: BlueskyVideoUploader
    let file: BlueskyVideoFile

    /// An iterator running its own upload.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            run: VideoUploadRun(
                client: uploader.client, policy: uploader.policy, file: file, singleRequest: uploader.singleRequest))
    }

    /// Runs the upload one step per event.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let run: VideoUploadRun

        /// The next event; `nil` after ``BlueskyVideoUploadEvent/done(_:)``.
        public mutating func next() async throws(BlueskyVideoUploadError) -> BlueskyVideoUploadEvent? {
            try await run.next()
        }

        /// The next event; `nil` after ``BlueskyVideoUploadEvent/done(_:)``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BlueskyVideoUploadError)
            -> BlueskyVideoUploadEvent?
        {
            try await run.next()
        }
    }
}
