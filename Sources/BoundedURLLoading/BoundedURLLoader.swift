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
/// FoundationNetworking (Linux) traps when a task is cancelled while it completes (a race in its task
/// registry) and can deadlock when its own async `data(for:)` is cancelled then, so there a task is
/// never cancelled once started: an abandoned transfer runs on, its bytes dropped, until the
/// request's or the session's timeout. Elsewhere it is cancelled. Package-visible.
package final class BoundedURLLoader: @unchecked Sendable {
    /// Decides a redirect: the request to follow it with (headers may be changed), or `nil` to return
    /// the 3xx answer to the caller. Gets the task's original request and the redirect's.
    package typealias RedirectPolicy = @Sendable (_ original: URLRequest?, _ redirect: URLRequest) -> URLRequest?

    private let session: URLSession
    private let ownsSession: Bool
    private let transfers: BoundedTransfers

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
        self.session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        self.ownsSession = true
    }

    /// A loader over an app's `session`, left as it is (its delegate, redirects and cookies stay the
    /// app's; the loader never invalidates it). The body is checked against the limit once read.
    package init(session: URLSession) {
        self.transfers = BoundedTransfers(redirect: nil)
        self.session = session
        self.ownsSession = false
    }

    deinit { if ownsSession { session.finishTasksAndInvalidate() } }

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
