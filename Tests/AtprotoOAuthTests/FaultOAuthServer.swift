import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
@_spi(Plumbing) import OAuthCore

// @unchecked Sendable: `nonce` is changed under the ledger's lock; `server` is set in `init`, before its port is known.
/// A PDS that is its own authorization server, over loopback HTTP, answering XRPC calls and refresh
/// grants with faults (``LoopbackFaults``), DPoP nonce challenges and expired tokens at random, and
/// counting what a session must never do (the counts of XRPCRuntimeTests' `FaultPDS`, kept by the
/// `SessionFaultLedger` both share; this keeps the OAuth protocol).
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

    /// The chance of a `use_dpop_nonce` challenge on a call.
    let nonceChallengeRate: Double
    private let ledger: SessionFaultLedger
    /// The last DPoP nonce served; changed under the ledger's lock only (in its challenge closure).
    private var nonce = 0
    private var server: LoopbackHTTPServer?

    init(faults: LoopbackFaults, nonceChallengeRate: Double = 0.02, dropsProcedures: Bool = false) throws {
        ledger = SessionFaultLedger(faults: faults, dropsProcedures: dropsProcedures)
        self.nonceChallengeRate = nonceChallengeRate
        server = try LoopbackHTTPServer { [weak self] request in
            self?.answer(request) ?? LoopbackHTTPServer.Response(status: 500)
        }
    }

    deinit { server?.stop() }

    var faults: LoopbackFaults { ledger.faults }
    /// The valid call at which the token expires whatever the faults say.
    var scheduledExpiry: Int { ledger.scheduledExpiry }
    var url: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var origin: String { SecureURL.origin(of: url) }
    var snapshot: Figures { ledger.snapshot }
    /// Every token issued and every DPoP proof received, for leak checks.
    var tokens: [String] { ledger.tokens }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        if let proof = request.headers["dpop"] { ledger.record(proof) }
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
            guard fields["grant_type"] == "refresh_token" else { return Self.tokenAnswer(ledger.issue(Self.names)) }
            return ledger.refresh(
                presenting: fields["refresh_token"],
                stale: .json(#"{"error":"invalid_grant","error_description":"refresh token replaced"}"#, status: 400),
                names: Self.names, answer: Self.tokenAnswer)
        case "/oauth/revoke":
            ledger.revokeRefreshToken()
            return LoopbackHTTPServer.Response(status: 200)
        default:
            let authorization = request.headers["authorization"] ?? ""
            let bearer =
                authorization.hasPrefix("DPoP ") && request.headers["dpop"] != nil
                ? String(authorization.dropFirst(5)) : nil
            return ledger.call(
                request, queryPath: "/xrpc/com.example.fault.query", procedurePath: "/xrpc/com.example.fault.procedure",
                bearer: bearer, rejection: Self.invalidToken,
                challenge: { faultKey, figures in
                    guard self.faults.unitValue(faultKey, salt: 9) < self.nonceChallengeRate else { return nil }
                    figures.nonceChallenges += 1
                    self.nonce += 1
                    return .json(
                        #"{"error":"use_dpop_nonce"}"#, status: 401,
                        headers: [
                            "WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce-\(self.nonce)",
                        ])
                }
            ) { id in .json(#"{"id":\#(id),"ok":true}"#) }
        }
    }

    private static func names(_ issued: Int) -> (access: String, refresh: String) {
        ("oauth-access-\(issued)-\(UUID().uuidString)", "oauth-refresh-\(issued)-\(UUID().uuidString)")
    }

    private static func tokenAnswer(_ pair: (access: String, refresh: String)) -> LoopbackHTTPServer.Response {
        .json(
            #"{"access_token":"\#(pair.access)","token_type":"DPoP","expires_in":300,"refresh_token":"\#(pair.refresh)","scope":"atproto transition:generic","sub":"did:plc:alice"}"#
        )
    }

    private static let invalidToken = LoopbackHTTPServer.Response.json(
        #"{"error":"invalid_token"}"#, status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#])
}
