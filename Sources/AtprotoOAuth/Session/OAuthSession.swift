import AtprotoSyntax
import Foundation
import OAuthCore
import XRPCAgents
import XRPCCore

/// An OAuth session of one account: an `XRPCAgent` that sends every call for the account's PDS with
/// `Authorization: DPoP <token>` and a fresh DPoP proof, so generated methods work through it as they
/// do through a password session.
///
/// Layered try, refresh, end (the shape of `PasswordSession`): a `use_dpop_nonce` challenge is
/// retried once with the new nonce (a second one throws ``OAuthSessionError/Code/requestFailed``);
/// an access token near expiry, or one the PDS rejects, is refreshed once for all concurrent callers
/// (under the ``OAuthRefreshLock``, after checking that the account's PDS still names this issuer),
/// then the call is sent again. Token rejections start at most two refreshes per session, however
/// many callers wait (joining a refresh, or finding the token replaced, is free); the budget comes
/// back when a call is accepted or no call is out. A call rejected once the budget is spent throws
/// ``OAuthSessionError/Code/requestFailed``. A dead grant ends the session:
/// ``OAuthSessionUpdate/ended(_:)`` is published once and later calls fail fast.
///
/// Calls that name another host, or carry their own `Authorization`, are sent without credentials.
public actor OAuthSession: XRPCAgent, XRPCAccountAgent, CustomStringConvertible, CustomReflectable {
    private enum Phase {
        case active(OAuthSessionArchive)
        case ended(OAuthSessionError)
        case signedOut
    }

    /// The account.
    public nonisolated let did: DID

    /// ``did`` (for the package's per-account edit lanes).
    package func accountDID() async -> DID? { did }
    private let context: OAuthSessionContext
    private let signer: any ES256Signer
    private let nonces: DPoPNonceStore
    private let broadcaster = UpdateBroadcaster<OAuthSessionUpdate>()
    /// This session's share of the refresh window (0...1), so many clients do not refresh at once.
    private let jitter = Double.random(in: 0...1)
    private var phase: Phase
    private var generation = 0
    /// The refresh in progress, keyed by the generation it replaces.
    private let renewals = SingleFlight<Int>()
    /// Refreshes that token rejections started since a call was last accepted or no call was out.
    private var spentRefreshes = 0
    private var callsInFlight = 0
    /// The refreshes token rejections may start per session (see ``send(_:)``).
    static let refreshBudget = 2

    init(archive: OAuthSessionArchive, signer: any ES256Signer, context: OAuthSessionContext) {
        self.did = archive.did
        self.context = context
        self.signer = signer
        self.nonces = DPoPNonceStore(archive.nonces)
        self.phase = .active(archive)
    }

    /// The account's DID only.
    public nonisolated var description: String { "OAuthSession(\(did.rawValue))" }
    /// A mirror with the DID only: `dump` never reaches the tokens, the key or the agent's state
    /// (a `URLSession` holds the requests in flight, headers included).
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["did": did], displayStyle: .class) }

    /// A stream of every later change: archives to persist, the end, sign-out. Each call returns a new
    /// stream buffering the 64 newest updates.
    public nonisolated func updates() -> AsyncStream<OAuthSessionUpdate> { broadcaster.stream() }

    /// The current state, or `nil` once ended or signed out.
    public var archive: OAuthSessionArchive? {
        guard case .active(var archive) = phase else { return nil }
        archive.nonces = nonces.snapshot
        return archive
    }

    /// Why the session ended, or `nil` while it has not.
    public var endError: OAuthSessionError? {
        if case .ended(let error) = phase { return error }
        return nil
    }

    // MARK: Sending

    /// Sends `request`, with DPoP credentials when it goes to the account's PDS.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        var archive = try activeArchive()
        guard let target = credentialTarget(request, archive) else {
            var routed = request
            routed.serviceURL = request.serviceURL ?? archive.pdsEndpoint
            return try await context.agent.send(routed)
        }
        if needsRefresh(archive) {
            try await renew(after: generation)
            archive = try activeArchive()
        }
        callsInFlight += 1
        defer {
            callsInFlight -= 1
            if callsInFlight == 0 { spentRefreshes = 0 }
        }
        var sentGeneration = generation
        var response = try await sendWithNonceRetry(request, to: target, archive)
        // Two refreshes per session: joining one or finding the token replaced is free, so however
        // many callers wait, a PDS that keeps refusing fresh tokens costs two refreshes.
        while Self.isTokenRejection(response) {
            if generation == sentGeneration {
                if renewals.runningKey != sentGeneration, spentRefreshes >= Self.refreshBudget {
                    throw OAuthSessionError(
                        .requestFailed,
                        message: "the PDS refused the access token of \(did.rawValue) on \(request.nsid) after "
                            + "\(Self.refreshBudget) refreshes", underlying: Self.serverError(response, request.nsid))
                }
                context.logger.log(
                    .debug, "OAuthSession", "token rejected on \(request.nsid): refreshing",
                    ["status": String(response.status)])
                try await renew(after: sentGeneration, spending: true)
            }
            archive = try activeArchive()
            sentGeneration = generation
            response = try await sendWithNonceRetry(request, to: target, archive)
        }
        if sentGeneration == generation { spentRefreshes = 0 }
        return response
    }

    /// Sends once, and once more when the PDS asks for a new nonce; a second challenge throws, as a
    /// second `use_dpop_nonce` from the authorization server does.
    private func sendWithNonceRetry(_ request: XRPCRequest, to target: URL, _ archive: OAuthSessionArchive)
        async throws -> XRPCResponse
    {
        let response = try await sendOnce(request, to: target, archive)
        guard Self.isNonceChallenge(response) else { return response }
        context.logger.log(.debug, "OAuthSession", "DPoP nonce challenge on \(request.nsid): sending again")
        let again = try await sendOnce(request, to: target, archive)
        guard Self.isNonceChallenge(again) else { return again }
        throw OAuthSessionError(
            .requestFailed, message: "the PDS asked for a new DPoP nonce twice on \(request.nsid)",
            underlying: Self.serverError(again, request.nsid))
    }

    private func sendOnce(_ request: XRPCRequest, to target: URL, _ archive: OAuthSessionArchive) async throws
        -> XRPCResponse
    {
        guard let url = request.url(on: target) else {
            throw OAuthSessionError(.requestFailed, message: "no URL for \(request.nsid) on \(target)")
        }
        let token = archive.accessToken.value
        let proof = try await DPoPProof.make(
            method: request.method.rawValue, url: url, nonce: nonces.nonce(for: url), accessToken: token, signer: signer
        )
        var sent = request
        sent.serviceURL = target
        sent.setHeader("Authorization", "DPoP " + token)
        sent.setHeader("DPoP", proof)
        let response = try await context.agent.send(sent)
        if nonces.update(from: url, headerValue: response.header("DPoP-Nonce")) { publishNonces() }
        return response
    }

    /// The PDS URL when `request` should carry this session's credentials, else `nil`.
    private func credentialTarget(_ request: XRPCRequest, _ archive: OAuthSessionArchive) -> URL? {
        guard request.header("Authorization") == nil else { return nil }
        let target = request.serviceURL ?? archive.pdsEndpoint
        guard SecureURL.origin(of: target) == SecureURL.origin(of: archive.pdsEndpoint) else { return nil }
        return target
    }

    /// `use_dpop_nonce`: 401 with a DPoP challenge (resource servers), or a 400 JSON error.
    static func isNonceChallenge(_ response: XRPCResponse) -> Bool {
        if response.status == 401,
            WWWAuthenticateChallenge.dpopError(in: response.headers) == "use_dpop_nonce"
        {
            return true
        }
        return response.status == 400 && errorName(response) == "use_dpop_nonce"
    }

    /// The access token was refused: 401 `invalid_token`, or the XRPC `ExpiredToken` / `InvalidToken`.
    static func isTokenRejection(_ response: XRPCResponse) -> Bool {
        if response.status == 401 {
            return WWWAuthenticateChallenge.dpopError(in: response.headers) == "invalid_token"
        }
        return response.status == 400 && ["ExpiredToken", "InvalidToken"].contains(errorName(response) ?? "")
    }

    /// The OAuth error of a PDS answer: its DPoP challenge's error, else its JSON `error`.
    static func serverError(_ response: XRPCResponse, _ nsid: NSID) -> OAuthError {
        let code = WWWAuthenticateChallenge.dpopError(in: response.headers) ?? errorName(response)
        return OAuthError(
            .server, serverCode: code, status: response.status,
            message: "\(nsid) failed with HTTP \(response.status)\(code.map { ": " + $0 } ?? "")")
    }

    private static func errorName(_ response: XRPCResponse) -> String? {
        guard response.body.count < 16 * 1024,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return nil }
        return object["error"] as? String
    }

    private func needsRefresh(_ archive: OAuthSessionArchive) -> Bool {
        let lifetime = archive.expiresAt.timeIntervalSince(archive.issuedAt)
        return Date() >= archive.expiresAt.addingTimeInterval(-Self.refreshLead(lifetime: lifetime, jitter: jitter))
    }

    /// How long before expiry a token of `lifetime` seconds is refreshed: a tenth of its lifetime,
    /// capped at 60 s, scaled by `jitter` (0...1) between half that and all of it.
    static func refreshLead(lifetime: TimeInterval, jitter: Double) -> TimeInterval {
        let window = min(60, max(1, lifetime) * 0.1)
        return window * (0.5 + jitter * 0.5)
    }

    /// Whether a refresh is running (for tests: none may outlive the calls that needed it).
    var renewalInProgress: Bool { renewals.isRunning }

    private func activeArchive() throws(OAuthSessionError) -> OAuthSessionArchive {
        switch phase {
        case .active(let archive): return archive
        case .ended(let error): throw error
        case .signedOut: throw OAuthSessionError(.sessionEnded, message: "\(did.rawValue) signed out")
        }
    }

    // MARK: Event streams

    /// The account's PDS while the session is active (`XRPCClient.subscribe(_:parameters:)` connects
    /// there by default), `nil` once it ended or signed out.
    public func defaultServiceURL() async -> URL? {
        guard case .active(let archive) = phase else { return nil }
        return archive.pdsEndpoint
    }

    /// For a stream on the account's PDS (`ws`/`wss` read as `http`/`https`): `Authorization: DPoP
    /// <token>` and a DPoP proof of `GET` on the upgrade's HTTP URL (`wss://pds/xrpc/...` proves
    /// `https://pds/xrpc/...`, the request the PDS receives), bound to the token. Nothing for another
    /// host. While the session is not active, it throws: a stream on the account's PDS must not go
    /// out without the credentials it was opened with.
    ///
    /// After an upgrade refused as unauthorized, the tokens are refreshed first (joining a refresh in
    /// progress), so the stream's next attempt carries the new token.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        var archive = try activeArchive()
        guard let target = Self.httpEquivalent(of: url),
            SecureURL.origin(of: target) == SecureURL.origin(of: archive.pdsEndpoint)
        else { return [:] }
        if rejection != nil || needsRefresh(archive) {
            try await renew(after: generation)
            archive = try activeArchive()
        }
        let token = archive.accessToken.value
        let proof = try await DPoPProof.make(
            method: "GET", url: target, nonce: nonces.nonce(for: target), accessToken: token, signer: signer)
        return ["Authorization": "DPoP " + token, "DPoP": proof]
    }

    /// `url` with `wss` made `https` and `ws` made `http`; `nil` for another scheme.
    static func httpEquivalent(of url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        switch components.scheme?.lowercased() {
        case "wss", "https": components.scheme = "https"
        case "ws", "http": components.scheme = "http"
        default: return nil
        }
        return components.url
    }

    // MARK: Refresh

    /// Refreshes the tokens now.
    @discardableResult
    public func refresh() async throws -> OAuthSessionArchive {
        _ = try activeArchive()
        try await renew(after: generation)
        return try activeArchive()
    }

    /// Makes sure the tokens are newer than `generation`: joins the refresh in progress or starts one.
    /// The refresh runs in its own task: a caller's cancellation never cancels a refresh once sent.
    /// A refresh started for a token rejection (`spending`) counts against the session's budget.
    private func renew(after generation: Int, spending: Bool = false) async throws {
        guard self.generation == generation else { return }
        try await renewals.run(generation) { try await self.performRefresh(spending: spending) }
    }

    private func performRefresh(spending: Bool) async throws {
        guard case .active(var archive) = phase else { return }
        archive.nonces = nonces.snapshot
        let start = generation
        let refresher = OAuthRefresher(context: context, signer: signer, nonces: nonces)
        let current = archive
        let started = ContinuousClock.now
        context.logger.log(.info, "OAuthSession", "refreshing the session", ["did": did.rawValue])
        do {
            let outcome = try await context.refreshLock.withLock(did.rawValue) {
                try await refresher.refreshed(current)
            }
            guard generation == start else { return }
            switch outcome {
            case .salvaged(let kept, let error):
                // Only the refresh token changed: the access token and the generation stay.
                phase = .active(kept)
                broadcaster.yield(.updated(kept))
                throw error
            case .refreshed(let refreshed):
                install(refreshed)
                if spending { spentRefreshes += 1 }
            }
            context.logger.log(
                .info, "OAuthSession", "refreshed the session", ["ms": XRPCLogger.milliseconds(since: started)])
        } catch let error as OAuthSessionError {
            context.logger.log(.warning, "OAuthSession", "the refresh failed: \(error.code)")
            guard generation == start else { return }
            if error.code == .sessionEnded { end(error) }
            throw error
        }
    }

    // MARK: Sign-out

    /// Ends the session here (``OAuthSessionUpdate/signedOut`` is published first) and revokes its
    /// grant at the authorization server. An error thrown after that only says the server may not
    /// have heard.
    public func signOut() async throws {
        guard case .active(let archive) = phase else { return }
        phase = .signedOut
        generation += 1
        broadcaster.yield(.signedOut)
        context.logger.log(.info, "OAuthSession", "signed out", ["did": did.rawValue])
        forgetStored()
        let client = context.authorizationServerClient(archive.authorizationServer, nonces: nonces)
        do {
            try await client.revoke(token: (archive.refreshToken ?? archive.accessToken).value, signer: signer)
        } catch {
            throw OAuthSessionError(
                .requestFailed, message: "signed \(did.rawValue) out here, but the revocation failed", underlying: error
            )
        }
    }

    // MARK: State changes

    private func install(_ archive: OAuthSessionArchive) {
        phase = .active(archive)
        generation += 1
        broadcaster.yield(.updated(archive))
    }

    private func publishNonces() {
        guard case .active(var archive) = phase else { return }
        archive.nonces = nonces.snapshot
        phase = .active(archive)
        broadcaster.yield(.updated(archive))
    }

    private func end(_ error: OAuthSessionError) {
        phase = .ended(error)
        generation += 1
        broadcaster.yield(.ended(error))
        context.logger.log(.error, "OAuthSession", error.message, ["did": did.rawValue])
        forgetStored()
    }

    /// Deletes the stored archive (best effort: the app also sees the end on the stream).
    private func forgetStored() {
        guard let store = context.store else { return }
        let did = self.did
        Task { try? await store.delete(did) }
    }
}
