import Foundation
import LoopbackHTTPServer
import XRPCRuntime

/// A PDS over loopback HTTP that answers with faults (``LoopbackFaults``) and counts what a session
/// must never do: two refreshes of one expiry, a refresh of a token already rotated, a refresh while
/// the access token was still good, a procedure acted on twice.
///
/// Calls are `GET /xrpc/com.example.fault.query?id=N` and `POST /xrpc/com.example.fault.procedure`
/// with the body `{"id":N}`. Faults on a refresh strike before it is processed (drop, 5xx, delay),
/// never after: a refresh lost after the server rotated the tokens is unrecoverable by design.
///
/// Besides the random expiries, the token expires at the ``scheduledExpiry``-th call that carries a
/// valid one, so every run of enough calls tests a refresh. A procedure's drop closes the connection
/// after the answer's headers (the server acted; the client sees the connection lost) unless
/// `dropsProcedures` is set: a drop before any answer on a reused connection makes libcurl
/// (FoundationNetworking, Linux) send the request again after a body rewind that FoundationNetworking
/// does not do, so the call hangs until its timeout. `URLSessionAgent` sends procedures on connections
/// of their own on Linux, so this no longer happens with it (`DroppedProcedureTests`); an app's own
/// `URLSession` still can (`FaultProbeTests` probes any mix of faults).
final class FaultPDS: @unchecked Sendable {
    static let query: NSID = "com.example.fault.query"
    static let procedure: NSID = "com.example.fault.procedure"

    typealias Figures = SessionFaultFigures

    let faults: LoopbackFaults
    let did = "did:plc:faulty"
    let password = "fault-password-\(UUID().uuidString)"
    private let lock = NSLock()
    private var figures = Figures()
    private var access: (token: String, expired: Bool)?
    private var refreshToken: String?
    private var issued = 0
    private var refreshing = 0
    private var arrivals: [String: Int] = [:]
    private var validCalls = 0
    /// The valid call at which the token expires whatever the faults say.
    let scheduledExpiry = 200
    /// Whether a procedure's drop closes the connection before any answer.
    let dropsProcedures: Bool
    private var server: LoopbackHTTPServer?

    /// Every token issued, for leak checks.
    private var allTokens: [String] = []

    init(faults: LoopbackFaults, dropsProcedures: Bool = false) throws {
        self.faults = faults
        self.dropsProcedures = dropsProcedures
        server = try LoopbackHTTPServer { [weak self] request in
            self?.answer(request) ?? LoopbackHTTPServer.Response(status: 500)
        }
    }

    deinit { server?.stop() }

    var url: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var snapshot: Figures { lock.withLock { figures } }
    var tokens: [String] { lock.withLock { allTokens } }

    /// Makes the current access token expired, as a fault would.
    func expireAccessToken() { lock.withLock { access?.expired = true } }
    /// Makes the refresh token dead: the next refresh is refused.
    func revokeRefreshToken() { lock.withLock { refreshToken = nil } }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        switch request.path {
        case "/xrpc/com.atproto.server.createSession":
            guard String(decoding: request.body, as: UTF8.self).contains(password) else {
                return .json(
                    #"{"error":"AuthenticationRequired","message":"Invalid identifier or password"}"#, status: 401)
            }
            return session(lock.withLock { issue() })
        case "/xrpc/com.atproto.server.refreshSession":
            return refresh(request)
        case "/xrpc/com.atproto.server.deleteSession":
            lock.withLock { refreshToken = nil }
            return LoopbackHTTPServer.Response(status: 200)
        default:
            return call(request)
        }
    }

    /// Caller holds the lock.
    private func issue() -> (access: String, refresh: String) {
        issued += 1
        let pair = (
            "eyJ.fault-access-\(issued).\(UUID().uuidString)", "eyJ.fault-refresh-\(issued).\(UUID().uuidString)"
        )
        access = (pair.0, false)
        refreshToken = pair.1
        allTokens += [pair.0, pair.1]
        return pair
    }

    private func session(_ tokens: (access: String, refresh: String)) -> LoopbackHTTPServer.Response {
        .json(
            #"{"did":"\#(did)","handle":"faulty.test","accessJwt":"\#(tokens.access)","refreshJwt":"\#(tokens.refresh)","active":true}"#
        )
    }

    private func refresh(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let bearer = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
        let attempt = lock.withLock {
            refreshing += 1
            figures.maxConcurrentRefreshes = max(figures.maxConcurrentRefreshes, refreshing)
            arrivals["refresh", default: 0] += 1
            return arrivals["refresh", default: 0]
        }
        // Long enough for a second, concurrent refresh to overlap this one if the session sent it.
        Thread.sleep(forTimeInterval: 0.02)
        let fault = faults.fault(for: "refresh#\(attempt)", allowed: [.drop, .serverError, .slow])
        return lock.withLock {
            refreshing -= 1
            if fault != .none {
                figures.faults[fault, default: 0] += 1
                figures.failedRefreshAttempts += fault == .slow ? 0 : 1
                if fault != .slow {
                    return faults.apply(fault, to: LoopbackHTTPServer.Response(status: 200), key: "refresh#\(attempt)")
                }
            }
            guard let bearer, bearer == refreshToken else {
                figures.staleRefreshes += 1
                return .json(#"{"error":"ExpiredToken","message":"Token has been revoked"}"#, status: 400)
            }
            if access?.expired == false { figures.needlessRefreshes += 1 }
            figures.refreshes += 1
            let tokens = issue()
            var answer = session(tokens)
            if fault == .slow { answer = faults.apply(.slow, to: answer, key: "refresh#\(attempt)") }
            return answer
        }
    }

    private func call(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let isProcedure = request.path == "/xrpc/" + Self.procedure.rawValue
        guard isProcedure || request.path == "/xrpc/" + Self.query.rawValue else {
            return .json(#"{"error":"MethodNotImplemented"}"#, status: 501)
        }
        let id = Self.callID(request)
        let bearer = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
        return lock.withLock {
            guard let access, let bearer, bearer == access.token, !access.expired else {
                figures.rejectedWithOldToken += 1
                return .json(#"{"error":"ExpiredToken","message":"Token has expired"}"#, status: 400)
            }
            let key = "\(request.method)\(id)"
            arrivals[key, default: 0] += 1
            let faultKey = "\(key)#\(arrivals[key, default: 0])"
            validCalls += 1
            var fault = validCalls == scheduledExpiry ? .expiredToken : faults.fault(for: faultKey)
            if fault == .drop, isProcedure, !dropsProcedures { fault = .truncated }
            if fault != .none { figures.faults[fault, default: 0] += 1 }
            if fault == .expiredToken {
                self.access?.expired = true
                figures.expiries += 1
                return .json(#"{"error":"ExpiredToken","message":"Token has expired"}"#, status: 400)
            }
            if isProcedure { figures.procedureArrivals[id, default: 0] += 1 }
            let answer = LoopbackHTTPServer.Response.json(#"{"id":\#(id),"ok":true,"padding":"\#(Self.padding)"}"#)
            return faults.apply(fault, to: answer, key: faultKey)
        }
    }

    private static let padding = String(repeating: "x", count: 512)

    static func callID(_ request: LoopbackHTTPServer.Request) -> Int {
        if request.method == "GET" {
            let query = request.target.split(separator: "?").dropFirst().first ?? ""
            for pair in query.split(separator: "&") where pair.hasPrefix("id=") { return Int(pair.dropFirst(3)) ?? -1 }
            return -1
        }
        let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        return object?["id"] as? Int ?? -1
    }
}
