import Foundation
import XRPCCore

/// An agent that retries failed calls of the agent it wraps, following an ``XRPCRetryPolicy``.
///
/// ```swift
/// let agent = RetryingAgent(wrapping: URLSessionAgent(serviceURL: service))
/// ```
///
/// Put it under a session (`PasswordSession(service:agent:)`) so each retry carries the current
/// token, or over one to retry the session's own calls too.
public struct RetryingAgent: XRPCAgent, XRPCAccountAgent {
    /// What the agent waits with: the clock, the sleep and the jitter source. Tests inject their own.
    public struct Environment: Sendable {
        /// The current time.
        public var now: @Sendable () -> Date
        /// Waits for a duration; throws when the task is cancelled.
        public var sleep: @Sendable (Duration) async throws -> Void
        /// A random number in `0..<1`.
        public var random: @Sendable () -> Double

        /// Creates an environment.
        public init(
            now: @escaping @Sendable () -> Date,
            sleep: @escaping @Sendable (Duration) async throws -> Void,
            random: @escaping @Sendable () -> Double
        ) {
            self.now = now
            self.sleep = sleep
            self.random = random
        }

        /// The system clock, `Task.sleep` and the system random generator.
        public static var system: Environment {
            Environment(
                now: { Date() },
                sleep: { try await Task.sleep(for: $0) },
                random: { Double.random(in: 0..<1) }
            )
        }
    }

    /// The agent that sends each attempt.
    public let inner: any XRPCAgent
    /// When and how long to wait.
    public let policy: XRPCRetryPolicy
    /// Where each retry is logged (``XRPCLogRecord/Level/warning``: the NSID, the attempt, why and
    /// the wait).
    public let logger: XRPCLogger
    private let environment: Environment

    /// Creates an agent that retries `inner`'s calls.
    public init(
        wrapping inner: any XRPCAgent, policy: XRPCRetryPolicy = .default, environment: Environment = .system,
        logger: XRPCLogger = .disabled
    ) {
        self.inner = inner
        self.policy = policy
        self.environment = environment
        self.logger = logger
    }

    /// The wrapped agent's service.
    public func defaultServiceURL() async -> URL? { await inner.defaultServiceURL() }

    /// The wrapped agent's account, when it has one.
    package func accountDID() async -> DID? { await (inner as? any XRPCAccountAgent)?.accountDID() }

    /// The wrapped agent's headers: a connection attempt of a stream is not retried here (the
    /// stream's `XRPCReconnectPolicy` does that).
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        try await inner.eventStreamHeaders(for: url, rejection: rejection)
    }

    /// Sends the request, retrying as the policy allows; returns the last response or throws the
    /// last transport error.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        guard policy.allowsRetry(of: request) else { return try await inner.send(request) }
        var attempt = 1
        while true {
            let wait: Duration
            let reason: String
            do {
                let response = try await inner.send(request)
                guard attempt < policy.maxAttempts,
                    let delay = policy.delay(
                        after: response, retry: attempt, now: environment.now(), random: environment.random())
                else { return response }
                wait = delay
                reason = "status \(response.status)"
            } catch let error as XRPCTransportError {
                guard attempt < policy.maxAttempts,
                    let delay = policy.delay(after: error, retry: attempt, random: environment.random())
                else { throw error }
                wait = delay
                reason = "\(error.code)"
            }
            logger.log(
                .warning, "RetryingAgent", "retrying \(request.method.rawValue) \(request.nsid) after \(reason)",
                ["attempt": String(attempt + 1), "wait": "\(wait)"])
            do {
                try await environment.sleep(wait)
            } catch {
                throw XRPCTransportError(
                    .cancelled, nsid: request.nsid,
                    message: "cancelled while waiting \(wait) to retry (attempt \(attempt + 1))")
            }
            attempt += 1
        }
    }
}
