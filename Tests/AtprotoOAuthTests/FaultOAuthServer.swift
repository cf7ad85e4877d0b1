import Foundation
import LoopbackHTTPServer
import OAuthCore

/// A PDS that is its own authorization server, over loopback HTTP, answering XRPC calls and refresh
/// grants with faults (``LoopbackFaults``), DPoP nonce challenges and expired tokens at random, and
/// counting what a session must never do (the counts of XRPCRuntimeTests' `FaultPDS`).
///
/// Calls are `GET /xrpc/com.example.fault.query?id=N` and `POST /xrpc/com.example.fault.procedure`
/// with `{"id":N}`. Faults on a refresh strike before it is processed, never after.
///
/// Besides the random expiries, the token expires at the ``scheduledExpiry``-th call that carries a
/// valid one, so every run of enough calls tests a refresh. A procedure's drop closes the connection
/// after the answer's headers (the server acted; the client sees the connection lost) unless
/// `dropsProcedures` is set: a drop before any answer on a reused connection makes libcurl
/// (FoundationNetworking, Linux) send the request again after a body rewind that FoundationNetworking
/// does not do (see `FaultPDS`; `URLSessionAgent` now avoids it for procedures).
final class FaultOAuthServer: @unchecked Sendable {
    typealias Figures = SessionFaultFigures

    let faults: LoopbackFaults
    /// The chance of a `use_dpop_nonce` challenge on a call.
    let nonceChallengeRate: Double
    private let lock = NSLock()
    private var figures = Figures()
    private var access: (token: String, expired: Bool)?
    private var refreshToken: String?
    private var issued = 0
    private var nonce = 0
    private var refreshing = 0
    private var arrivals: [String: Int] = [:]
    private var validCalls = 0
    /// The valid call at which the token expires whatever the faults say.
    let scheduledExpiry = 200
    /// Whether a procedure's drop closes the connection before any answer.
    let dropsProcedures: Bool
    private var server: LoopbackHTTPServer?
    /// Every token issued and every DPoP proof received, for leak checks.
    private var allTokens: [String] = []

    init(faults: LoopbackFaults, nonceChallengeRate: Double = 0.02, dropsProcedures: Bool = false) throws {
        self.faults = faults
        self.dropsProcedures = dropsProcedures
        self.nonceChallengeRate = nonceChallengeRate
        server = try LoopbackHTTPServer { [weak self] request in
            self?.answer(request) ?? LoopbackHTTPServer.Response(status: 500)
        }
    }

    deinit { server?.stop() }

    var url: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var origin: String { SecureURL.origin(of: url) }
    var snapshot: Figures { lock.withLock { figures } }
    var tokens: [String] { lock.withLock { allTokens } }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        if let proof = request.headers["dpop"] { lock.withLock { allTokens.append(proof) } }
        let issuer = origin
        switch request.path {
        case "/.well-known/oauth-protected-resource":
            return .json(#"{"resource":"\#(issuer)","authorization_servers":["\#(issuer)"]}"#)
        case "/.well-known/oauth-authorization-server":
            return .json(FakeOAuthServer.metadata(issuer: issuer, endpoints: issuer))
        case "/oauth/par":
            return .json(#"{"request_uri":"urn:test:req-1","expires_in":60}"#, status: 201)
        case "/oauth/token":
            let fields = Dictionary(
                FormEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { a, _ in a })
            if fields["grant_type"] == "refresh_token" { return refresh(fields["refresh_token"]) }
            return lock.withLock { tokenAnswer() }
        case "/oauth/revoke":
            lock.withLock { refreshToken = nil }
            return LoopbackHTTPServer.Response(status: 200)
        default:
            return call(request)
        }
    }

    /// Issues new tokens; the caller holds the lock.
    private func tokenAnswer() -> LoopbackHTTPServer.Response {
        issued += 1
        let pair = ("oauth-access-\(issued)-\(UUID().uuidString)", "oauth-refresh-\(issued)-\(UUID().uuidString)")
        access = (pair.0, false)
        refreshToken = pair.1
        allTokens += [pair.0, pair.1]
        return .json(
            #"{"access_token":"\#(pair.0)","token_type":"DPoP","expires_in":300,"refresh_token":"\#(pair.1)","scope":"atproto transition:generic","sub":"did:plc:alice"}"#
        )
    }

    private func refresh(_ token: String?) -> LoopbackHTTPServer.Response {
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
                return .json(#"{"error":"invalid_grant","error_description":"refresh token replaced"}"#, status: 400)
            }
            if access?.expired == false { figures.needlessRefreshes += 1 }
            figures.refreshes += 1
            return faults.apply(fault, to: tokenAnswer(), key: key)
        }
    }

    private func call(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let isProcedure = request.path == "/xrpc/com.example.fault.procedure"
        guard isProcedure || request.path == "/xrpc/com.example.fault.query" else {
            return .json(#"{"error":"MethodNotImplemented"}"#, status: 501)
        }
        let id = Self.callID(request)
        let authorization = request.headers["authorization"] ?? ""
        let bearer = authorization.hasPrefix("DPoP ") ? String(authorization.dropFirst(5)) : nil
        return lock.withLock {
            guard let access, let bearer, request.headers["dpop"] != nil, bearer == access.token, !access.expired else {
                figures.rejectedWithOldToken += 1
                return Self.invalidToken
            }
            let key = "\(request.method)\(id)"
            arrivals[key, default: 0] += 1
            let faultKey = "\(key)#\(arrivals[key, default: 0])"
            if faults.unitValue(faultKey, salt: 9) < nonceChallengeRate {
                figures.nonceChallenges += 1
                nonce += 1
                return .json(
                    #"{"error":"use_dpop_nonce"}"#, status: 401,
                    headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce-\(nonce)"])
            }
            validCalls += 1
            var fault = validCalls == scheduledExpiry ? .expiredToken : faults.fault(for: faultKey)
            if fault == .drop, isProcedure, !dropsProcedures { fault = .truncated }
            if fault != .none { figures.faults[fault, default: 0] += 1 }
            if fault == .expiredToken {
                self.access?.expired = true
                figures.expiries += 1
                return Self.invalidToken
            }
            if isProcedure { figures.procedureArrivals[id, default: 0] += 1 }
            let answer = LoopbackHTTPServer.Response.json(#"{"id":\#(id),"ok":true}"#)
            return faults.apply(fault, to: answer, key: faultKey)
        }
    }

    private static let invalidToken = LoopbackHTTPServer.Response.json(
        #"{"error":"invalid_token"}"#, status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#])

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
