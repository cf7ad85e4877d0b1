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
/// An agent owns sending and authentication. Agents compose by wrapping: a session agent adds
/// tokens and refreshes them, then hands the request to the agent it wraps, down to the one that
/// sends it over HTTP (`URLSessionAgent`, through an `HTTPTransport`). Tests inject
/// `StubAgent` (the XRPCTesting module).
///
/// Every requirement is explicit, with no default: an agent that wraps another one must decide, for
/// calls and for event streams alike, what to forward and what to add, so a wrapper that forgets a
/// requirement does not compile (rather than silently losing its inner agent's service or
/// credentials). A wrapper that adds nothing to event streams forwards both event-stream
/// requirements to its inner agent, as `RetryingAgent` does.
///
/// ```swift
/// let agent = RetryingAgent(wrapping: URLSessionAgent(serviceURL: service))
/// let session = PasswordSession(service: service, agent: agent)
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
    /// service: a `URLSessionAgent` answers with its service, a session with its account's PDS, a wrapper
    /// with its inner agent's answer (or the service it routes to).
    func defaultServiceURL() async -> URL?

    /// Header fields for the WebSocket upgrade request of an event stream to `url`: an
    /// authenticated agent returns its `Authorization` (and, for DPoP, the proof for `url`) when
    /// `url` is on one of its own hosts, and nothing for any other host; an agent without
    /// credentials returns none; a wrapper returns its inner agent's.
    ///
    /// The stream asks before every connection, so a reconnection carries the current token. When
    /// the server refuses an upgrade as unauthorized (status 401, or `ExpiredToken` /
    /// `InvalidToken`), the stream asks once more with that refusal as `rejection`: refresh the
    /// credentials and return the new headers, or the same ones to let the refusal end the stream.
    func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields
}

/// An agent whose service is fixed when it is made (the URLSession agent of XRPCAgents), so an event
/// stream's URL is known before its first connection. Package-visible: a stand-in for the agent
/// protocol's own answer until that requirement can be synchronous.
package protocol XRPCFixedServiceAgent: XRPCAgent {
    /// The service every request that names none goes to.
    var serviceURL: URL { get }
}

/// An agent that knows which account its calls act as (a session), or wraps one that does. Package-
/// visible: what serializes an account's read-modify-write edits (BlueskyKit's preference editors)
/// asks it, so that two clients over one session, or two sessions of one account, share one lane.
package protocol XRPCAccountAgent: XRPCAgent {
    /// The DID of the account the agent's calls act as, or `nil` while it has none (signed out).
    func accountDID() async -> DID?
}
