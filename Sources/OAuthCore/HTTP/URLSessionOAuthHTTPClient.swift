import BoundedURLLoading
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``OAuthHTTPClient``: its own ephemeral `URLSession`, no redirects, no cookies, the
/// body cut off at the request's limit, and an exact deadline per request.
///
/// On Linux a task is never cancelled once started (FoundationNetworking traps when a task is
/// cancelled while it completes): an abandoned request runs on, its bytes dropped, until the
/// session's resource timeout.
public final class URLSessionOAuthHTTPClient: OAuthHTTPClient, Sendable {
    private let loader: BoundedURLLoader

    /// Creates a client; `resourceTimeout` bounds every transfer, even one whose caller gave up.
    public init(resourceTimeout: Duration = .seconds(60)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.loader = BoundedURLLoader(configuration: configuration, resourceTimeout: resourceTimeout)
    }

    /// Sends the request; see ``OAuthHTTPClient/send(_:)``.
    public func send(_ request: OAuthHTTPRequest) async throws(OAuthError) -> OAuthHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        switch await loader.load(urlRequest, limit: request.maximumResponseSize, timeout: request.timeout) {
        case .success(let answer):
            return OAuthHTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
        case .failure(.cancelled): throw OAuthError(.cancelled, message: "\(request) was cancelled")
        case .failure(.timedOut): throw OAuthError(.timedOut, message: "no complete answer within \(request.timeout)")
        case .failure(.tooLarge(_, announced: true)):
            throw OAuthError(.tooLarge, message: "the answer announces more bytes than allowed")
        case .failure(.tooLarge(let limit, announced: false)):
            throw OAuthError(.tooLarge, message: "the answer is longer than \(limit) bytes")
        case .failure(.transport(_, let description)):
            throw OAuthError(.transport, message: "no answer: \(description)")
        }
    }
}
