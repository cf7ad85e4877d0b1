/// What a faulty test server behind a session counts: expiries and the refreshes they caused, what a
/// session must never do (a stale, needless or overlapping refresh, a procedure acted on twice), and
/// the faults it served. Shared by the password-session and OAuth-session fault servers.
public struct SessionFaultFigures: Sendable, CustomStringConvertible {
    /// Access tokens that expired.
    public var expiries = 0
    /// Refreshes that rotated the tokens.
    public var refreshes = 0
    /// Refresh requests that met a fault before being processed.
    public var failedRefreshAttempts = 0
    /// Refreshes that presented a refresh token already rotated.
    public var staleRefreshes = 0
    /// Refreshes while the access token was still good.
    public var needlessRefreshes = 0
    /// The most refreshes in progress at once.
    public var maxConcurrentRefreshes = 0
    /// Calls rejected because they carried a token already replaced.
    public var rejectedWithOldToken = 0
    /// DPoP nonce challenges served (OAuth only).
    public var nonceChallenges = 0
    /// Faults served, by kind.
    public var faults: [LoopbackFaults.Fault: Int] = [:]
    /// Procedure calls the server acted on (any answer but a token rejection), by call id.
    public var procedureArrivals: [Int: Int] = [:]

    /// Creates empty figures.
    public init() {}

    /// The ids of procedures acted on more than once.
    public var duplicatedProcedures: [Int] { procedureArrivals.filter { $0.value > 1 }.keys.sorted() }

    public var description: String {
        let faultText = faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }
        let nonces = nonceChallenges > 0 ? "nonce challenges \(nonceChallenges), " : ""
        return "expiries \(expiries), refreshes \(refreshes) (+\(failedRefreshAttempts) faulted), "
            + "stale \(staleRefreshes), needless \(needlessRefreshes), max concurrent \(maxConcurrentRefreshes), "
            + "old-token rejections \(rejectedWithOldToken), \(nonces)"
            + "duplicated procedures \(duplicatedProcedures.count); faults: " + faultText.joined(separator: " ")
    }
}
