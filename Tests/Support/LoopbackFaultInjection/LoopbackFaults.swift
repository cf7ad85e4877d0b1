import Foundation
import SeededRandom

/// Faults a loopback test server puts into its answers, chosen per request from a fixed seed, so a
/// failing run can be replayed: the fault of a request depends only on the seed and the request's
/// key (a call id and how many times it arrived), never on the order requests arrive in.
public struct LoopbackFaults: Sendable {
    /// What happens to one request.
    public enum Fault: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The normal answer.
        case none
        /// The connection closes without an answer.
        case drop
        /// A 500, 502 or 503 with a JSON error body.
        case serverError
        /// The normal answer, late (up to ``LoopbackFaults/slowDelay``).
        case slow
        /// A 200 whose body is HTML (`text/html`), not what the endpoint returns.
        case wrongContentType
        /// The normal answer's headers, half its body, then the connection closes.
        case truncated
        /// The server decides the access token expired (the server acts on it, not this type).
        case expiredToken

        public static func < (lhs: Fault, rhs: Fault) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The seed every choice derives from.
    public var seed: UInt64
    /// The chance of each fault, each in `0...1`, their sum at most 1; the rest is ``Fault/none``.
    public var rates: [Fault: Double]
    /// The longest delay of a ``Fault/slow`` answer, in seconds.
    public var slowDelay: Double

    /// Creates a plan.
    public init(seed: UInt64, rates: [Fault: Double], slowDelay: Double = 0.2) {
        self.seed = seed
        self.rates = rates
        self.slowDelay = slowDelay
    }

    /// The fault for the request named `key`, among `allowed` (others count as ``Fault/none``).
    public func fault(for key: String, allowed: Set<Fault> = Set(Fault.allCases)) -> Fault {
        var roll = unitValue(key, salt: 1)
        for fault in Fault.allCases where fault != .none {
            let rate = rates[fault] ?? 0
            if roll < rate { return allowed.contains(fault) ? fault : .none }
            roll -= rate
        }
        return .none
    }

    /// `response` with `fault` applied; ``Fault/none`` and ``Fault/expiredToken`` leave it as it is.
    public func apply(_ fault: Fault, to response: LoopbackHTTPServer.Response, key: String)
        -> LoopbackHTTPServer.Response
    {
        var changed = response
        switch fault {
        case .none, .expiredToken:
            break
        case .drop:
            changed.dropConnection = true
        case .serverError:
            let statuses = [500, 502, 503]
            let status = statuses[Int(unitValue(key, salt: 2) * Double(statuses.count)) % statuses.count]
            changed = .json(#"{"error":"InternalServerError","message":"injected fault"}"#, status: status)
        case .slow:
            changed.delay = slowDelay * unitValue(key, salt: 3)
        case .wrongContentType:
            changed = LoopbackHTTPServer.Response(
                status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>maintenance</html>".utf8))
        case .truncated:
            changed.truncatedTo = response.body.count / 2
        }
        return changed
    }

    /// A number in `0..<1` from the seed, `key` and `salt` (FNV-1a, then SplitMix64).
    public func unitValue(_ key: String, salt: UInt64) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed ^ (salt &* 0x9E37_79B9_7F4A_7C15)
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash = hash &+ 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 31
        return Double(hash >> 11) / Double(UInt64(1) << 53)
    }
}
