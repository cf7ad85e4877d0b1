import AdmissionGates
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

// @unchecked Sendable: every field is a `let`; URLSession is thread-safe, though not Sendable on every SDK.
/// The one bounded `URLSession` loader of the package, under `URLSessionTransport` (XRPC calls,
/// identity resolution, OAuth): the body cut off at a limit, an exact deadline per
/// request when the caller sets one, and cancellation that answers the caller at once.
///
/// With its own session (``init(configuration:resourceTimeout:redirect:)``) the body is counted as
/// it arrives and redirects go through the caller's policy (by default never followed: the 3xx
/// answer is returned). With an app's session (``init(session:)``), whose delegate is the app's, the
/// body is read whole by the session and then checked against the limit.
///
/// With a session per request (``init(sessionPerRequest:resourceTimeout:redirect:)``) each request
/// goes through a `URLSession` made for it alone and invalidated once its task ends: no request is
/// ever written on a connection that an earlier one left open, whatever the server answered. On
/// Linux that is what keeps a request with a body from hanging: libcurl writes a request on a
/// pooled keep-alive connection, and when that connection turns out dead without an answer it sends
/// the request again on a new one after asking for the body to be rewound; FoundationNetworking
/// cannot rewind a `Data` body (its rewind does nothing), so the headers go out with their
/// `Content-Length` and no body, and the server waits for the body until the timeout.
///
/// FoundationNetworking (Linux) traps when a task is cancelled while it completes (a race in its task
/// registry) and can deadlock when its own async `data(for:)` is cancelled then, so there a task is
/// never cancelled once started: an abandoned transfer runs on, its bytes dropped, until the
/// request's or the session's timeout. Elsewhere it is cancelled. Package-visible.
package final class BoundedURLLoader: @unchecked Sendable {
    /// Decides a redirect: the request to follow it with (headers may be changed), or `nil` to return
    /// the 3xx answer to the caller. Gets the task's original request and the redirect's.
    package typealias RedirectPolicy = @Sendable (_ original: URLRequest?, _ redirect: URLRequest) -> URLRequest?

    /// Where requests are sent.
    private enum Sessions {
        /// One session for every request; `owned` when the loader made it (and is its delegate).
        case shared(URLSession, owned: Bool)
        /// A session made for each request from this configuration, as many at once to one host as
        /// the gate lets through.
        case perRequest(URLSessionConfiguration, KeyedAdmissionGate)
    }

    private let sessions: Sessions
    /// The shared session's delegate (unused with an app's session or a session per request).
    private let transfers: BoundedTransfers
    /// The loader's redirect policy (a session per request gives it to each request's delegate).
    private let redirect: RedirectPolicy?

    /// A loader with its own session from `configuration`. `resourceTimeout`, when given, bounds every
    /// transfer, even one whose caller was answered; `redirect` decides redirects (none followed when
    /// `nil`).
    package init(
        configuration: URLSessionConfiguration, resourceTimeout: Duration?, redirect: RedirectPolicy? = nil
    ) {
        if let resourceTimeout {
            configuration.timeoutIntervalForResource = max(1, Double(resourceTimeout.components.seconds))
        }
        let transfers = BoundedTransfers(redirect: redirect)
        self.transfers = transfers
        self.redirect = redirect
        self.sessions = .shared(
            URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil), owned: true)
    }

    /// A loader that sends each request through a session of its own, made from a copy of
    /// `configuration` taken now and invalidated once the request's task ends: no two requests ever
    /// share a connection. As with one session, at most the configuration's
    /// `httpMaximumConnectionsPerHost` transfers run at once to a host (running until they end, even
    /// when their caller was answered); the others wait in line, the wait counted in their timeout.
    /// `resourceTimeout` and `redirect` are as in ``init(configuration:resourceTimeout:redirect:)``.
    package init(
        sessionPerRequest configuration: URLSessionConfiguration, resourceTimeout: Duration?,
        redirect: RedirectPolicy? = nil
    ) {
        let own = configuration.copy() as? URLSessionConfiguration ?? configuration
        if let resourceTimeout {
            own.timeoutIntervalForResource = max(1, Double(resourceTimeout.components.seconds))
        }
        self.transfers = BoundedTransfers(redirect: redirect)
        self.redirect = redirect
        self.sessions = .perRequest(own, KeyedAdmissionGate(limit: own.httpMaximumConnectionsPerHost))
    }

    /// A loader over an app's `session`, left as it is (its delegate, redirects and cookies stay the
    /// app's; the loader never invalidates it). The body is checked against the limit once read.
    package init(session: URLSession) {
        self.transfers = BoundedTransfers(redirect: nil)
        self.redirect = nil
        self.sessions = .shared(session, owned: false)
    }

    deinit { if case .shared(let session, owned: true) = sessions { session.finishTasksAndInvalidate() } }

    /// Sends `request` and reads its answer, at most `limit` bytes.
    ///
    /// With a `timeout` the answer must be complete within it (the request's `timeoutInterval` is set
    /// just above it, whole seconds as FoundationNetworking rounds down); without one the request's
    /// own `timeoutInterval` (an idle timeout) is all that bounds the call. `redirect` decides this
    /// request's redirects (the loader's policy when `nil`; ignored with an app's session).
    package func load(
        _ request: URLRequest, limit: Int, timeout: Duration?, redirect: RedirectPolicy? = nil
    ) async -> Result<BoundedURLResponse, BoundedURLFailure> {
        var request = request
        if let timeout {
            request.timeoutInterval = max(1, Double(timeout.components.seconds).rounded(.up) + 1)
        }
        let session: URLSession
        let ownsSession: Bool
        switch sessions {
        case .perRequest(let configuration, let gate):
            return await loadAlone(request, configuration, gate, limit: limit, timeout: timeout, redirect: redirect)
        case .shared(let shared, let owned):
            (session, ownsSession) = (shared, owned)
        }
        let transfers = self.transfers
        let task: URLSessionDataTask
        if ownsSession {
            task = session.dataTask(with: request)
        } else {
            let holder = TaskHolder()
            task = session.dataTask(with: request) { data, response, error in
                guard let task = holder.task else { return }
                transfers.complete(task, data: data, response: response, error: error)
            }
            holder.task = task
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfers.start(task, limit: limit, redirect: redirect, continuation: continuation)
                if let timeout { transfers.arm(task, after: timeout) }
            }
        } onCancel: {
            transfers.cancel(task)
        }
    }
}

extension BoundedURLLoader {
    /// Sends `request` through a session made for it from `configuration`, invalidated once the task
    /// ends, once `gate` has a place for its host (the wait bounded by the call's timeout, or by the
    /// request's own when it has none). The session is made only if the caller was not cancelled by
    /// then, under one lock with the cancellation (`PendingStart`): a task made but never started
    /// would keep its session from ever being invalidated.
    private func loadAlone(
        _ request: URLRequest, _ configuration: URLSessionConfiguration, _ gate: KeyedAdmissionGate, limit: Int,
        timeout: Duration?, redirect: RedirectPolicy?
    ) async -> Result<BoundedURLResponse, BoundedURLFailure> {
        let arrival = ContinuousClock.now
        let host = request.url.map { "\($0.scheme ?? "")://\($0.host ?? ""):\($0.port ?? -1)" } ?? ""
        switch await gate.enter(host, within: timeout ?? .seconds(request.timeoutInterval)) {
        case .admitted: break
        case .cancelled: return .failure(.cancelled)
        case .timedOut: return .failure(.timedOut)
        }
        let remaining = timeout.map { $0 - (ContinuousClock.now - arrival) }
        if let remaining, remaining <= .zero {
            gate.leave(host)
            return .failure(.timedOut)
        }
        let pending = PendingStart()
        let policy = self.redirect
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = pending.begin {
                    let transfers = BoundedTransfers(redirect: policy) { gate.leave(host) }
                    let session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
                    let task = session.dataTask(with: request)
                    transfers.start(task, limit: limit, redirect: redirect, continuation: continuation)
                    // Invalidated once its one task ends (on Linux an abandoned task runs until its timeout).
                    session.finishTasksAndInvalidate()
                    if let remaining { transfers.arm(task, after: remaining) }
                    return (task, transfers)
                }
                if !started {
                    gate.leave(host)
                    continuation.resume(returning: .failure(.cancelled))
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return outcome
    }
}

// @unchecked Sendable: `cancelled` and `started` are read and written under `lock`.
/// The start of a request on a session of its own, against its caller's cancellation: either the
/// caller was cancelled first and nothing is made, or the task is made, started and tracked before
/// the cancellation can reach it.
private final class PendingStart: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var started: (task: URLSessionTask, transfers: BoundedTransfers)?

    /// Runs `start` unless the caller was cancelled already; `false` when it did not run.
    func begin(_ start: () -> (task: URLSessionTask, transfers: BoundedTransfers)) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            started = start()
            return true
        }
    }

    /// Marks the caller cancelled, and answers it as cancelled if its task was started.
    func cancel() {
        let running = lock.withLock {
            cancelled = true
            return started
        }
        if let running { running.transfers.cancel(running.task) }
    }
}

// @unchecked Sendable: `stored` is read and written under `lock`.
/// The task a completion handler belongs to, set before the task is resumed.
private final class TaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: URLSessionDataTask?

    var task: URLSessionDataTask? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
