import Foundation

/// The HTTP method of an XRPC call: `GET` for queries, `POST` for procedures.
public enum XRPCMethod: String, Sendable, Hashable {
    /// A query.
    case get = "GET"
    /// A procedure.
    case post = "POST"
}

/// Sends XRPC requests: the one seam between generated code and the network.
///
/// An agent owns transport and authentication. Agents compose by wrapping: a session agent adds
/// tokens and refreshes them, then hands the request to a transport agent. Tests inject
/// ``StubAgent``.
///
/// ```swift
/// let transport = RetryingAgent(wrapping: URLSessionAgent(serviceURL: service))
/// let session = PasswordSession(service: service, transport: transport)
/// let client = XRPCClient(agent: session)
/// ```
public protocol XRPCAgent: Sendable {
    /// Sends one request and returns the server's response, whatever its status.
    ///
    /// Throws only when no response arrived (connection failure, cancellation).
    func send(_ request: XRPCRequest) async throws -> XRPCResponse
}
