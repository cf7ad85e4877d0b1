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
/// `StubAgent` (the XRPCTesting module).
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

    /// The service a request goes to when it names none (``XRPCRequest/serviceURL``), or `nil` when
    /// the agent cannot say.
    ///
    /// Event streams connect there unless ``XRPCEventStreamOptions/serviceURL`` names another
    /// service. The default is `nil`: an agent that wraps another one should forward the call to it,
    /// as `RetryingAgent` does; a session answers with its account's PDS.
    func defaultServiceURL() async -> URL?

    /// Header fields for the WebSocket upgrade request of an event stream to `url`: an
    /// authenticated agent returns its `Authorization` (and, for DPoP, the proof for `url`) when
    /// `url` is on one of its own hosts, and nothing for any other host.
    ///
    /// The stream asks before every connection, so a reconnection carries the current token. When
    /// the server refuses an upgrade as unauthorized (status 401, or `ExpiredToken` /
    /// `InvalidToken`), the stream asks once more with that refusal as `rejection`: refresh the
    /// credentials and return the new headers, or the same ones to let the refusal end the stream.
    /// The default returns no headers.
    func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> [String: String]
}

extension XRPCAgent {
    /// `nil`: this agent does not say which service it talks to.
    public func defaultServiceURL() async -> URL? { nil }

    /// No header fields.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> [String: String] {
        [:]
    }
}

/// An agent whose service is fixed when it is made (the URLSession agent of XRPCAgents), so an event
/// stream's URL is known before its first connection. Package-visible: a stand-in for the agent
/// protocol's own answer until that requirement can be synchronous.
package protocol XRPCFixedServiceAgent: XRPCAgent {
    /// The service every request that names none goes to.
    var serviceURL: URL { get }
}
