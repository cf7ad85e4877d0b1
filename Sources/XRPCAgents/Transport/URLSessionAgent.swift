import BoundedURLLoading
import Foundation
import XRPCCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport agent: sends each request over HTTP with `URLSession` to
/// `<service>/xrpc/<nsid>?<query>`.
///
/// The service is the agent's ``serviceURL`` unless the request names another
/// (`XRPCRequest.serviceURL`). A call ends when its task is cancelled; when the server sends
/// nothing for the agent's ``timeout``; and, when the request sets `XRPCRequest.timeout`, once that
/// much time has passed in all. Failures without a response throw ``XRPCTransportError``. When the agent owns its `URLSession`, a redirect to another origin drops
/// the credential headers (`Authorization`, `DPoP`, `Cookie`).
///
/// On Linux an agent that owns its session sends procedures on connections of their own, closed
/// after each answer: a procedure is then never written on a pooled connection the server may drop
/// unanswered, which FoundationNetworking would leave hanging until the timeout (or, were it to
/// rewind the body, send twice). Queries keep reusing connections.
///
/// ```swift
/// let agent = URLSessionAgent(serviceURL: URL(string: "https://public.api.bsky.app")!)
/// let client = XRPCClient(agent: agent)
/// ```
public final class URLSessionAgent: XRPCAgent, XRPCFixedServiceAgent, Sendable, CustomReflectable {
    /// The service requests go to unless they name another.
    public let serviceURL: URL
    /// The longest the agent waits for the server to send anything (URLSession's idle timeout,
    /// rounded up to whole seconds). A request's own `XRPCRequest.timeout` also bounds its whole call.
    public let timeout: Duration
    /// Headers sent with every request (`User-Agent`, for example); a request's own headers win.
    public let headers: [String: String]
    /// Where each call is logged (``XRPCLogRecord/Level/debug``: method, NSID, host, status, time;
    /// ``XRPCLogRecord/Level/warning``: a call without a response). Header values are never logged.
    public let logger: XRPCLogger
    /// Every call goes through the package's one bounded loader (BoundedURLLoading): cancellation
    /// that answers at once and never hangs FoundationNetworking, and the request's exact deadline.
    private let loader: BoundedURLLoader
    /// Linux: procedures go through a session of their own whose requests ask the server to close the
    /// connection after answering, so a procedure is never written on a pooled keep-alive connection.
    /// On such a connection, a server closing it before answering makes libcurl send the request again
    /// on a new one after rewinding the body, which FoundationNetworking does not do: the call would
    /// hang until its timeout (and, were the rewind done, the procedure would be sent twice). The
    /// price is a new connection per procedure. `nil` with an app's own session and on Apple platforms.
    private let procedureLoader: BoundedURLLoader?
    private let serviceOrigin: String?

    /// Creates an agent with its own `URLSession` made from `configuration`.
    public init(
        serviceURL: URL,
        timeout: Duration = .seconds(60),
        headers: [String: String] = [:],
        configuration: URLSessionConfiguration = .ephemeral,
        logger: XRPCLogger = .disabled
    ) {
        self.serviceURL = serviceURL
        self.timeout = timeout
        self.headers = headers
        self.logger = logger
        self.loader = BoundedURLLoader(
            configuration: configuration, resourceTimeout: nil, redirect: Self.withoutForeignCredentials)
        #if canImport(FoundationNetworking)
            self.procedureLoader = BoundedURLLoader(
                configuration: configuration, resourceTimeout: nil, redirect: Self.withoutForeignCredentials)
        #else
            self.procedureLoader = nil
        #endif
        self.serviceOrigin = ServiceOrigin(serviceURL)?.description
    }

    /// Creates an agent that sends through `session` (its delegate, redirects and cookies are yours).
    public init(
        serviceURL: URL, session: URLSession, timeout: Duration = .seconds(60), headers: [String: String] = [:],
        logger: XRPCLogger = .disabled
    ) {
        self.serviceURL = serviceURL
        self.timeout = timeout
        self.headers = headers
        self.logger = logger
        self.loader = BoundedURLLoader(session: session)
        self.procedureLoader = nil
        self.serviceOrigin = ServiceOrigin(serviceURL)?.description
    }

    /// A mirror with the service, the timeout and the names of the agent's headers: `dump` never
    /// reaches the `URLSession`, whose requests in flight carry credentials.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["serviceURL": serviceURL, "timeout": timeout, "headerNames": headers.keys.sorted()],
            displayStyle: .class)
    }

    /// ``serviceURL``.
    public func defaultServiceURL() async -> URL? { serviceURL }

    /// The agent's ``headers`` for a stream on its own service (`ws`/`wss` count as `http`/`https`),
    /// none for any other host.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> [String: String] {
        guard let origin = ServiceOrigin.httpEquivalent(of: url), origin == ServiceOrigin.httpEquivalent(of: serviceURL)
        else { return [:] }
        return headers
    }

    /// Sends the request and returns the response, whatever its status.
    ///
    /// Throws ``XRPCTransportError`` when no response arrived.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        let start = ContinuousClock.now
        do {
            let response = try await exchange(request)
            logger.log(
                .debug, "URLSessionAgent", "\(request.method.rawValue) \(request.nsid) -> \(response.status)",
                ["status": String(response.status), "ms": XRPCLogger.milliseconds(since: start)])
            return response
        } catch {
            logger.log(
                .warning, "URLSessionAgent",
                "\(request.method.rawValue) \(request.nsid) got no response: \(error.code)",
                ["service": error.service ?? "", "ms": XRPCLogger.milliseconds(since: start)])
            throw error
        }
    }

    private func exchange(_ request: XRPCRequest) async throws(XRPCTransportError) -> XRPCResponse {
        let service = request.serviceURL ?? serviceURL
        let origin = request.serviceURL == nil ? serviceOrigin : ServiceOrigin(service)?.description
        guard let url = request.url(on: service), origin != nil else {
            throw XRPCTransportError(
                .cannotConnect, nsid: request.nsid, service: service.absoluteString,
                message: "\"\(service.absoluteString)\" is not a service URL (scheme://host)")
        }
        var urlRequest = makeURLRequest(request, url: url)
        var chosen = loader
        if request.method == .post, let procedureLoader {
            chosen = procedureLoader
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        }
        switch await chosen.load(urlRequest, limit: Int.max, timeout: request.timeout) {
        case .success(let answer) where answer.status == 0:
            throw XRPCTransportError(
                .other, nsid: request.nsid, service: origin, message: "not an HTTP response")
        case .success(let answer):
            return XRPCResponse(status: answer.status, headers: answer.headers, body: answer.body)
        case .failure(.cancelled):
            throw XRPCTransportError(
                .cancelled, nsid: request.nsid, service: origin, message: "the task was cancelled")
        case .failure(.timedOut):
            let limit = request.timeout.map { "within \($0)" } ?? "for \(timeout)"
            throw XRPCTransportError(
                .timedOut, nsid: request.nsid, service: origin, message: "no response \(limit)")
        case .failure(.tooLarge(let limit, _)):
            throw XRPCTransportError(
                .other, nsid: request.nsid, service: origin, message: "the response is longer than \(limit) bytes")
        case .failure(.transport(let code?, let description)):
            throw XRPCTransportError(
                URLError(code, userInfo: [NSLocalizedDescriptionKey: description]), nsid: request.nsid, service: origin)
        case .failure(.transport(nil, let description)):
            throw XRPCTransportError(
                .other, nsid: request.nsid, service: origin, message: description)
        }
    }

    private func makeURLRequest(_ request: XRPCRequest, url: URL) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in headers where request.header(name) == nil {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let contentType = request.contentType {
            urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        urlRequest.httpBody = request.body
        // FoundationNetworking rounds this down to whole seconds (0.5 would time out at once), so round
        // up; a request's own timeout is enforced exactly by the loader.
        let limit = request.timeout.map { max($0, timeout) } ?? timeout
        urlRequest.timeoutInterval = max(
            1, Double(limit.components.seconds) + (limit.components.attoseconds > 0 ? 1 : 0))
        return urlRequest
    }

    /// Drops credential headers from a redirect to another origin (the agent's own sessions).
    static let withoutForeignCredentials: BoundedURLLoader.RedirectPolicy = { original, redirect in
        var next = redirect
        let from = original?.url.flatMap(ServiceOrigin.init)
        let to = redirect.url.flatMap(ServiceOrigin.init)
        if from == nil || from != to {
            for name in ["Authorization", "DPoP", "Cookie", "Proxy-Authorization"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return next
    }
}
