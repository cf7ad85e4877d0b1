import Foundation

// @unchecked Sendable: every `var` is read and written under `lock`; the `let`s are Sendable.
/// What both session fault servers (the password PDS of XRPCRuntimeTests, the OAuth server of
/// AtprotoOAuthTests) keep and decide alike: the current tokens, the calls and refreshes that
/// arrive, the faults they get and the ``SessionFaultFigures`` they add up to. Each server keeps only
/// its protocol: how credentials arrive and how answers and refusals read. Package-visible.
///
/// Calls are `GET <query path>?id=N` and `POST <procedure path>` with `{"id":N}`. Besides the random
/// expiries, the token expires at the ``scheduledExpiry``-th call that carries a valid one, so every
/// run of enough calls tests a refresh. A procedure's drop becomes a truncated answer (the server
/// acted; the client sees the connection lost) unless ``dropsProcedures`` is set. Faults on a
/// refresh strike before it is processed (drop, 5xx) or slow its answer, never after.
package final class SessionFaultLedger: @unchecked Sendable {
    /// The faults served.
    package let faults: LoopbackFaults
    /// The valid call at which the token expires whatever the faults say.
    package let scheduledExpiry = 200
    /// Whether a procedure's drop closes the connection before any answer.
    package let dropsProcedures: Bool

    private let lock = NSLock()
    private var figures = SessionFaultFigures()
    private var access: (token: String, expired: Bool)?
    private var refreshToken: String?
    private var issued = 0
    private var refreshing = 0
    private var arrivals: [String: Int] = [:]
    private var validCalls = 0
    private var seen: [String] = []

    /// A ledger serving `faults`.
    package init(faults: LoopbackFaults, dropsProcedures: Bool) {
        self.faults = faults
        self.dropsProcedures = dropsProcedures
    }

    /// The figures so far.
    package var snapshot: SessionFaultFigures { lock.withLock { figures } }
    /// Every token issued and every credential recorded, for leak checks.
    package var tokens: [String] { lock.withLock { seen } }

    /// Records a credential the server received (a DPoP proof), for leak checks.
    package func record(_ credential: String) { lock.withLock { seen.append(credential) } }
    /// Makes the current access token expired, as a fault would.
    package func expireAccessToken() { lock.withLock { access?.expired = true } }
    /// Makes the refresh token dead: the next refresh is refused.
    package func revokeRefreshToken() { lock.withLock { refreshToken = nil } }

    /// Issues a new access and refresh token, named by `names` from the count of pairs issued.
    package func issue(_ names: (Int) -> (access: String, refresh: String)) -> (access: String, refresh: String) {
        lock.withLock { issueLocked(names) }
    }

    private func issueLocked(_ names: (Int) -> (access: String, refresh: String)) -> (access: String, refresh: String) {
        issued += 1
        let pair = names(issued)
        access = (pair.access, false)
        refreshToken = pair.refresh
        seen += [pair.access, pair.refresh]
        return pair
    }

    /// A refresh presenting `token`: counts overlaps, stale and needless refreshes, and faults it;
    /// when it goes through, issues new tokens (`names`) and answers with `answer` of them.
    package func refresh(
        presenting token: String?, stale: LoopbackHTTPServer.Response,
        names: (Int) -> (access: String, refresh: String),
        answer: ((access: String, refresh: String)) -> LoopbackHTTPServer.Response
    ) -> LoopbackHTTPServer.Response {
        let attempt = lock.withLock {
            refreshing += 1
            figures.maxConcurrentRefreshes = max(figures.maxConcurrentRefreshes, refreshing)
            arrivals["refresh", default: 0] += 1
            return arrivals["refresh", default: 0]
        }
        // Long enough for a second, concurrent refresh to overlap this one if the session sent it.
        Thread.sleep(forTimeInterval: 0.02)
        let key = "refresh#\(attempt)"
        let fault = faults.fault(for: key, allowed: [.drop, .serverError, .slow])
        return lock.withLock {
            refreshing -= 1
            if fault != .none { figures.faults[fault, default: 0] += 1 }
            if fault == .drop || fault == .serverError {
                figures.failedRefreshAttempts += 1
                return faults.apply(fault, to: LoopbackHTTPServer.Response(status: 200), key: key)
            }
            guard let token, token == refreshToken else {
                figures.staleRefreshes += 1
                return stale
            }
            if access?.expired == false { figures.needlessRefreshes += 1 }
            figures.refreshes += 1
            return faults.apply(fault, to: answer(issueLocked(names)), key: key)
        }
    }

    /// A call at `queryPath` or `procedurePath` carrying `bearer` (nil when its credentials are
    /// missing or malformed): refused with `rejection` unless the token is current; `challenge`, given
    /// the call's fault key and the figures, may answer first (a DPoP nonce challenge); then a fault,
    /// a scheduled expiry or `answer` of the call's id.
    package func call(
        _ request: LoopbackHTTPServer.Request, queryPath: String, procedurePath: String, bearer: String?,
        rejection: LoopbackHTTPServer.Response,
        challenge: (_ faultKey: String, _ figures: inout SessionFaultFigures) -> LoopbackHTTPServer.Response? = {
            _, _ in nil
        },
        answer: (_ id: Int) -> LoopbackHTTPServer.Response
    ) -> LoopbackHTTPServer.Response {
        let isProcedure = request.path == procedurePath
        guard isProcedure || request.path == queryPath else {
            return .json(#"{"error":"MethodNotImplemented"}"#, status: 501)
        }
        let id = Self.callID(request)
        return lock.withLock {
            guard let access, let bearer, bearer == access.token, !access.expired else {
                figures.rejectedWithOldToken += 1
                return rejection
            }
            let key = "\(request.method)\(id)"
            arrivals[key, default: 0] += 1
            let faultKey = "\(key)#\(arrivals[key, default: 0])"
            if let challenged = challenge(faultKey, &figures) { return challenged }
            validCalls += 1
            var fault = validCalls == scheduledExpiry ? .expiredToken : faults.fault(for: faultKey)
            if fault == .drop, isProcedure, !dropsProcedures { fault = .truncated }
            if fault != .none { figures.faults[fault, default: 0] += 1 }
            if fault == .expiredToken {
                self.access?.expired = true
                figures.expiries += 1
                return rejection
            }
            if isProcedure { figures.procedureArrivals[id, default: 0] += 1 }
            return faults.apply(fault, to: answer(id), key: faultKey)
        }
    }

    /// The call's id: the `id` query item of a GET, the `id` field of a POST's JSON body; -1 if none.
    package static func callID(_ request: LoopbackHTTPServer.Request) -> Int {
        if request.method == "GET" {
            let query = request.target.split(separator: "?").dropFirst().first ?? ""
            for pair in query.split(separator: "&") where pair.hasPrefix("id=") { return Int(pair.dropFirst(3)) ?? -1 }
            return -1
        }
        let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        return object?["id"] as? Int ?? -1
    }
}
