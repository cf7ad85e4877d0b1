import Foundation
import HTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// OAuth's requests go through the app's `HTTPTransport`: what it sends (metadata `GET`s and form
// `POST`s, never a redirect followed, small answers, short deadlines) and how a transport failure
// becomes an `OAuthError`. Package-visible: the public API has the one transport protocol.

extension HTTPTransportRequest {
    /// An OAuth request: at most 64 KiB of answer, 15 seconds, no redirect followed (metadata and
    /// token endpoints are never redirected in the atproto profile).
    package static func oauth(method: String, url: URL, headers: HTTPHeaderFields = [:], body: Data? = nil)
        -> HTTPTransportRequest
    {
        HTTPTransportRequest(
            method: method, url: url, headers: headers, body: body, maximumResponseSize: 64 * 1024,
            timeout: .seconds(15), redirects: .never)
    }

    /// A `GET` of a JSON document.
    package static func getJSON(_ url: URL) -> HTTPTransportRequest {
        .oauth(method: "GET", url: url, headers: ["Accept": "application/json"])
    }

    /// A form `POST` (`application/x-www-form-urlencoded`) expecting JSON.
    package static func postForm(_ url: URL, _ fields: [(String, String)], headers: HTTPHeaderFields = [:])
        -> HTTPTransportRequest
    {
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        all["Accept"] = "application/json"
        return .oauth(method: "POST", url: url, headers: all, body: FormEncoding.encode(fields))
    }
}

extension HTTPTransportResponse {
    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }
}

extension HTTPTransport {
    /// Sends an OAuth request: a transport failure is an ``OAuthError`` (``OAuthError/Code/transport``,
    /// ``OAuthError/Code/timedOut``, ``OAuthError/Code/tooLarge``, ``OAuthError/Code/cancelled``) with
    /// the transport's error as ``OAuthError/underlying``.
    package func sendOAuth(_ request: HTTPTransportRequest) async throws(OAuthError) -> HTTPTransportResponse {
        do {
            return try await send(request)
        } catch {
            let code: OAuthError.Code
            var message = error.message
            switch error.code {
            case .cancelled:
                code = .cancelled
                message = "\(request) was cancelled"
            case .timedOut: code = .timedOut
            case .tooLarge: code = .tooLarge
            default:
                code = .transport
                message = "no answer: \(error.message)"
            }
            throw OAuthError(code, message: message, underlying: error)
        }
    }
}

extension URLSessionTransport {
    /// OAuth's default transport: its own ephemeral `URLSession` without cookies or cache, every
    /// transfer bounded by `resourceTimeout` even when its caller gave up.
    @usableFromInline
    package static func oauthDefault(resourceTimeout: Duration = .seconds(60)) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSessionTransport(configuration: configuration, resourceTimeout: resourceTimeout)
    }
}
