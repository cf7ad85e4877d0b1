import Foundation

/// A server's rate-limit state from the `ratelimit-*` response headers.
///
/// Bluesky services send `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset` (epoch
/// seconds) and `ratelimit-policy` (e.g. `3000;w=300`).
public struct XRPCRateLimit: Sendable, Hashable {
    /// Requests allowed in the window (`ratelimit-limit`).
    public var limit: Int?
    /// Requests left in the window (`ratelimit-remaining`).
    public var remaining: Int?
    /// When the window resets (`ratelimit-reset`): epoch seconds, or seconds from now for small
    /// values as in the IETF draft.
    public var reset: Date?
    /// The policy as sent (`ratelimit-policy`).
    public var policy: String?

    /// Creates a rate-limit state.
    public init(limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil, policy: String? = nil) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.policy = policy
    }

    /// Reads the header fields; `nil` when none of them is present.
    init?(headers: HTTPHeaderFields, now: Date = Date()) {
        let limit = headers["ratelimit-limit"].flatMap(Self.integer)
        let remaining = headers["ratelimit-remaining"].flatMap(Self.integer)
        let policy = headers["ratelimit-policy"]
        var reset: Date?
        if let seconds = headers["ratelimit-reset"].flatMap(Self.integer) {
            // Epoch seconds (atproto services) or, below a year 2001 timestamp, delta seconds (IETF draft).
            reset =
                seconds >= 1_000_000_000
                ? Date(timeIntervalSince1970: TimeInterval(seconds))
                : now.addingTimeInterval(TimeInterval(seconds))
        }
        guard limit != nil || remaining != nil || reset != nil || policy != nil else { return nil }
        self.init(limit: limit, remaining: remaining, reset: reset, policy: policy)
    }

    private static func integer(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces))
    }
}

/// The `retry-after` header: a number of seconds or an HTTP date.
public enum XRPCRetryAfter: Sendable, Hashable {
    /// Wait this many seconds.
    case seconds(Int)
    /// Wait until this moment.
    case date(Date)

    /// Reads a header value; `nil` when it is neither a non-negative integer nor an IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`).
    public init?(headerValue: String) {
        let text = headerValue.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) {
            guard seconds >= 0 else { return nil }
            self = .seconds(seconds)
        } else if let date = HTTPDate.parse(text) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// How long to wait from `now`; never negative.
    public func delay(from now: Date = Date()) -> Duration {
        switch self {
        case .seconds(let seconds): return .seconds(seconds)
        case .date(let date): return .seconds(max(0, date.timeIntervalSince(now)))
        }
    }
}

extension XRPCResponse {
    /// The rate-limit headers, or `nil` when the response has none.
    public var rateLimit: XRPCRateLimit? { XRPCRateLimit(headers: headers) }

    /// The `retry-after` header, or `nil` when absent or unreadable.
    public var retryAfter: XRPCRetryAfter? { headers["retry-after"].flatMap(XRPCRetryAfter.init(headerValue:)) }
}

extension XRPCError {
    /// The rate-limit headers of the error response, or `nil` when it has none.
    public var rateLimit: XRPCRateLimit? { XRPCRateLimit(headers: headers) }

    /// The `retry-after` header of the error response, or `nil` when absent or unreadable.
    public var retryAfter: XRPCRetryAfter? { headers["retry-after"].flatMap(XRPCRetryAfter.init(headerValue:)) }
}

extension XRPCCallError {
    /// The rate-limit headers of the server's answer, or `nil` when none arrived or it has none.
    public var rateLimit: XRPCRateLimit? { XRPCRateLimit(headers: headers) }

    /// The `retry-after` header of the server's answer (``Code/rateLimited``, a 503), or `nil` when
    /// absent or unreadable.
    public var retryAfter: XRPCRetryAfter? { headers["retry-after"].flatMap(XRPCRetryAfter.init(headerValue:)) }
}
