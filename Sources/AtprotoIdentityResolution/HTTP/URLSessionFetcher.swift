import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPFetcher``: `URLSession`, no redirects followed, the body cut off at the request's
/// limit, an exact deadline per request, and cancellation that reaches the connection.
public final class URLSessionFetcher: HTTPFetcher, @unchecked Sendable {
    private let session: URLSession
    private let tasks: FetchTasks

    /// Creates a fetcher with its own `URLSession` made from `configuration` (no cookies, no cache by
    /// default).
    ///
    /// - Parameter resourceTimeout: The longest any transfer may run, even after its caller was
    ///   answered (a cancelled or oversized fetch on Linux runs on until then, its bytes dropped).
    public init(configuration: URLSessionConfiguration = .ephemeral, resourceTimeout: Duration = .seconds(30)) {
        configuration.timeoutIntervalForResource = max(1, Double(resourceTimeout.components.seconds))
        let tasks = FetchTasks()
        self.tasks = tasks
        self.session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Fetches the URL; see ``HTTPFetcher/fetch(_:)``.
    public func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let seconds = Double(request.timeout.components.seconds)
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up) + 1)
        let task = session.dataTask(with: urlRequest)
        let result: Result<HTTPFetchResponse, HTTPFetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                tasks.start(task, request: request, continuation: continuation)
                tasks.armDeadline(for: task, after: request.timeout)
            }
        } onCancel: {
            tasks.cancel(task, url: request.url)
        }
        return try result.get()
    }
}

/// The state of every running fetch, keyed by task; also the session's delegate.
private final class FetchTasks: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Running {
        var request: HTTPFetchRequest
        var continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchError>, Never>
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
    }

    private let lock = NSLock()
    private var running: [Int: Running] = [:]
    /// Tasks cancelled before they started: they are never resumed (FoundationNetworking traps when a
    /// task cancelled while suspended is resumed).
    private var cancelledEarly: Set<Int> = []

    /// Registers the fetch and resumes its task, unless the fetch was cancelled already.
    func start(
        _ task: URLSessionTask,
        request: HTTPFetchRequest,
        continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchError>, Never>
    ) {
        let cancelled = lock.withLock {
            if cancelledEarly.remove(task.taskIdentifier) != nil { return true }
            running[task.taskIdentifier] = Running(request: request, continuation: continuation)
            task.resume()
            return false
        }
        if cancelled {
            continuation.resume(
                returning: .failure(HTTPFetchError(.cancelled, url: request.url, "the task was cancelled")))
        }
    }

    /// Ends the fetch as cancelled: at once for its caller, and for the connection if it started.
    func cancel(_ task: URLSessionTask, url: URL) {
        let started = lock.withLock {
            guard running[task.taskIdentifier] != nil else {
                cancelledEarly.insert(task.taskIdentifier)
                return false
            }
            return true
        }
        guard started else { return }
        finish(task, with: .failure(HTTPFetchError(.cancelled, url: url, "the task was cancelled")))
        Self.stop(task)
    }

    /// Stops a task whose caller has been answered. FoundationNetworking (Linux) traps when a task is
    /// cancelled while it completes (a race inside its task registry), so there the task is left to
    /// end on its own, bounded by the session's resource timeout; its bytes are dropped.
    static func stop(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            _ = task
        #else
            task.cancel()
        #endif
    }

    func armDeadline(for task: URLSessionTask, after limit: Duration) {
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            guard let self, let url = self.url(of: task) else { return }
            self.finish(task, with: .failure(HTTPFetchError(.timedOut, url: url, "no complete answer within \(limit)")))
            Self.stop(task)
        }
    }

    private func url(of task: URLSessionTask) -> URL? {
        lock.withLock { running[task.taskIdentifier]?.request.url }
    }

    /// Resumes the fetch's caller once; later calls for the same task do nothing.
    func finish(_ task: URLSessionTask, with result: Result<HTTPFetchResponse, HTTPFetchError>) {
        let entry = lock.withLock { running.removeValue(forKey: task.taskIdentifier) }
        entry?.continuation.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The resolver decides about redirects: hand it the 3xx answer.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            guard let name = name as? String else { continue }
            fields[name.lowercased()] = value as? String ?? "\(value)"
        }
        let tooLarge: URL? = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return nil }
            entry.status = http?.statusCode ?? 0
            entry.headers = fields
            running[dataTask.taskIdentifier] = entry
            if let length = fields["content-length"].flatMap(Int.init), length > entry.request.maximumBodySize {
                return entry.request.url
            }
            return nil
        }
        if let url = tooLarge {
            finish(
                dataTask,
                with: .failure(HTTPFetchError(.tooLarge, url: url, "the answer announces more bytes than allowed")))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: (URL, Int)? = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return nil }
            entry.body.append(data)
            running[dataTask.taskIdentifier] = entry
            let limit = entry.request.maximumBodySize
            return entry.body.count > limit ? (entry.request.url, limit) : nil
        }
        if let (url, limit) = overLimit {
            finish(
                dataTask,
                with: .failure(HTTPFetchError(.tooLarge, url: url, "the answer is longer than \(limit) bytes")))
            Self.stop(dataTask)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ running[task.taskIdentifier] }) else { return }
        guard let error else {
            finish(
                task, with: .success(HTTPFetchResponse(status: entry.status, headers: entry.headers, body: entry.body)))
            return
        }
        let code = (error as? URLError)?.code
        let kind: HTTPFetchError.Kind
        switch code {
        case .timedOut?: kind = .timedOut
        case .cancelled?: kind = .cancelled
        case .cannotFindHost?: kind = .hostNotFound
        case .cannotConnectToHost?, .dnsLookupFailed?, .notConnectedToInternet?,
            .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
            .unsupportedURL?:
            kind = .cannotConnect
        default: kind = .other
        }
        finish(task, with: .failure(HTTPFetchError(kind, url: entry.request.url, error.localizedDescription)))
    }
}
