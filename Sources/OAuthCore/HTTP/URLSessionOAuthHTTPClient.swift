import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``OAuthHTTPClient``: its own ephemeral `URLSession`, no redirects, no cookies, the
/// body cut off at the request's limit, and an exact deadline per request.
///
/// On Linux a task is never cancelled once started (FoundationNetworking traps when a task is
/// cancelled while it completes): an abandoned request runs on, its bytes dropped, until the
/// session's resource timeout.
public final class URLSessionOAuthHTTPClient: OAuthHTTPClient, @unchecked Sendable {
    private let session: URLSession
    private let transfers: OAuthTransfers

    /// Creates a client; `resourceTimeout` bounds every transfer, even one whose caller gave up.
    public init(resourceTimeout: Duration = .seconds(60)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.timeoutIntervalForResource = max(1, Double(resourceTimeout.components.seconds))
        let transfers = OAuthTransfers()
        self.transfers = transfers
        self.session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request; see ``OAuthHTTPClient/send(_:)``.
    public func send(_ request: OAuthHTTPRequest) async throws(OAuthError) -> OAuthHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.timeoutInterval = max(1, Double(request.timeout.components.seconds) + 1)
        let task = session.dataTask(with: urlRequest)
        let transfers = self.transfers
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfers.start(task, limit: request.maximumResponseSize, continuation: continuation)
                transfers.arm(task, after: request.timeout)
            }
        } onCancel: {
            transfers.finish(task, .failure(OAuthError(.cancelled, "\(request) was cancelled")), beforeStart: true)
        }
        return try result.get()
    }
}

/// The running transfers, keyed by task; the session's delegate.
private final class OAuthTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<OAuthHTTPResponse, OAuthError>

    private struct Transfer {
        var limit: Int
        var continuation: CheckedContinuation<Outcome, Never>
        var response = OAuthHTTPResponse(status: 0)
    }

    private let lock = NSLock()
    private var running: [Int: Transfer] = [:]
    /// Tasks finished before they started (cancelled early): never resumed.
    private var finishedEarly: [Int: Outcome] = [:]

    func start(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<Outcome, Never>) {
        let early: Outcome? = lock.withLock {
            if let outcome = finishedEarly.removeValue(forKey: task.taskIdentifier) { return outcome }
            running[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation)
            task.resume()
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Answers the caller once; later calls for the task do nothing. The task itself is left to end.
    /// With `beforeStart`, an outcome for a task not started yet is kept for ``start``.
    func finish(_ task: URLSessionTask, _ outcome: Outcome, beforeStart: Bool = false) {
        let entry: Transfer? = lock.withLock {
            guard let entry = running.removeValue(forKey: task.taskIdentifier) else {
                if beforeStart { finishedEarly[task.taskIdentifier] = outcome }
                return nil
            }
            return entry
        }
        entry?.continuation.resume(returning: outcome)
    }

    func arm(_ task: URLSessionTask, after limit: Duration) {
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            guard let self, self.isRunning(task) else { return }
            self.finish(task, .failure(OAuthError(.timedOut, "no complete answer within \(limit)")))
        }
    }

    private func isRunning(_ task: URLSessionTask) -> Bool {
        lock.withLock { running[task.taskIdentifier] != nil }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
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
        let tooLarge: Bool = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return false }
            entry.response = OAuthHTTPResponse(status: http?.statusCode ?? 0, headers: fields)
            running[dataTask.taskIdentifier] = entry
            return fields["content-length"].flatMap(Int.init).map { $0 > entry.limit } ?? false
        }
        if tooLarge {
            finish(dataTask, .failure(OAuthError(.tooLarge, "the answer announces more bytes than allowed")))
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: Int? = lock.withLock {
            guard var entry = running[dataTask.taskIdentifier] else { return nil }
            entry.response.body.append(data)
            running[dataTask.taskIdentifier] = entry
            return entry.response.body.count > entry.limit ? entry.limit : nil
        }
        if let overLimit {
            finish(dataTask, .failure(OAuthError(.tooLarge, "the answer is longer than \(overLimit) bytes")))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ running[task.taskIdentifier] }) else { return }
        guard let error else { return finish(task, .success(entry.response)) }
        let kind: OAuthError.Kind = (error as? URLError)?.code == .timedOut ? .timedOut : .transport
        finish(task, .failure(OAuthError(kind, "no answer: \(error.localizedDescription)")))
    }
}
