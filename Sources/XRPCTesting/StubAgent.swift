import Foundation
import XRPCCore

// @unchecked Sendable: `recorded` is read and written under `lock`; the rest are `let`s of Sendable values.
/// A test double agent: answers each request with a handler you supply and records every request.
///
/// ```swift
/// let agent = StubAgent { request in
///     XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
/// }
/// let client = XRPCClient(agent: agent)
/// ```
public final class StubAgent: XRPCAgent, @unchecked Sendable {
    /// Produces the response for a request.
    public typealias Handler = @Sendable (XRPCRequest) async throws -> XRPCResponse

    private let handler: Handler
    private let lock = NSLock()
    private var recorded: [XRPCRequest] = []
    /// The service event streams of a client over this agent connect to (``defaultServiceURL()``).
    public let serviceURL: URL?
    /// The header fields this agent gives the upgrade request of a stream on ``serviceURL``'s host.
    public let streamHeaders: HTTPHeaderFields

    /// Creates an agent that answers with `handler`; event streams go to `serviceURL` (none by
    /// default) with `streamHeaders` on its host.
    public init(serviceURL: URL? = nil, streamHeaders: HTTPHeaderFields = [:], handler: @escaping Handler) {
        self.handler = handler
        self.serviceURL = serviceURL
        self.streamHeaders = streamHeaders
    }

    /// Creates an agent that answers every request with the same JSON body and status.
    public convenience init(status: Int = 200, json: String) {
        self.init { _ in
            XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
        }
    }

    /// Every request sent so far, in order.
    public var requests: [XRPCRequest] {
        lock.withLock { recorded }
    }

    /// Records the request, then answers it with the handler.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        lock.withLock { recorded.append(request) }
        return try await handler(request)
    }

    /// ``serviceURL``.
    public func defaultServiceURL() async -> URL? { serviceURL }

    /// ``streamHeaders`` for a stream on ``serviceURL``'s host (`ws`/`wss` count as `http`/`https`),
    /// none for any other host or without a service.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        guard let serviceURL, let origin = ServiceOrigin.httpEquivalent(of: url),
            origin == ServiceOrigin.httpEquivalent(of: serviceURL)
        else { return [:] }
        return streamHeaders
    }
}
