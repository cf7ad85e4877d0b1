import BoundedURLLoading
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPFetcher``: `URLSession`, no redirects followed, the body cut off at the request's
/// limit, an exact deadline per request, and cancellation that reaches the connection.
public final class URLSessionFetcher: HTTPFetcher, Sendable {
    private let loader: BoundedURLLoader

    /// Creates a fetcher with its own `URLSession` made from `configuration` (no cookies, no cache by
    /// default).
    ///
    /// - Parameter resourceTimeout: The longest any transfer may run, even after its caller was
    ///   answered (a cancelled or oversized fetch on Linux runs on until then, its bytes dropped).
    public init(configuration: URLSessionConfiguration = .ephemeral, resourceTimeout: Duration = .seconds(30)) {
        self.loader = BoundedURLLoader(configuration: configuration, resourceTimeout: resourceTimeout)
    }

    /// Fetches the URL; see ``HTTPFetcher/fetch(_:)``.
    public func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        switch await loader.load(urlRequest, limit: request.maximumBodySize, timeout: request.timeout) {
        case .success(let answer):
            return HTTPFetchResponse(status: answer.status, headers: answer.headers, body: answer.body)
        case .failure(let failure):
            throw Self.error(failure, request)
        }
    }

    private static func error(_ failure: BoundedURLFailure, _ request: HTTPFetchRequest) -> HTTPFetchError {
        let url = request.url
        switch failure {
        case .cancelled: return HTTPFetchError(.cancelled, url: url, message: "the task was cancelled")
        case .timedOut:
            return HTTPFetchError(.timedOut, url: url, message: "no complete answer within \(request.timeout)")
        case .tooLarge(_, announced: true):
            return HTTPFetchError(.tooLarge, url: url, message: "the answer announces more bytes than allowed")
        case .tooLarge(let limit, announced: false):
            return HTTPFetchError(.tooLarge, url: url, message: "the answer is longer than \(limit) bytes")
        case .transport(let code, let description):
            let kind: HTTPFetchError.Code
            switch code {
            case .cannotFindHost?: kind = .hostNotFound
            case .cannotConnectToHost?, .dnsLookupFailed?, .notConnectedToInternet?,
                .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
                .unsupportedURL?:
                kind = .cannotConnect
            default: kind = .other
            }
            return HTTPFetchError(kind, url: url, message: description)
        }
    }
}
