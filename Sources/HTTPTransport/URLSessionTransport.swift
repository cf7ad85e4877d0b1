import BoundedURLLoading
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``: `URLSession` (FoundationNetworking on Linux), the body counted as
/// it arrives and cut off at the request's ``HTTPTransportRequest/maximumResponseSize``, the request's
/// exact deadline, its redirect policy, and cancellation that answers the caller at once.
///
/// With its own session (``init(configuration:resourceTimeout:)``) everything above holds. With an
/// app's session (``init(session:)``) the session's delegate, redirects and cookies stay the app's: the
/// body is read whole by the session and then checked against the bound, and redirects are the
/// session's (URLSession's default follows them).
///
/// On Linux a task is never cancelled once started (FoundationNetworking traps when a task is
/// cancelled while it completes): an abandoned request runs on, its bytes dropped, until the
/// request's or the session's timeout.
///
/// On Linux a transport that owns its session also sends every request other than `GET` and `HEAD`
/// (an XRPC procedure, an OAuth `POST`) through a `URLSession` made for that request alone, with
/// `Connection: close`, so it always goes on a new connection. A request with a body must never be
/// written on a pooled connection there: when libcurl (under FoundationNetworking) finds such a
/// connection dead without an answer, whether the server dropped it idle or dropped the request, it
/// sends the request again on a new connection after a body rewind that FoundationNetworking does not
/// do for a `Data` body. The request then goes out with its `Content-Length` and no body, and the
/// call hangs until its timeout. `Connection: close` alone does not keep a connection out of the
/// pool: libcurl pools it unless the server's answer says `close` too, and a server that closes
/// without saying so (as Python's `http.server` does) leaves a connection that the next `POST`, sent
/// within milliseconds, may pick before its close is seen; a busy machine widens that window. A
/// session per request has no pool to pick from. As with one session, at most the configuration's
/// `httpMaximumConnectionsPerHost` (6 by default) of these requests run at once to one host; the
/// others wait in line, the wait counted in their timeout.
///
/// Why not let libcurl retry with a body it can rewind (an `httpBodyStream` that the delegate's
/// `urlSession(_:task:needNewBodyStream:)` hands out again)? FoundationNetworking sends a stream body
/// chunked (it never sets a length for one, and a `Content-Length` beside `Transfer-Encoding` is
/// invalid), it traps if that delegate method answers for a `Data` body, and the retry itself is
/// unsafe: libcurl retries when nothing of an answer was received, which is also what a server that
/// acted on a procedure and then dropped the connection looks like, so the procedure would run twice.
/// On a connection of its own a dropped request is never retried: it ends at once with
/// ``HTTPTransportError/Code/connectionLost`` and is sent once. `GET` and `HEAD` stay on the pooled
/// session (a retried `GET` has no body to lose and no effect to repeat).
public final class URLSessionTransport: HTTPTransport, Sendable, CustomReflectable {
    /// Every request goes through the package's one bounded loader.
    private let loader: BoundedURLLoader
    /// Linux, own session: requests other than `GET`/`HEAD` go through a session made for each (`nil`
    /// elsewhere).
    private let bodyLoader: BoundedURLLoader?

    /// Creates a transport with its own `URLSession`.
    ///
    /// - Parameters:
    ///   - configuration: What the session is made from (no cache or cookies kept beyond the
    ///     transport's life by default).
    ///   - resourceTimeout: The longest any transfer may run, even one whose caller was answered (a
    ///     cancelled or oversized transfer on Linux runs on until then, its bytes dropped); `nil` for
    ///     the configuration's own.
    public init(configuration: URLSessionConfiguration = .ephemeral, resourceTimeout: Duration? = nil) {
        self.loader = BoundedURLLoader(configuration: configuration, resourceTimeout: resourceTimeout)
        #if canImport(FoundationNetworking)
            self.bodyLoader = BoundedURLLoader(sessionPerRequest: configuration, resourceTimeout: resourceTimeout)
        #else
            self.bodyLoader = nil
        #endif
    }

    /// Creates a transport that sends through `session`, left as it is: its delegate, redirects and
    /// cookies are yours, and the transport never invalidates it. On Linux every request, `POST`s
    /// included, then goes through that session's pool of connections, where a `POST` written on a
    /// connection the server closed can hang until its timeout (see the type's documentation).
    public init(session: URLSession) {
        self.loader = BoundedURLLoader(session: session)
        self.bodyLoader = nil
    }

    /// A mirror with nothing in it: `dump` never reaches the `URLSession`, whose requests in flight
    /// carry credentials.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .class) }

    /// Sends the request; see ``HTTPTransport/send(_:)``.
    public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // URLRequest keeps one value per name: repeated fields go as one, joined by commas (RFC 9110
        // section 5.3 makes that the same message).
        for (name, value) in request.headers.joinedByName { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if let idle = request.idleTimeout {
            // FoundationNetworking rounds this down to whole seconds (0.5 would time out at once), so
            // round up; a request's own timeout is enforced exactly by the loader.
            urlRequest.timeoutInterval = max(
                1, Double(idle.components.seconds) + (idle.components.attoseconds > 0 ? 1 : 0))
        }
        var chosen = loader
        if let bodyLoader, !["GET", "HEAD"].contains(request.method.uppercased()) {
            // A session of its own: never a pooled connection (see the type's documentation). `close`
            // tells the server not to keep a connection that nothing will use again.
            chosen = bodyLoader
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        }
        let redirect: BoundedURLLoader.RedirectPolicy? =
            request.redirects == .followDroppingCredentialsAcrossOrigins ? Self.withoutForeignCredentials : nil
        let outcome = await chosen.load(
            urlRequest, limit: request.maximumResponseSize, timeout: request.timeout, redirect: redirect)
        switch outcome {
        case .success(let answer) where answer.status == 0:
            throw HTTPTransportError(.other, request: request, message: "not an HTTP response")
        case .success(let answer):
            // URLSession joins repeated fields into one value (commas between): each name comes once.
            return HTTPTransportResponse(
                status: answer.status, headers: HTTPHeaderFields(answer.headers), body: answer.body)
        case .failure(let failure):
            throw Self.error(failure, request)
        }
    }

    private static func error(_ failure: BoundedURLFailure, _ request: HTTPTransportRequest) -> HTTPTransportError {
        switch failure {
        case .cancelled: return HTTPTransportError(.cancelled, request: request, message: "the task was cancelled")
        case .timedOut:
            let limit =
                request.timeout.map { "within \($0)" } ?? request.idleTimeout.map { "for \($0)" } ?? "in time"
            return HTTPTransportError(.timedOut, request: request, message: "no complete answer \(limit)")
        case .tooLarge(_, announced: true):
            return HTTPTransportError(
                .tooLarge, request: request, message: "the answer announces more bytes than allowed")
        case .tooLarge(let limit, announced: false):
            return HTTPTransportError(.tooLarge, request: request, message: "the answer is longer than \(limit) bytes")
        case .transport(let code?, let description):
            return HTTPTransportError(
                Self.code(of: code), request: request, message: "\(description) (URLError \(code.rawValue))")
        case .transport(nil, let description):
            return HTTPTransportError(.other, request: request, message: description)
        }
    }

    private static func code(of code: URLError.Code) -> HTTPTransportError.Code {
        switch code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotFindHost: return .hostNotFound
        case .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet, .secureConnectionFailed,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .internationalRoamingOff,
            .dataNotAllowed, .callIsActive, .unsupportedURL, .badURL:
            return .cannotConnect
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return .connectionLost
        default: return .other
        }
    }

    /// Drops credential headers from a redirect to another origin.
    static let withoutForeignCredentials: BoundedURLLoader.RedirectPolicy = { original, redirect in
        var next = redirect
        let from = original?.url.flatMap(HTTPRedirectPolicy.origin(of:))
        let to = redirect.url.flatMap(HTTPRedirectPolicy.origin(of:))
        if from == nil || from != to {
            for name in HTTPRedirectPolicy.credentialHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        }
        return next
    }
}
