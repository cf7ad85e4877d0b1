import AtprotoSyntax
import Foundation

/// Fetches a URL with `GET`: the seam between the resolvers and the network, like `XRPCAgent` for
/// XRPC calls.
///
/// Resolvers fetch documents that are not XRPC endpoints (`/.well-known/atproto-did`, a PLC
/// directory's `/<did>`, `/.well-known/did.json`). An implementation must not follow redirects on its
/// own: the resolver sees the 3xx answer and decides (same host only). ``URLSessionFetcher`` is the
/// default; tests and apps can bring their own.
public protocol HTTPFetcher: Sendable {
    /// Fetches `request.url`, reading at most `request.maximumBodySize` bytes of body.
    ///
    /// - Throws: ``HTTPFetchError`` when no complete answer arrived, or the body is larger than allowed.
    func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse
}

/// One `GET` a resolver makes.
public struct HTTPFetchRequest: Sendable, Hashable {
    /// The URL to fetch.
    public var url: URL
    /// Request headers (`Accept`, or `Host` when the URL was rewritten for a test).
    public var headers: [String: String]
    /// The most body bytes to read; a longer body fails with ``HTTPFetchError/Code/tooLarge``.
    public var maximumBodySize: Int
    /// The longest the whole fetch may take.
    public var timeout: Duration

    /// Creates a request.
    public init(url: URL, headers: [String: String] = [:], maximumBodySize: Int, timeout: Duration) {
        self.url = url
        self.headers = headers
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
    }
}

/// The answer to an ``HTTPFetchRequest``, whatever its status.
public struct HTTPFetchResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The `Content-Type` without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        headers["content-type"].map {
            String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

/// A fetch that got no complete answer.
public struct HTTPFetchError: AtprotoError, Hashable {
    /// Why the fetch failed. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No answer within the request's timeout.
        public static let timedOut: Code = "timedOut"
        /// The calling task was cancelled.
        public static let cancelled: Code = "cancelled"
        /// The host name does not resolve: the system's resolver knows no such name.
        public static let hostNotFound: Code = "hostNotFound"
        /// No connection: refused, a DNS failure other than an unknown name, TLS failure.
        public static let cannotConnect: Code = "cannotConnect"
        /// The body was longer than the request allows.
        public static let tooLarge: Code = "tooLarge"
        /// Anything else (a connection lost mid-answer, a URL the system cannot fetch).
        public static let other: Code = "other"
    }

    /// Why the fetch failed.
    public var code: Code
    /// The URL fetched.
    public var url: URL
    /// What the system reported.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, url: URL, message: String) {
        self.code = code
        self.url = url
        self.message = message
    }

    public var description: String { "GET \(url.absoluteString): \(code): \(message)" }
}
