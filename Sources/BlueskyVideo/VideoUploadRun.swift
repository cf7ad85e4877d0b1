import AppBskyLexicons
import Foundation
import XRPCRuntime

/// One upload's state, advanced one step per `next()`: check, start, parts (or the whole file in one
/// request), finish, polls.
actor VideoUploadRun {
    enum Phase {
        case checking
        case starting(attempt: Int)
        case uploading(attempt: Int)
        case finishing(attempt: Int)
        case polling(jobId: String, poll: Int)
        case ended
    }

    private let client: XRPCClient
    private let policy: BlueskyVideoUploadPolicy
    let file: BlueskyVideoFile
    /// Set for ``BlueskyVideoUploadMethod/singleRequest``.
    private let singleRequest: SingleRequestRoute?
    private var phase = Phase.checking
    var pending: [BlueskyVideoUploadEvent] = []
    var jobId: String?
    private var partSize = 0
    private var partCount = 0
    /// The parts still to send, in order.
    private var partsToSend: [Int] = []
    /// Whether `finishUpload` succeeded: past it, nothing can be aborted.
    var finished = false
    private var lastProcessing: BlueskyVideoUploadEvent?

    init(
        client: XRPCClient, policy: BlueskyVideoUploadPolicy, file: BlueskyVideoFile, singleRequest: SingleRequestRoute?
    ) {
        self.client = client
        self.policy = policy
        self.file = file
        self.singleRequest = singleRequest
    }

    deinit {
        // An iterator dropped in the upload phase: release the service's reservation.
        var ended = false
        if case .ended = phase { ended = true }
        if let jobId, !finished, !ended {
            let client = client
            Task { _ = try? await client.app.bsky.video.abortUpload(jobId: jobId) }
        }
    }

    private var isEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    /// The attempt the next `finishUpload` is (after `MissingParts`, a retry).
    private var finishAttempt = 1

    func next() async throws(BlueskyVideoUploadError) -> BlueskyVideoUploadEvent? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if isEnded { return nil }
            do throws(BlueskyVideoUploadError) {
                if Task.isCancelled { throw BlueskyVideoUploadError(.cancelled, message: "the task was cancelled") }
                try await step()
            } catch {
                throw await end(with: error)
            }
        }
    }

    /// Ends the upload after `error`, aborting it when it is still in its upload phase.
    private func end(with error: BlueskyVideoUploadError) async -> BlueskyVideoUploadError {
        phase = .ended
        var error = error
        if Task.isCancelled || error.code == .cancelled || error.underlying?.code == .cancelled {
            error = BlueskyVideoUploadError(.cancelled, jobId: jobId, message: "the task was cancelled")
        }
        error.jobId = jobId
        guard let jobId, !finished else {
            if error.code == .cancelled, jobId != nil {
                error.message += "; the job was already processing and goes on on the service"
            }
            return error
        }
        // Not in this task: a cancelled task's calls fail at once.
        let client = client
        let outcome = await Task { () -> String in
            do throws(XRPCCallError) {
                return try await client.app.bsky.video.abortUpload(jobId: jobId).state.rawValue
            } catch {
                return "not confirmed (\(error.code))"
            }
        }.value
        error.message += "; the upload was aborted: \(outcome)"
        return error
    }

    private func step() async throws(BlueskyVideoUploadError) {
        switch phase {
        case .checking: try await checkLimits()
        case .starting(let attempt): try await start(attempt: attempt)
        case .uploading(let attempt): try await sendPart(attempt: attempt)
        case .finishing(let attempt): try await finish(attempt: attempt)
        case .polling(let job, let index): try await poll(job, index: index)
        case .ended: return
        }
    }

    private func checkLimits() async throws(BlueskyVideoUploadError) {
        try file.check()
        phase = .starting(attempt: 1)
        guard policy.checksUploadLimits else { return }
        let limits: AppBskyVideoGetUploadLimits.Output
        do throws(XRPCCallError) {
            limits = try await client.app.bsky.video.getUploadLimits()
        } catch {
            // A service without the method: go on, startUpload refuses what is over its limits.
            if error.status == 404 || error.status == 501 || error.name == "MethodNotImplemented" { return }
            throw Self.failure(error, "reading the upload limits")
        }
        let size = file.data.count
        guard limits.canUpload else {
            throw BlueskyVideoUploadError(
                .limitReached,
                message: limits.message ?? limits.error ?? "the service does not let this account upload video now")
        }
        if let videos = limits.remainingDailyVideos, videos <= 0 {
            throw BlueskyVideoUploadError(.limitReached, message: "no videos left for today (remainingDailyVideos 0)")
        }
        if let bytes = limits.remainingDailyBytes, bytes < size {
            throw BlueskyVideoUploadError(
                .limitReached, message: "the video is \(size) bytes, over the \(bytes) bytes left for today")
        }
        pending.append(
            .limitsChecked(
                remainingDailyVideos: limits.remainingDailyVideos, remainingDailyBytes: limits.remainingDailyBytes))
    }

    private func start(attempt: Int) async throws(BlueskyVideoUploadError) {
        if let singleRequest { return try await sendWhole(singleRequest, attempt: attempt) }
        let input = AppBskyVideoStartUpload.Input(
            sizeBytes: file.data.count, mimeType: file.mimeType, durationMs: file.durationMs, height: file.height,
            name: file.name, width: file.width)
        let output: AppBskyVideoStartUpload.Output
        do throws(XRPCCallError) {
            output = try await client.app.bsky.video.startUpload(input)
        } catch {
            try await retry(after: error, attempt: attempt, "starting the upload") { .starting(attempt: attempt + 1) }
            return
        }
        jobId = output.jobId
        let size = file.data.count
        guard output.partSizeBytes > 0, output.partCount == (size + output.partSizeBytes - 1) / output.partSizeBytes
        else {
            throw BlueskyVideoUploadError(
                .unexpectedAnswer,
                message: "\(output.partCount) parts of \(output.partSizeBytes) bytes do not make \(size) bytes")
        }
        partSize = output.partSizeBytes
        partCount = output.partCount
        partsToSend = Array(1...partCount)
        pending.append(.started(jobId: output.jobId, partCount: partCount, partSizeBytes: partSize))
        phase = .uploading(attempt: 1)
    }

    /// The bytes of part `number` (1-based).
    private func part(_ number: Int) -> Data {
        let start = (number - 1) * partSize
        return file.data.subdata(in: start..<min(start + partSize, file.data.count))
    }

    private var sentBytes: Int {
        file.data.count - partsToSend.reduce(0) { $0 + part($1).count }
    }

    private func sendPart(attempt: Int) async throws(BlueskyVideoUploadError) {
        guard let jobId, let number = partsToSend.first else {
            phase = .finishing(attempt: finishAttempt)
            return
        }
        let bytes = part(number)
        let output: AppBskyVideoUploadPart.Output
        do throws(XRPCCallError) {
            output = try await client.app.bsky.video.uploadPart(
                XRPCRawBody(data: bytes, contentType: "application/octet-stream"), jobId: jobId, partNumber: number)
        } catch {
            try await retry(after: error, attempt: attempt, "sending part \(number)") {
                .uploading(attempt: attempt + 1)
            }
            pending.append(.partRetried(partNumber: number, attempt: attempt + 1))
            return
        }
        guard output.partNumber == number, output.sizeBytes == bytes.count else {
            throw BlueskyVideoUploadError(
                .unexpectedAnswer,
                message: "part \(number) of \(bytes.count) bytes was acknowledged as part \(output.partNumber) "
                    + "of \(output.sizeBytes) bytes")
        }
        partsToSend.removeFirst()
        pending.append(.sent(bytes: sentBytes, totalBytes: file.data.count))
        phase = partsToSend.isEmpty ? .finishing(attempt: finishAttempt) : .uploading(attempt: 1)
    }

    private func finish(attempt: Int) async throws(BlueskyVideoUploadError) {
        guard let jobId else { return }
        let output: AppBskyVideoFinishUpload.Output
        do throws(XRPCCallError) {
            output = try await client.app.bsky.video.finishUpload(jobId: jobId)
        } catch {
            if error.declaredError(for: AppBskyVideoFinishUpload.self) == .missingParts, attempt < policy.attempts {
                try await resendMissingParts(jobId, attempt: attempt, after: error)
                return
            }
            try await retry(after: error, attempt: attempt, "finishing the upload") { .finishing(attempt: attempt + 1) }
            return
        }
        finished = true
        try take(output.jobStatus, jobId: output.completedJobId, poll: 0)
    }

    /// After `MissingParts`: the parts the service lacks (`getUploadStatus`), sent again.
    private func resendMissingParts(_ jobId: String, attempt: Int, after error: XRPCCallError)
        async throws(BlueskyVideoUploadError)
    {
        let status: AppBskyVideoGetUploadStatus.Output
        do throws(XRPCCallError) {
            status = try await client.app.bsky.video.getUploadStatus(jobId: jobId)
        } catch {
            throw Self.failure(error, "reading the upload's status")
        }
        let received = Set(status.receivedParts)
        partsToSend = (1...partCount).filter { !received.contains($0) }
        guard !partsToSend.isEmpty else {
            throw Self.failure(error, "finishing the upload (the service reports every part received)")
        }
        pending.append(.sent(bytes: sentBytes, totalBytes: file.data.count))
        phase = .uploading(attempt: 1)
        finishAttempt = attempt + 1
    }

    /// Takes a job status: done, failed, or still processing (polled next).
    func take(_ status: AppBskyVideoDefs.JobStatus, jobId: String, poll: Int) throws(BlueskyVideoUploadError) {
        switch status.state {
        case .jobstatecompleted:
            guard let blob = status.blob else {
                throw BlueskyVideoUploadError(.unexpectedAnswer, message: "job \(jobId) completed without a blob")
            }
            pending.append(.processing(state: status.state.rawValue, progress: status.progress))
            pending.append(.done(BlueskyUploadedVideo(jobId: jobId, blob: blob)))
            phase = .ended
        case .jobstatefailed:
            throw BlueskyVideoUploadError(
                .processingFailed, failureCode: status.failureCode?.rawValue,
                message: "processing failed: " + (status.error ?? status.message ?? "no reason given"))
        default:
            let event = BlueskyVideoUploadEvent.processing(state: status.state.rawValue, progress: status.progress)
            if event != lastProcessing { pending.append(event) }
            lastProcessing = event
            phase = .polling(jobId: jobId, poll: poll)
        }
    }

    private func poll(_ jobId: String, index: Int) async throws(BlueskyVideoUploadError) {
        guard index < policy.maximumPolls else {
            throw BlueskyVideoUploadError(
                .processingTimedOut, message: "job \(jobId) was still processing after \(index) polls")
        }
        try await Self.sleep(policy.pollDelay(index))
        let output: AppBskyVideoGetJobStatus.Output
        do throws(XRPCCallError) {
            output = try await client.app.bsky.video.getJobStatus(jobId: jobId)
        } catch {
            guard Self.mayPass(error) else { throw Self.failure(error, "reading the job's status") }
            phase = .polling(jobId: jobId, poll: index + 1)
            return
        }
        try take(output.jobStatus, jobId: jobId, poll: index + 1)
    }

    /// Moves to `next` after a wait when `error` may pass and attempts are left; throws otherwise.
    func retry(
        after error: XRPCCallError, attempt: Int, _ stage: String, next: () -> Phase
    ) async throws(BlueskyVideoUploadError) {
        guard Self.mayPass(error), attempt < policy.attempts else { throw Self.failure(error, stage) }
        try await Self.sleep(policy.retryDelay * (1 << min(attempt - 1, 16)))
        phase = next()
    }

    /// Whether a call that failed so may succeed when made again.
    static func mayPass(_ error: XRPCCallError) -> Bool {
        switch error.code {
        case .timedOut, .cannotConnect, .connectionLost, .rateLimited: return true
        case .declaredError: return error.name == "ServiceOverloaded" || error.name == "UploadNotReady"
        case .serverError: return (error.status ?? 0) >= 500
        default: return false
        }
    }

    static func failure(_ error: XRPCCallError, _ stage: String) -> BlueskyVideoUploadError {
        switch error.code {
        case .cancelled:
            return BlueskyVideoUploadError(.cancelled, message: "cancelled while \(stage)", underlying: error)
        case .declaredError, .serverError, .rateLimited, .invalidInput:
            return BlueskyVideoUploadError(.refused, message: "the service refused \(stage)", underlying: error)
        case .invalidOutput:
            return BlueskyVideoUploadError(
                .unexpectedAnswer, message: "\(stage): the answer is not the lexicon's", underlying: error)
        default: return BlueskyVideoUploadError(.notSent, message: "\(stage) failed", underlying: error)
        }
    }

    static func sleep(_ duration: Duration) async throws(BlueskyVideoUploadError) {
        guard duration > .zero else { return }
        do {
            try await Task.sleep(for: duration)
        } catch {
            throw BlueskyVideoUploadError(.cancelled, message: "the task was cancelled")
        }
    }
}
