import Foundation
import XRPCCore

/// When and how long ``RetryingAgent`` waits before trying a call again.
///
/// Retried: statuses in ``retryableStatuses`` (408, 429, 500, 502, 503, 504 by default) and
/// transport failures other than cancellation, for queries always and for procedures only when
/// ``retriesProcedures`` is set (a procedure that reached the server may have taken effect).
/// The wait is the server's `Retry-After`, else for 429 its `RateLimit-Reset`, else exponential
/// backoff with jitter.
public struct XRPCRetryPolicy: Sendable, Hashable {
    /// The most attempts per call, the first included; 1 turns retries off.
    public var maxAttempts: Int
    /// The backoff before the first retry; it doubles for each next one.
    public var initialDelay: Duration
    /// The longest backoff.
    public var maxDelay: Duration
    /// The longest wait a server may ask for (`Retry-After`, `RateLimit-Reset`); a longer one ends the
    /// retries and the caller gets the response.
    public var maxServerDelay: Duration
    /// Whether procedures (`POST`) are retried too.
    public var retriesProcedures: Bool
    /// The statuses that are retried.
    public var retryableStatuses: Set<Int>

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        maxServerDelay: Duration = .seconds(60),
        retriesProcedures: Bool = false,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    ) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxServerDelay = maxServerDelay
        self.retriesProcedures = retriesProcedures
        self.retryableStatuses = retryableStatuses
    }

    /// Three attempts, from 0.5 s backoff, queries only.
    public static var `default`: XRPCRetryPolicy { XRPCRetryPolicy() }

    /// Whether the policy allows retrying `request` at all.
    func allowsRetry(of request: XRPCRequest) -> Bool {
        maxAttempts > 1 && (request.method == .get || retriesProcedures)
    }

    /// The backoff before retry number `retry` (1 for the first), before jitter.
    func backoff(beforeRetry retry: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, retry) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// How long to wait before retrying after `response`, or `nil` to give up and return it.
    ///
    /// `random` is a number in `0..<1` for jitter: the wait is half the backoff plus up to half more.
    func delay(after response: XRPCResponse, retry: Int, now: Date, random: Double) -> Duration? {
        guard retryableStatuses.contains(response.status) else { return nil }
        var serverDelay: Duration?
        if let retryAfter = response.retryAfter {
            serverDelay = retryAfter.delay(from: now)
        } else if response.status == 429, let reset = response.rateLimit?.reset {
            serverDelay = .seconds(max(0, reset.timeIntervalSince(now)))
        }
        if let serverDelay {
            return serverDelay <= maxServerDelay ? serverDelay : nil
        }
        return jittered(backoff(beforeRetry: retry), random: random)
    }

    /// The wait before retrying after a transport failure, or `nil` when it is not retried.
    func delay(after error: XRPCTransportError, retry: Int, random: Double) -> Duration? {
        guard error.code != .cancelled else { return nil }
        return jittered(backoff(beforeRetry: retry), random: random)
    }

    private func jittered(_ delay: Duration, random: Double) -> Duration {
        delay / 2 + (delay / 2) * min(max(random, 0), 1)
    }
}
