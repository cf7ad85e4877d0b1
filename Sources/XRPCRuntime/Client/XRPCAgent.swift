import Foundation

/// The HTTP method of an XRPC call: `GET` for queries, `POST` for procedures.
public enum XRPCMethod: String, Sendable, Hashable {
    /// A query.
    case get = "GET"
    /// A procedure.
    case post = "POST"
}

/// One XRPC call as the agent sees it: everything needed to send it, nothing about types.
public struct XRPCRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: XRPCMethod
    /// The endpoint's NSID; the path is `/xrpc/<nsid>`.
    public var nsid: String
    /// Query parameters in order; an array parameter appears once per element.
    public var queryItems: [URLQueryItem]
    /// Request headers (names as written; XRPC does not depend on case).
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?
    /// The body's `Content-Type`, or `nil` without a body.
    public var contentType: String?

    /// Creates a request.
    public init(
        method: XRPCMethod,
        nsid: String,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Data? = nil,
        contentType: String? = nil
    ) {
        self.method = method
        self.nsid = nsid
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.contentType = contentType
    }

    /// The path of the endpoint, `/xrpc/<nsid>`.
    public var path: String { "/xrpc/" + nsid }
}

/// What came back from the server for one XRPC call.
public struct XRPCResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers, with lower-cased names.
    public var headers: [String: String]
    /// The body, empty when there was none.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// Sends XRPC requests: the one seam between generated code and the network.
///
/// An agent owns transport and authentication. Agents compose by wrapping: a session agent adds
/// tokens and refreshes them, then hands the request to a transport agent. Tests inject
/// ``StubAgent``.
public protocol XRPCAgent: Sendable {
    /// Sends one request and returns the server's response, whatever its status.
    ///
    /// Throws only when no response arrived (connection failure, cancellation).
    func send(_ request: XRPCRequest) async throws -> XRPCResponse
}
