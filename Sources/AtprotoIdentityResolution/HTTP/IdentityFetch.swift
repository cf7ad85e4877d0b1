import Foundation
import HTTPTransport

/// Limits and timeouts for the documents resolvers fetch: hostile or broken servers cost little.
public struct IdentityFetchLimits: Sendable, Hashable {
    /// The longest one fetch may take, redirects included. Default 10 s.
    public var timeout: Duration
    /// The largest DID document or resolution answer read. Default 64 KiB.
    public var maximumDocumentSize: Int
    /// The largest `/.well-known/atproto-did` answer read. Default 4 KiB (a DID is at most 2 KiB).
    public var maximumHandleAnswerSize: Int
    /// How many redirects to the same host are followed. Default 3. A redirect to another host is
    /// always an error.
    public var maximumRedirects: Int

    /// Creates limits; the defaults suit every real server.
    public init(
        timeout: Duration = .seconds(10),
        maximumDocumentSize: Int = 64 * 1024,
        maximumHandleAnswerSize: Int = 4 * 1024,
        maximumRedirects: Int = 3
    ) {
        self.timeout = timeout
        self.maximumDocumentSize = maximumDocumentSize
        self.maximumHandleAnswerSize = maximumHandleAnswerSize
        self.maximumRedirects = maximumRedirects
    }
}

/// Fetching for resolvers: `GET`s through the transport (which follows no redirect), same-host
/// redirects followed here, transport errors turned into ``IdentityError``.
struct IdentityFetch {
    var transport: any HTTPTransport
    var limits: IdentityFetchLimits

    /// GETs `url` and returns the final answer (a 2xx, or any status that is not a redirect).
    ///
    /// - Parameters:
    ///   - hostHeader: sent as `Host` when the URL was rewritten by a test override.
    func get(
        _ url: URL,
        accept: String,
        maximumSize: Int,
        identifier: String,
        hostHeader: String? = nil
    ) async throws(IdentityError) -> HTTPTransportResponse {
        var current = url
        var headers: HTTPHeaderFields = ["Accept": accept]
        if let hostHeader { headers["Host"] = hostHeader }
        let deadline = ContinuousClock.now + limits.timeout
        for _ in 0...limits.maximumRedirects {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw IdentityError(
                    .timedOut, identifier: identifier,
                    message: "GET \(url.absoluteString): no answer within \(limits.timeout)")
            }
            let request = HTTPTransportRequest(
                method: "GET", url: current, headers: headers, maximumResponseSize: maximumSize, timeout: remaining,
                redirects: .never)
            let response: HTTPTransportResponse
            do {
                response = try await transport.send(request)
            } catch {
                throw Self.identityError(error, identifier: identifier)
            }
            guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard let location = response.headers["location"],
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                throw IdentityError(
                    .redirected, identifier: identifier,
                    message: "GET \(current.absoluteString): a redirect without a usable Location")
            }
            guard next.host?.lowercased() == current.host?.lowercased(), next.port == current.port,
                next.scheme == current.scheme
            else {
                throw IdentityError(
                    .redirected, identifier: identifier,
                    message: "GET \(current.absoluteString) redirects to another host or scheme: \(next.absoluteString)"
                )
            }
            current = next
        }
        throw IdentityError(
            .redirected, identifier: identifier,
            message: "GET \(url.absoluteString): more than \(limits.maximumRedirects) redirects")
    }

    static func identityError(_ error: HTTPTransportError, identifier: String) -> IdentityError {
        let code: IdentityError.Code
        switch error.code {
        case .timedOut: code = .timedOut
        case .cancelled: code = .cancelled
        case .tooLarge: code = .answerTooLarge
        case .hostNotFound: code = .hostNotFound
        default: code = .unreachable
        }
        return IdentityError(code, identifier: identifier, message: error.description, underlying: error)
    }
}

/// Test and development overrides, package-internal: send requests for a host to another base URL,
/// with the original host in the `Host` header (a loopback server can then answer for `alice.test`).
/// Apps that need this bring an ``HTTPTransport`` of their own.
package struct HostOverrides: Sendable, Hashable {
    /// Base URLs by lower-cased host name.
    package var baseURLs: [String: URL]

    /// No overrides: every host is fetched as itself.
    package init(_ baseURLs: [String: URL] = [:]) {
        self.baseURLs = Dictionary(baseURLs.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The URL to fetch for `https://<host><path>`, and the `Host` header to send with it.
    func url(host: String, path: String, defaultScheme: String = "https", port: Int? = nil) -> (URL?, String?) {
        if let base = baseURLs[host.lowercased()] {
            var text = base.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return (URL(string: text + path), host)
        }
        var components = URLComponents()
        components.scheme = defaultScheme
        components.host = host
        components.port = port
        components.path = path
        return (components.url, nil)
    }
}
