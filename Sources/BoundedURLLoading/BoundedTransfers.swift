import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// @unchecked Sendable: `running` and `cancelledEarly` are read and written under `lock`; `redirect` and `taskEnded` are `let`s.
/// The running transfers of a ``BoundedURLLoader``, keyed by task; the delegate of its own session.
final class BoundedTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<BoundedURLResponse, BoundedURLFailure>

    private struct Transfer {
        var limit: Int
        var redirect: BoundedURLLoader.RedirectPolicy?
        var continuation: CheckedContinuation<Outcome, Never>
        var response = BoundedURLResponse(status: 0, headers: [:], body: Data())
    }

    private let redirect: BoundedURLLoader.RedirectPolicy?
    /// Called when each task of the session ends, answered or abandoned (a session per request gives
    /// its place back to the loader's `KeyedAdmissionGate`).
    private let taskEnded: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var running: [Int: Transfer] = [:]
    /// Tasks cancelled before they started: never resumed (FoundationNetworking traps when a task
    /// cancelled while suspended is resumed).
    private var cancelledEarly: Set<Int> = []

    init(redirect: BoundedURLLoader.RedirectPolicy?, taskEnded: (@Sendable () -> Void)? = nil) {
        self.redirect = redirect
        self.taskEnded = taskEnded
    }

    /// Registers the transfer and resumes its task, unless it was cancelled already.
    func start(
        _ task: URLSessionTask, limit: Int, redirect: BoundedURLLoader.RedirectPolicy?,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let cancelled = lock.withLock {
            if cancelledEarly.remove(task.taskIdentifier) != nil { return true }
            running[task.taskIdentifier] = Transfer(limit: limit, redirect: redirect, continuation: continuation)
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

    /// Answers the caller as timed out once `limit` has passed, unless it was answered before.
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

    /// Answers the caller of a task on an app's session (completion handler): the answer read whole,
    /// then held to the limit.
    func complete(_ task: URLSessionTask, data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error { return finish(task, .failure(Self.failure(error))) }
        guard let limit = lock.withLock({ running[task.taskIdentifier]?.limit }) else { return }
        let body = data ?? Data()
        guard body.count <= limit else { return finish(task, .failure(.tooLarge(limit: limit, announced: false))) }
        let http = response as? HTTPURLResponse
        finish(
            task,
            .success(BoundedURLResponse(status: http?.statusCode ?? 0, headers: Self.fields(of: http), body: body)))
    }

    private static func failure(_ error: any Error) -> BoundedURLFailure {
        let code = (error as? URLError)?.code
        switch code {
        case .timedOut?: return .timedOut
        case .cancelled?: return .cancelled
        default: return .transport(code, error.localizedDescription)
        }
    }

    private static func fields(of response: HTTPURLResponse?) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response?.allHeaderFields ?? [:] {
            guard let name = name as? String else { continue }
            fields[name.lowercased()] = value as? String ?? "\(value)"
        }
        return fields
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Without a policy (the request's, else the loader's) the caller decides about redirects: it
        // gets the 3xx answer.
        let policy = lock.withLock { running[task.taskIdentifier]?.redirect } ?? redirect
        completionHandler(policy?(task.originalRequest, request))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let fields = Self.fields(of: http)
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
        taskEnded?()
        guard let entry = lock.withLock({ running[task.taskIdentifier] }) else { return }
        guard let error else { return finish(task, .success(entry.response)) }
        finish(task, .failure(Self.failure(error)))
    }
}
