import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An answer read whole by ``BoundedURLLoader``: status, header fields (names lowercased), body.
package struct BoundedURLResponse: Sendable {
    /// The HTTP status (0 when the answer was not HTTP).
    package var status: Int
    /// The header fields, names lowercased.
    package var headers: [String: String]
    /// The body, at most the request's limit.
    package var body: Data
}

/// Why ``BoundedURLLoader`` has no answer; each caller turns it into its own error.
package enum BoundedURLFailure: Error, Sendable {
    /// The caller's task was cancelled.
    case cancelled
    /// No complete answer within the deadline (the loader's, or URLSession's own timeout).
    case timedOut
    /// The answer announced (`Content-Length`) or sent more than `limit` bytes.
    case tooLarge(limit: Int, announced: Bool)
    /// The transfer failed: the `URLError` code when there is one, and its description.
    case transport(URLError.Code?, String)
}

/// The one bounded `URLSession` loader of the package (identity resolution's fetcher and OAuth's HTTP
/// client): its own session, redirects never followed (the 3xx answer is returned), the body cut off
/// at a limit, an exact deadline per request, and cancellation that answers the caller at once.
///
/// FoundationNetworking (Linux) traps when a task is cancelled while it completes (a race in its task
/// registry), so there a task is never cancelled once started: an abandoned transfer runs on, its
/// bytes dropped, until the session's resource timeout. Elsewhere it is cancelled. Package-visible.
package final class BoundedURLLoader: @unchecked Sendable {
    private let session: URLSession
    private let transfers: Transfers

    /// A loader with its own session from `configuration`; `resourceTimeout` bounds every transfer,
    /// even one whose caller was answered.
    package init(configuration: URLSessionConfiguration, resourceTimeout: Duration) {
        configuration.timeoutIntervalForResource = max(1, Double(resourceTimeout.components.seconds))
        let transfers = Transfers()
        self.transfers = transfers
        self.session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` and reads its answer, at most `limit` bytes, within `timeout`.
    package func load(_ request: URLRequest, limit: Int, timeout: Duration) async -> Result<
        BoundedURLResponse, BoundedURLFailure
    > {
        var request = request
        // FoundationNetworking rounds this down to whole seconds; the deadline below is the exact one.
        request.timeoutInterval = max(1, Double(timeout.components.seconds).rounded(.up) + 1)
        let task = session.dataTask(with: request)
        let transfers = self.transfers
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfers.start(task, limit: limit, continuation: continuation)
                transfers.arm(task, after: timeout)
            }
        } onCancel: {
            transfers.cancel(task)
        }
    }
}

/// The running transfers, keyed by task; the session's delegate.
private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<BoundedURLResponse, BoundedURLFailure>

    private struct Transfer {
        var limit: Int
        var continuation: CheckedContinuation<Outcome, Never>
        var response = BoundedURLResponse(status: 0, headers: [:], body: Data())
    }

    private let lock = NSLock()
    private var running: [Int: Transfer] = [:]
    /// Tasks cancelled before they started: never resumed (FoundationNetworking traps when a task
    /// cancelled while suspended is resumed).
    private var cancelledEarly: Set<Int> = []

    /// Registers the transfer and resumes its task, unless it was cancelled already.
    func start(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<Outcome, Never>) {
        let cancelled = lock.withLock {
            if cancelledEarly.remove(task.taskIdentifier) != nil { return true }
            running[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation)
            task.resume()
            return false
        }
        if cancelled { continuation.resume(returning: .failure(.cancelled)) }
    }

    /// Answers the caller as cancelled at once, and stops the transfer if it started.
    func cancel(_ task: URLSessionTask) {
        let started = lock.withLock {
            guard running[task.taskIdentifier] != nil else {
                cancelledEarly.insert(task.taskIdentifier)
                return false
            }
            return true
        }
        guard started else { return }
        finish(task, .failure(.cancelled))
        Self.stop(task)
    }

    /// Stops a task whose caller was answered (not on Linux: see ``BoundedURLLoader``).
    static func stop(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            _ = task
        #else
            task.cancel()
        #endif
    }

    func arm(_ task: URLSessionTask, after limit: Duration) {
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            guard let self, self.isRunning(task) else { return }
            self.finish(task, .failure(.timedOut))
            Self.stop(task)
        }
    }

    private func isRunning(_ task: URLSessionTask) -> Bool {
        lock.withLock { running[task.taskIdentifier] != nil }
    }

    /// Answers the caller once; later calls for the same task do nothing.
    func finish(_ task: URLSessionTask, _ outcome: Outcome) {
        let entry = lock.withLock { running.removeValue(forKey: task.taskIdentifier) }
        entry?.continuation.resume(returning: outcome)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The caller decides about redirects: it gets the 3xx answer.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            guard let name = name as? String else { continue }
            fields[name.lowercased()] = value as? String ?? "\(value)"
        }
        let tooLarge: Int? = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return nil }
            entry.response.status = http?.statusCode ?? 0
            entry.response.headers = fields
            running[dataTask.taskIdentifier] = entry
            guard let length = fields["content-length"].flatMap(Int.init), length > entry.limit else { return nil }
            return entry.limit
        }
        if let limit = tooLarge { finish(dataTask, .failure(.tooLarge(limit: limit, announced: true))) }
        completionHandler(tooLarge == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: Int? = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return nil }
            entry.response.body.append(data)
            running[dataTask.taskIdentifier] = entry
            return entry.response.body.count > entry.limit ? entry.limit : nil
        }
        if let limit = overLimit {
            finish(dataTask, .failure(.tooLarge(limit: limit, announced: false)))
            Self.stop(dataTask)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ running[task.taskIdentifier] }) else { return }
        guard let error else { return finish(task, .success(entry.response)) }
        let code = (error as? URLError)?.code
        switch code {
        case .timedOut?: finish(task, .failure(.timedOut))
        case .cancelled?: finish(task, .failure(.cancelled))
        default: finish(task, .failure(.transport(code, error.localizedDescription)))
        }
    }
}
