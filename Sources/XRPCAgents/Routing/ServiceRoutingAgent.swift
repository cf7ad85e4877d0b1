import AtprotoSyntax
import Foundation
import XRPCCore

extension XRPCClient {
    /// A client whose calls that name no service go to `service`.
    public func routed(to service: URL) -> XRPCClient {
        var client = XRPCClient(
            agent: ServiceRoutingAgent(wrapping: agent, service: service), headers: headers,
            validatesInput: validatesInput)
        client.eventStreams = eventStreams
        return client
    }
}

/// An agent that sends every request naming no service to one service, through another agent.
///
/// Event streams connect to that service too, with the wrapped agent's credentials for it (a session
/// gives them only when the service is its own PDS).
public struct ServiceRoutingAgent: XRPCAgent, XRPCAccountAgent {
    /// The agent requests go through.
    public let wrapped: any XRPCAgent
    /// Where requests that name no service go.
    public let service: URL

    /// Creates an agent that routes to `service` through `agent`.
    public init(wrapping agent: any XRPCAgent, service: URL) {
        self.wrapped = agent
        self.service = service
    }

    /// Sends `request` to its own service, or to ``service`` when it names none.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        var routed = request
        if routed.serviceURL == nil { routed.serviceURL = service }
        return try await wrapped.send(routed)
    }

    /// ``service``: where streams connect unless the client's options name another service.
    public func defaultServiceURL() async -> URL? { service }

    /// The wrapped agent's account, when it has one.
    package func accountDID() async -> DID? { await (wrapped as? any XRPCAccountAgent)?.accountDID() }

    /// The wrapped agent's header fields for `url` (it knows whether `url` is on one of its hosts),
    /// renewed by it after a `rejection`.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        try await wrapped.eventStreamHeaders(for: url, rejection: rejection)
    }
}
