import XRPCRuntime

/// Why a video upload failed: input refused before sending, a limit the service reports, the
/// service's refusal, no answer, a failed or endless processing job, or the task cancelled.
public struct BlueskyVideoUploadError: AtprotoError {
    /// What failed. An open set: a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The video breaks the lexicons' limits (size, type, name): nothing was sent.
        public static let invalidVideo: Code = "invalidVideo"
        /// `app.bsky.video.getUploadLimits` says the account cannot upload this video now (not
        /// allowed, or its daily videos or bytes spent): nothing was uploaded.
        public static let limitReached: Code = "limitReached"
        /// The service refused a call (``BlueskyVideoUploadError/underlying`` says which and why, typed with
        /// `declaredError(for:)`); the upload was aborted when it had started.
        public static let refused: Code = "refused"
        /// No answer, after the retries the policy allows; the upload was aborted when it had started.
        public static let notSent: Code = "notSent"
        /// The service's answer does not fit the upload (a part count that does not match the size,
        /// a completed job without a blob).
        public static let unexpectedAnswer: Code = "unexpectedAnswer"
        /// Processing failed (`JOB_STATE_FAILED`): ``BlueskyVideoUploadError/failureCode`` says why.
        public static let processingFailed: Code = "processingFailed"
        /// The job was still processing after the policy's polls.
        public static let processingTimedOut: Code = "processingTimedOut"
        /// The task was cancelled. An upload still in its upload phase was aborted
        /// (`app.bsky.video.abortUpload`); a job already processing goes on on the service.
        public static let cancelled: Code = "cancelled"
    }

    /// What failed.
    public var code: Code
    /// The upload's job, once the service gave one.
    public var jobId: String?
    /// The job's `failureCode` for ``Code/processingFailed`` (`encoding_failure`...).
    public var failureCode: String?
    /// What went wrong, for people to read.
    public var message: String
    /// The failed call's error, when a call failed.
    public var underlying: XRPCCallError?

    /// Creates an error.
    public init(
        _ code: Code, jobId: String? = nil, failureCode: String? = nil, message: String,
        underlying: XRPCCallError? = nil
    ) {
        self.code = code
        self.jobId = jobId
        self.failureCode = failureCode
        self.message = message
        self.underlying = underlying
    }

    /// The code, the job and what went wrong.
    public var description: String {
        var text = "video upload failed (\(code))"
        if let jobId { text += " for job \(jobId)" }
        text += ": " + message
        if let underlying { text += " (\(underlying))" }
        return text
    }
}
