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
    private let session: URLSession
    /// Linux: procedures go through a session of their own whose requests ask the server to close the
    /// connection after answering, so a procedure is never written on a pooled keep-alive connection.
    /// On such a connection, a server closing it before answering makes libcurl send the request again
    /// on a new one after rewinding the body, which FoundationNetworking does not do: the call would
    /// hang until its timeout (and, were the rewind done, the procedure would be sent twice). The
    /// price is a new connection per procedure. `nil` with an app's own session and on Apple platforms.
    private let procedureSession: URLSession?
    private let ownsSession: Bool
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
        self.session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
        #if canImport(FoundationNetworking)
            self.procedureSession = URLSession(
                configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
        #else
            self.procedureSession = nil
        #endif
        self.ownsSession = true
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
        self.session = session
        self.procedureSession = nil
        self.ownsSession = false
        self.serviceOrigin = ServiceOrigin(serviceURL)?.description
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
        procedureSession?.finishTasksAndInvalidate()
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
                "\(request.method.rawValue) \(request.nsid) got no response: \(error.kind)",
                ["service": error.service ?? "", "ms": XRPCLogger.milliseconds(since: start)])
            throw error
        }
    }

    private func exchange(_ request: XRPCRequest) async throws(XRPCTransportError) -> XRPCResponse {
        let service = request.serviceURL ?? serviceURL
        let origin = request.serviceURL == nil ? serviceOrigin : ServiceOrigin(service)?.description
        guard let url = request.url(on: service), origin != nil else {
            throw XRPCTransportError(
                kind: .cannotConnect, nsid: request.nsid, service: service.absoluteString,
                underlyingDescription: "\"\(service.absoluteString)\" is not a service URL (scheme://host)")
        }
        var prepared = makeURLRequest(request, url: url)
        var chosen = self.session
        if request.method == .post, let procedureSession {
            chosen = procedureSession
            prepared.setValue("close", forHTTPHeaderField: "Connection")
        }
        let urlRequest = prepared
        let session = chosen
        do {
            let (data, response): (Data, URLResponse)
            if let limit = request.timeout {
                (data, response) = try await Self.withDeadline(limit, nsid: request.nsid, service: origin) {
                    try await URLSessionDataCall.data(session, for: urlRequest)
                }
            } else {
                (data, response) = try await URLSessionDataCall.data(session, for: urlRequest)
            }
            guard let http = response as? HTTPURLResponse else {
                throw XRPCTransportError(
                    kind: .other, nsid: request.nsid, service: origin, underlyingDescription: "not an HTTP response")
            }
            return XRPCResponse(status: http.statusCode, headers: Self.headerFields(of: http), body: data)
        } catch let error as XRPCTransportError {
            throw error
        } catch {
            throw XRPCTransportError(error, nsid: request.nsid, service: origin)
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
        // up; a request's own timeout is enforced exactly by `withDeadline`.
        let limit = request.timeout.map { max($0, timeout) } ?? timeout
        urlRequest.timeoutInterval = max(
            1, Double(limit.components.seconds) + (limit.components.attoseconds > 0 ? 1 : 0))
        return urlRequest
    }

    /// Runs `operation`, throwing a `timedOut` error when it takes longer than `limit` and a
    /// `cancelled` error when the calling task is cancelled.
    static func withDeadline<Value: Sendable>(
        _ limit: Duration,
        nsid: NSID,
        service: String?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            if let first = try await group.next(), let value = first {
                return value
            }
            if Task.isCancelled {
                throw XRPCTransportError(
                    kind: .cancelled, nsid: nsid, service: service, underlyingDescription: "the task was cancelled")
            }
            throw XRPCTransportError(
                kind: .timedOut, nsid: nsid, service: service, underlyingDescription: "no response within \(limit)")
        }
    }

    private static func headerFields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            fields[name.lowercased()] = value as? String ?? "\(value)"
        }
        return fields
    }
}

/// Drops credential headers from a redirect to another origin.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var next = request
        let from = task.originalRequest?.url.flatMap(ServiceOrigin.init)
        let to = request.url.flatMap(ServiceOrigin.init)
        if from == nil || from != to {
            for name in ["Authorization", "DPoP", "Cookie", "Proxy-Authorization"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        completionHandler(next)
    }
}
