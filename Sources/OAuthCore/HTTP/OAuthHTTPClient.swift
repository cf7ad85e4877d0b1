import Foundation

/// Sends the HTTP requests of OAuth: metadata `GET`s and form `POST`s to the authorization server.
///
/// An implementation must not follow redirects (metadata and token endpoints are never redirected
/// in the atproto profile) and must stop reading at ``OAuthHTTPRequest/maximumResponseSize``.
/// ``URLSessionOAuthHTTPClient`` is the default; tests bring their own.
public protocol OAuthHTTPClient: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``OAuthError`` (``OAuthError/Code/transport``, ``OAuthError/Code/timedOut``,
    ///   ``OAuthError/Code/tooLarge``, ``OAuthError/Code/cancelled``) when no complete answer arrived.
    func send(_ request: OAuthHTTPRequest) async throws(OAuthError) -> OAuthHTTPResponse
}

/// One OAuth HTTP request. Its description never shows header values or the body.
public struct OAuthHTTPRequest: Sendable, Hashable, CustomStringConvertible {
    /// `GET` or `POST`.
    public var method: String
    /// The URL.
    public var url: URL
    /// Request headers (`DPoP`, `Content-Type`, `Accept`).
    public var headers: [String: String]
    /// The body, for `POST`.
    public var body: Data?
    /// The most response bytes read; a longer answer fails with ``OAuthError/Code/tooLarge``.
    public var maximumResponseSize: Int
    /// The longest the request may take.
    public var timeout: Duration

    /// Creates a request. Defaults: 64 KiB of answer, 15 seconds.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data? = nil,
        maximumResponseSize: Int = 64 * 1024, timeout: Duration = .seconds(15)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maximumResponseSize = maximumResponseSize
        self.timeout = timeout
    }

    /// A `GET` of a JSON document.
    public static func getJSON(_ url: URL) -> OAuthHTTPRequest {
        OAuthHTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
    }

    /// A form `POST` (`application/x-www-form-urlencoded`) expecting JSON.
    public static func postForm(_ url: URL, _ fields: [(String, String)], headers: [String: String] = [:])
        -> OAuthHTTPRequest
    {
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        all["Accept"] = "application/json"
        return OAuthHTTPRequest(method: "POST", url: url, headers: all, body: FormEncoding.encode(fields))
    }

    /// The method, URL without its query, and header names.
    public var description: String {
        let names = headers.keys.sorted().joined(separator: ", ")
        return "\(method) \(DPoPProof.htu(for: url)) [\(names)]"
    }
}

/// The answer to an ``OAuthHTTPRequest``.
public struct OAuthHTTPResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
