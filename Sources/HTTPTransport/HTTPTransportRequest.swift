import Foundation

/// One HTTP request and the bounds its answer must keep. Its description never shows header values,
/// the query or the body (they carry tokens, DPoP proofs and authorization codes).
public struct HTTPTransportRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method: `GET`, `POST`.
    public var method: String
    /// The URL, query included.
    public var url: URL
    /// Request header fields (`Authorization`, `Content-Type`, `Accept`, `Host`), in order.
    public var headers: HTTPHeaderFields
    /// The body, or `nil`.
    public var body: Data?
    /// The most body bytes read from the answer; a longer one fails with
    /// ``HTTPTransportError/Code/tooLarge``. XRPC calls set no bound (`Int.max`); identity resolution
    /// and OAuth set small ones.
    public var maximumResponseSize: Int
    /// The longest the whole exchange may take, or `nil` for no deadline beyond ``idleTimeout``.
    public var timeout: Duration?
    /// The longest the server may send nothing, or `nil` for the transport's own idle timeout.
    public var idleTimeout: Duration?
    /// What to do with a redirect. Identity resolution and OAuth use ``HTTPRedirectPolicy/never``
    /// (they decide about a 3xx answer themselves); XRPC calls use
    /// ``HTTPRedirectPolicy/followDroppingCredentialsAcrossOrigins``.
    public var redirects: HTTPRedirectPolicy

    /// Creates a request. Defaults: no body, no bound on the answer's size, no deadline, no redirects
    /// followed.
    public init(
        method: String, url: URL, headers: HTTPHeaderFields = [:], body: Data? = nil,
        maximumResponseSize: Int = .max, timeout: Duration? = nil, idleTimeout: Duration? = nil,
        redirects: HTTPRedirectPolicy = .never
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maximumResponseSize = maximumResponseSize
        self.timeout = timeout
        self.idleTimeout = idleTimeout
        self.redirects = redirects
    }

    /// A header's value, its name matched without regard to case.
    public func header(_ name: String) -> String? { headers[name] }

    /// The method, the URL without its query and fragment, and the header names.
    public var description: String {
        let names = headers.names.sorted().joined(separator: ", ")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        let shown = components?.string ?? "<url>"
        return "\(method) \(shown) [\(names)]"
    }
}

/// What a transport does with a redirect (3xx with a `Location`). An open set of policies: match
/// with `==`.
public struct HTTPRedirectPolicy: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    /// No redirect is followed: the 3xx answer is returned to the caller, which decides (identity
    /// resolution follows same-host redirects itself; OAuth follows none).
    public static let never = HTTPRedirectPolicy(name: "never")
    /// Redirects are followed; one to another origin (scheme, host, port) drops the credential headers
    /// (`Authorization`, `DPoP`, `Cookie`, `Proxy-Authorization`). XRPC calls use it.
    public static let followDroppingCredentialsAcrossOrigins = HTTPRedirectPolicy(
        name: "followDroppingCredentialsAcrossOrigins")

    /// The policy's name.
    public var description: String { name }
}

extension HTTPRedirectPolicy {
    /// The headers ``followDroppingCredentialsAcrossOrigins`` drops on a redirect to another origin.
    package static let credentialHeaders = ["Authorization", "DPoP", "Cookie", "Proxy-Authorization"]

    /// `scheme://host:port`, lower-cased, the default port made explicit; `nil` without a host. Two
    /// URLs are of one origin when these are equal.
    package static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
