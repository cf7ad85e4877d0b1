import Foundation
import HTTPTransport
import OAuthCore
import XRPCAgents

/// Logs each OAuth HTTP request of the transport it wraps: the method, the URL without its query, the
/// status and the time (``XRPCLogRecord/Level/debug``), or the failure (``XRPCLogRecord/Level/warning``).
/// Never headers (`DPoP`) or bodies (codes, verifiers, tokens, client assertions).
struct LoggingHTTPTransport: HTTPTransport {
    let inner: any HTTPTransport
    let logger: XRPCLogger

    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        guard logger.isEnabled(.debug) || logger.isEnabled(.warning) else { return try await inner.send(request) }
        let start = ContinuousClock.now
        let target = "\(request.method) \(DPoPProof.htu(for: request.url))"
        do {
            let response = try await inner.send(request)
            logger.log(
                .debug, "OAuthHTTP", "\(target) -> \(response.status)",
                ["status": String(response.status), "ms": XRPCLogger.milliseconds(since: start)])
            return response
        } catch {
            logger.log(
                .warning, "OAuthHTTP", "\(target) got no answer: \(error.code)",
                ["ms": XRPCLogger.milliseconds(since: start)])
            throw error
        }
    }
}
