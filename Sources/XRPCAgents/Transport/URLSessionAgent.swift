import Foundation
import HTTPTransport
import XRPCCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport agent: sends each request to `<service>/xrpc/<nsid>?<query>` through an
/// `HTTPTransport` (by default `URLSessionTransport`, over `URLSession`).
///
/// The service is the agent's ``serviceURL`` unless the request names another
/// (`XRPCRequest.serviceURL`). A call ends when its task is cancelled; when the server sends
/// nothing for the agent's ``timeout``; and, when the request sets `XRPCRequest.timeout`, once that
/// much time has passed in all. Failures without a response throw ``XRPCTransportError``, with the
/// transport's `HTTPTransportError` as `underlying`. Redirects are followed
/// (`HTTPRedirectPolicy.followDroppingCredentialsAcrossOrigins`): one to another origin drops the
/// credential headers (`Authorization`, `DPoP`, `Cookie`) when the transport owns its session.
///
/// An app with its own HTTP stack passes it as `transport:`; the same transport serves identity
/// resolution and OAuth (see `HTTPTransport`).
///
/// ```swift
/// let agent = URLSessionAgent(serviceURL: URL(string: "https://public.api.bsky.app")!)
/// let client = XRPCClient(agent: agent)
/// ```
public final class URLSessionAgent: XRPCAgent, XRPCFixedServiceAgent, Sendable, CustomReflectable {
    /// The service requests go to unless they name another.
    public let serviceURL: URL
    /// The longest the agent waits for the server to send anything (the request's
    /// `HTTPTransportRequest.idleTimeout`). A request's own `XRPCRequest.timeout` also bounds its
    /// whole call.
    public let timeout: Duration
    /// Headers sent with every request (`User-Agent`, for example); a request's own headers win.
    public let headers: HTTPHeaderFields
    /// Where each call is logged (``XRPCLogRecord/Level/debug``: method, NSID, host, status, time;
    /// ``XRPCLogRecord/Level/warning``: a call without a response). Header values are never logged.
    public let logger: XRPCLogger
    /// Every call goes through it.
    private let transport: any HTTPTransport
    private let serviceOrigin: String?

    /// Creates an agent that sends through `transport`: an app's own HTTP stack, or a
    /// `URLSessionTransport` shared with identity resolution and OAuth.
    public init(
        serviceURL: URL, transport: any HTTPTransport, timeout: Duration = .seconds(60),
        headers: HTTPHeaderFields = [:], logger: XRPCLogger = .disabled
    ) {
        self.serviceURL = serviceURL
        self.timeout = timeout
        self.headers = headers
        self.logger = logger
        self.transport = transport
        self.serviceOrigin = ServiceOrigin(serviceURL)?.description
    }

    /// Creates an agent with a `URLSessionTransport` of its own, its `URLSession` made from
    /// `configuration`.
    public convenience init(
        serviceURL: URL,
        timeout: Duration = .seconds(60),
        headers: HTTPHeaderFields = [:],
        configuration: URLSessionConfiguration = .ephemeral,
        logger: XRPCLogger = .disabled
    ) {
        self.init(
            serviceURL: serviceURL, transport: URLSessionTransport(configuration: configuration), timeout: timeout,
            headers: headers, logger: logger)
    }

    /// Creates an agent that sends through `session` (its delegate, redirects and cookies are yours).
    public convenience init(
        serviceURL: URL, session: URLSession, timeout: Duration = .seconds(60), headers: HTTPHeaderFields = [:],
        logger: XRPCLogger = .disabled
    ) {
        self.init(
            serviceURL: serviceURL, transport: URLSessionTransport(session: session), timeout: timeout,
            headers: headers, logger: logger)
    }

    /// A mirror with the service, the timeout and the names of the agent's headers: `dump` never
    /// reaches the `URLSession`, whose requests in flight carry credentials.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["serviceURL": serviceURL, "timeout": timeout, "headerNames": headers.names.sorted()],
            displayStyle: .class)
    }

    /// ``serviceURL``.
    public func defaultServiceURL() async -> URL? { serviceURL }

    /// The agent's ``headers`` for a stream on its own service (`ws`/`wss` count as `http`/`https`),
    /// none for any other host.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
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
        do {
            return try await transport.send(httpRequest(request, url: url))
        } catch {
            throw XRPCTransportError(error, nsid: request.nsid, service: origin)
        }
    }

    private func httpRequest(_ request: XRPCRequest, url: URL) -> HTTPTransportRequest {
        // The agent's fields, then the request's: a name the request sets replaces the agent's.
        var fields = headers
        fields.merge(request.headers)
        if let contentType = request.contentType { fields["Content-Type"] = contentType }
        return HTTPTransportRequest(
            method: request.method.rawValue, url: url, headers: fields, body: request.body,
            timeout: request.timeout, idleTimeout: timeout, redirects: .followDroppingCredentialsAcrossOrigins)
    }
}
