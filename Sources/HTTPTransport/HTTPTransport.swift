import Foundation

/// Sends one HTTP request and reads its answer: the one seam between the package and the network.
///
/// Every HTTP exchange of the package goes through a transport: XRPC calls (`URLSessionAgent`),
/// the documents identity resolution fetches (`/.well-known/atproto-did`, a PLC directory, did:web)
/// and the requests of OAuth (metadata, PAR, tokens, revocation). An app that brings its own HTTP
/// stack (a proxy, certificate pinning, a test double) implements this protocol once and passes the
/// same value to all three. ``URLSessionTransport`` is the default.
///
/// An implementation must honour the request's parameters:
/// - read at most ``HTTPTransportRequest/maximumResponseSize`` bytes of body, and fail with
///   ``HTTPTransportError/Code/tooLarge`` beyond it (an oversized answer is never returned cut);
/// - follow redirects only as ``HTTPTransportRequest/redirects`` says (with ``HTTPRedirectPolicy/never``,
///   which identity resolution and OAuth use, the 3xx answer is returned to the caller);
/// - fail with ``HTTPTransportError/Code/timedOut`` once ``HTTPTransportRequest/timeout`` has passed, and
///   with ``HTTPTransportError/Code/cancelled`` as soon as the calling task is cancelled.
///
/// Like swift-openapi-runtime's `ClientTransport`, it has one requirement, so a wrapper (logging,
/// a header added, a recording test double) forwards everything by calling its inner transport:
///
/// ```swift
/// struct UserAgentTransport: HTTPTransport {
///     var inner: any HTTPTransport = URLSessionTransport()
///
///     func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
///         var request = request
///         request.headers["User-Agent"] = "MyApp/1.0"
///         return try await inner.send(request)
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``HTTPTransportError`` when no complete answer arrived, or the answer is larger
    ///   than ``HTTPTransportRequest/maximumResponseSize``.
    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse
}
