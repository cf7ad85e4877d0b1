import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import XRPCRuntime

// @unchecked Sendable: the ledger is Sendable; `server` is set in `init`, before its port is known.
/// A PDS over loopback HTTP that answers with faults (``LoopbackFaults``) and counts what a session
/// must never do: two refreshes of one expiry, a refresh of a token already rotated, a refresh while
/// the access token was still good, a procedure acted on twice. The bookkeeping is
/// `SessionFaultLedger`'s, shared with AtprotoOAuthTests' `FaultOAuthServer`; this keeps the protocol.
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

    let did = "did:plc:faulty"
    let password = "fault-password-\(UUID().uuidString)"
    private let ledger: SessionFaultLedger
    private var server: LoopbackHTTPServer?

    init(faults: LoopbackFaults, dropsProcedures: Bool = false) throws {
        ledger = SessionFaultLedger(faults: faults, dropsProcedures: dropsProcedures)
        server = try LoopbackHTTPServer { [weak self] request in
            self?.answer(request) ?? LoopbackHTTPServer.Response(status: 500)
        }
    }

    deinit { server?.stop() }

    var faults: LoopbackFaults { ledger.faults }
    /// The valid call at which the token expires whatever the faults say.
    var scheduledExpiry: Int { ledger.scheduledExpiry }
    var url: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var snapshot: Figures { ledger.snapshot }
    /// Every token issued, for leak checks.
    var tokens: [String] { ledger.tokens }

    /// Makes the current access token expired, as a fault would.
    func expireAccessToken() { ledger.expireAccessToken() }
    /// Makes the refresh token dead: the next refresh is refused.
    func revokeRefreshToken() { ledger.revokeRefreshToken() }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        switch request.path {
        case "/xrpc/com.atproto.server.createSession":
            guard String(decoding: request.body, as: UTF8.self).contains(password) else {
                return .json(
                    #"{"error":"AuthenticationRequired","message":"Invalid identifier or password"}"#, status: 401)
            }
            return session(ledger.issue(Self.names))
        case "/xrpc/com.atproto.server.refreshSession":
            return ledger.refresh(
                presenting: Self.bearer(request),
                stale: .json(#"{"error":"ExpiredToken","message":"Token has been revoked"}"#, status: 400),
                names: Self.names, answer: session)
        case "/xrpc/com.atproto.server.deleteSession":
            ledger.revokeRefreshToken()
            return LoopbackHTTPServer.Response(status: 200)
        default:
            return ledger.call(
                request, queryPath: "/xrpc/" + Self.query.rawValue, procedurePath: "/xrpc/" + Self.procedure.rawValue,
                bearer: Self.bearer(request),
                rejection: .json(#"{"error":"ExpiredToken","message":"Token has expired"}"#, status: 400)
            ) { id in
                .json(#"{"id":\#(id),"ok":true,"padding":"\#(Self.padding)"}"#)
            }
        }
    }

    private static func names(_ issued: Int) -> (access: String, refresh: String) {
        ("eyJ.fault-access-\(issued).\(UUID().uuidString)", "eyJ.fault-refresh-\(issued).\(UUID().uuidString)")
    }

    private static func bearer(_ request: LoopbackHTTPServer.Request) -> String? {
        request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
    }

    private func session(_ tokens: (access: String, refresh: String)) -> LoopbackHTTPServer.Response {
        .json(
            #"{"did":"\#(did)","handle":"faulty.test","accessJwt":"\#(tokens.access)","refreshJwt":"\#(tokens.refresh)","active":true}"#
        )
    }

    private static let padding = String(repeating: "x", count: 512)
}
