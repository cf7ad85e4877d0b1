import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSession.data(for:)` with cancellation that cannot hang.
///
/// FoundationNetworking (Linux) can deadlock when a task running its async `data(for:)` is cancelled
/// while the response completes (its cancel takes a lock, then waits on the work queue that is
/// delivering the completion and needs the same lock), and traps when a task is cancelled while it
/// completes. There, a cancelled call is answered at once with `URLError(.cancelled)` and its
/// transfer is left to end on its own, bounded by the request's timeout; its bytes are dropped.
/// Elsewhere this is `URLSession.data(for:)`.
enum URLSessionDataCall {
    static func data(_ session: URLSession, for request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            let call = PendingCall()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            call.finish(.failure(error))
                        } else if let response {
                            call.finish(.success((data ?? Data(), response)))
                        } else {
                            call.finish(.failure(URLError(.badServerResponse)))
                        }
                    }
                    call.start(continuation, task: task)
                }
            } onCancel: {
                call.finish(.failure(URLError(.cancelled)))
            }
        #else
            return try await session.data(for: request)
        #endif
    }
}

#if canImport(FoundationNetworking)
    /// One call's continuation, resumed exactly once: by the task's completion or by cancellation.
    private final class PendingCall: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        private var early: Result<(Data, URLResponse), any Error>?

        /// Resumes `task`, unless the call already ended (cancelled before it started).
        func start(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>, task: URLSessionDataTask) {
            let ended: Result<(Data, URLResponse), any Error>? = lock.withLock {
                if let early { return early }
                self.continuation = continuation
                return nil
            }
            if let ended {
                continuation.resume(with: ended)
            } else {
                task.resume()
            }
        }

        func finish(_ result: Result<(Data, URLResponse), any Error>) {
            let waiting: CheckedContinuation<(Data, URLResponse), any Error>? = lock.withLock {
                if let continuation {
                    self.continuation = nil
                    return continuation
                }
                if early == nil { early = result }
                return nil
            }
            waiting?.resume(with: result)
        }
    }
#endif
