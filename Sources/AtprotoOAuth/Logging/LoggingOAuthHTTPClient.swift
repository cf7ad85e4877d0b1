import Foundation
import OAuthCore
import XRPCAgents

/// Logs each OAuth HTTP request of the client it wraps: the method, the URL without its query, the
/// status and the time (``XRPCLogRecord/Level/debug``), or the failure (``XRPCLogRecord/Level/warning``).
/// Never headers (`DPoP`) or bodies (codes, verifiers, tokens, client assertions).
struct LoggingOAuthHTTPClient: OAuthHTTPClient {
    let inner: any OAuthHTTPClient
    let logger: XRPCLogger

    func send(_ request: OAuthHTTPRequest) async throws(OAuthError) -> OAuthHTTPResponse {
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
