import AtprotoSyntax
import Foundation

/// An HTTP exchange that got no complete answer: it timed out, was cancelled, could not connect, lost
/// its connection, or the answer was larger than the request allows.
///
/// Each module turns it into its own error at its boundary, with this one as `underlying`:
/// `XRPCTransportError` for XRPC calls, `IdentityError` for identity resolution, `OAuthError` for
/// OAuth. A server that answered, even with an error status, is an ``HTTPTransportResponse``.
public struct HTTPTransportError: AtprotoError, Hashable {
    /// Why no complete answer arrived. An open set: new codes may be added, so a `switch` needs a
    /// `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No complete answer within the request's timeout (or the transport's own).
        public static let timedOut: Code = "timedOut"
        /// The calling task was cancelled.
        public static let cancelled: Code = "cancelled"
        /// The host name does not resolve: the system's resolver knows no such name.
        public static let hostNotFound: Code = "hostNotFound"
        /// No connection could be made: refused, no network, a DNS failure other than an unknown
        /// name, TLS failure, a URL the system cannot fetch. The server never saw the request.
        public static let cannotConnect: Code = "cannotConnect"
        /// The connection broke before a complete answer; the server may have acted on the request.
        public static let connectionLost: Code = "connectionLost"
        /// The answer announced or sent more bytes than the request allows.
        public static let tooLarge: Code = "tooLarge"
        /// Anything else (an answer that is not HTTP, for one).
        public static let other: Code = "other"
    }

    /// Why no complete answer arrived.
    public var code: Code
    /// The request's method.
    public var method: String
    /// The URL requested, without its query (which may carry secrets).
    public var url: URL
    /// What the system reported, for people to read.
    public var message: String

    /// Creates an error about `request`'s URL, its query and fragment dropped.
    public init(_ code: Code, request: HTTPTransportRequest, message: String) {
        self.init(code, method: request.method, url: request.url, message: message)
    }

    /// Creates an error; the query and fragment of `url` are dropped.
    public init(_ code: Code, method: String, url: URL, message: String) {
        self.code = code
        self.method = method
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        self.url = components?.url ?? url
        self.message = message
    }

    public var description: String { "\(method) \(url.absoluteString): \(code): \(message)" }
}
