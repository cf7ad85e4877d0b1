import Foundation
import XRPCCore

/// An agent that logs in with a handle and password and adds the session's access token to every
/// call for its own hosts (the service it logged in to and the account's PDS).
///
/// ```swift
/// let session = PasswordSession(service: URL(string: "https://bsky.social")!) { request in
///     await askUserForPassword(request)          // or nil: the session then ends
/// }
/// Task { for await update in session.updates() { persist(update) } }
/// try await session.login("alice.bsky.social", password: appPassword)
/// let client = XRPCClient(agent: session)
/// ```
///
/// Layered try, refresh, retry: a call whose access token the server rejects (`ExpiredToken`,
/// `InvalidToken`, 401) waits for one refresh shared by all concurrent callers, then is sent again.
/// Rejections start at most two refreshes per session however many callers wait (joining one, or
/// finding the token replaced, is free; the budget comes back when a call is accepted or none is
/// out); a call rejected once it is spent returns the server's rejection. When
/// the refresh token is dead too, the session asks its credentials provider for a new login; when
/// that gives nothing or fails, the session ends: ``PasswordSessionUpdate/ended(_:)`` is published and every
/// later call fails fast with ``PasswordSessionError/Code/sessionEnded`` until the app logs in again.
///
/// A request that names another host (`XRPCRequest.serviceURL`) or carries its own
/// `Authorization` header is sent without the session's credentials. A call with an `atproto-proxy`
/// header goes to the PDS with them, as proxying requires.
public actor PasswordSession: XRPCAgent, XRPCAccountAgent, CustomStringConvertible, CustomReflectable {
    /// Returns credentials for a new login, or `nil` to let the session end.
    public typealias CredentialsProvider =
        @Sendable (PasswordSessionCredentialsRequest) async -> PasswordSessionCredentials?
    /// Checks every new session state before it is used, and may correct it: AtprotoIdentityResolution's
    /// resolvers check that the account's DID document names the PDS the server claimed, and route
    /// calls there. Throwing refuses the login, or ends the session after a refresh.
    public typealias AccountCheck = @Sendable (PasswordSessionArchive) async throws -> PasswordSessionArchive

    private enum Phase {
        case loggedOut
        case active(PasswordSessionArchive)
        case ended(PasswordSessionError)
    }

    /// The service logins go to (`https://bsky.social`).
    public nonisolated let service: URL
    /// The agent every request goes through.
    public nonisolated let agent: any XRPCAgent
    private let credentialsProvider: CredentialsProvider?
    private let accountCheck: AccountCheck?
    /// Where logins, refreshes, re-logins, the end and logout are logged; never a token or password.
    public nonisolated let logger: XRPCLogger
    private let broadcaster = UpdateBroadcaster<PasswordSessionUpdate>()
    private var phase: Phase
    /// Changes whenever the tokens change or the session ends: a caller that saw its token rejected
    /// under an older generation just retries.
    private var generation = 0
    /// The renewal in progress, keyed by the generation it replaces.
    private let renewals = SingleFlight<Int>()
    /// Renewals that rejected tokens started since a call was last accepted or no call was out.
    private var spentRefreshes = 0
    private var callsInFlight = 0

    /// Creates a logged-out session for `service`; call ``login(_:password:authFactorToken:)``.
    ///
    /// Without `agent`, requests go through a ``URLSessionAgent`` (logging to `logger` too).
    /// Until login, calls are sent without credentials.
    public init(
        service: URL,
        agent: (any XRPCAgent)? = nil,
        credentialsProvider: CredentialsProvider? = nil,
        accountCheck: AccountCheck? = nil,
        logger: XRPCLogger = .disabled
    ) {
        self.service = service
        self.agent = agent ?? URLSessionAgent(serviceURL: service, logger: logger)
        self.credentialsProvider = credentialsProvider
        self.accountCheck = accountCheck
        self.logger = logger
        self.phase = .loggedOut
    }

    /// Resumes a stored session. Its tokens are used as they are; an expired one is refreshed on the
    /// first call.
    public init(
        restoring archive: PasswordSessionArchive,
        agent: (any XRPCAgent)? = nil,
        credentialsProvider: CredentialsProvider? = nil,
        accountCheck: AccountCheck? = nil,
        logger: XRPCLogger = .disabled
    ) {
        self.service = archive.service
        self.agent = agent ?? URLSessionAgent(serviceURL: archive.service, logger: logger)
        self.credentialsProvider = credentialsProvider
        self.accountCheck = accountCheck
        self.logger = logger
        self.phase = .active(archive)
    }

    /// The service and nothing else: never tokens.
    public nonisolated var description: String { "PasswordSession(\(service.absoluteString))" }
    /// A mirror with the service only: `dump` never reaches the tokens or the state of its agent.
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["service": service], displayStyle: .class) }

    /// A stream of every later change: new states to persist, the end, logout.
    ///
    /// Each call returns a new stream; it buffers the 64 newest updates.
    public nonisolated func updates() -> AsyncStream<PasswordSessionUpdate> {
        broadcaster.stream()
    }

    /// The current state, or `nil` when logged out or ended.
    public var archive: PasswordSessionArchive? {
        if case .active(let archive) = phase { return archive }
        return nil
    }

    /// The signed-in account's DID (for the package's per-account edit lanes).
    package func accountDID() async -> DID? { archive?.did }

    /// Why the session ended, or `nil` while it has not.
    public var endError: PasswordSessionError? {
        if case .ended(let error) = phase { return error }
        return nil
    }

    // MARK: Login and logout

    /// Logs in (`com.atproto.server.createSession`), replacing any current state, and publishes it.
    ///
    /// Throws ``PasswordSessionError`` with ``PasswordSessionError/Code/authFactorTokenRequired``
    /// when the account needs the emailed two-factor code: call again with `authFactorToken`.
    @discardableResult
    public func login(_ identifier: ATIdentifier, password: String, authFactorToken: String? = nil) async throws
        -> PasswordSessionArchive
    {
        try await login(
            PasswordSessionCredentials(
                identifier: identifier.rawValue, password: password, authFactorToken: authFactorToken))
    }

    /// Logs in with `credentials`, whose identifier may also be the account's email; see
    /// ``login(_:password:authFactorToken:)``.
    @discardableResult
    public func login(_ credentials: PasswordSessionCredentials) async throws -> PasswordSessionArchive {
        let response = try await agent.send(SessionEndpoints.createSessionRequest(credentials, service: service))
        guard response.isSuccess else {
            let error = Self.loginError(response, identifier: credentials.identifier)
            logger.log(.warning, "PasswordSession", "login failed: \(error.code)", ["status": String(response.status)])
            throw error
        }
        let answered = try SessionEndpoints.archive(
            from: response, nsid: SessionEndpoints.createSession, service: service, previous: nil)
        let archive = try await accountCheck?(answered) ?? answered
        install(archive)
        logger.log(.info, "PasswordSession", "logged in", ["did": archive.did.rawValue])
        return archive
    }

    /// Ends the session here and on the server (`com.atproto.server.deleteSession`).
    ///
    /// The state is dropped and ``PasswordSessionUpdate/loggedOut`` published first; an error thrown after
    /// that only says the server may not have heard.
    public func logout() async throws {
        let previous = phase
        phase = .loggedOut
        generation += 1
        broadcaster.yield(.loggedOut)
        guard case .active(let archive) = previous else { return }
        logger.log(.info, "PasswordSession", "logged out", ["did": archive.did.rawValue])
        let response = try await agent.send(
            SessionEndpoints.tokenRequest(
                SessionEndpoints.deleteSession, token: archive.refreshToken, service: archive.service))
        if !response.isSuccess, !SessionEndpoints.isTokenRejection(response) {
            throw PasswordSessionError(
                .requestFailed,
                message: "logged out of \(archive.did.rawValue) here, but the server did not confirm it",
                underlying: XRPCError.fromResponse(response, nsid: SessionEndpoints.deleteSession))
        }
    }

    /// Reads the account's current state from its PDS (`com.atproto.server.getSession`), publishing
    /// a new archive when the handle, PDS, email or status changed.
    @discardableResult
    public func getSession() async throws -> PasswordSessionArchive {
        _ = try activeArchive()
        let response = try await send(XRPCRequest(method: .get, nsid: SessionEndpoints.getSession))
        let archive = try activeArchive()
        guard response.isSuccess else {
            throw PasswordSessionError(
                .requestFailed, message: "could not read the session of \(archive.did.rawValue)",
                underlying: XRPCError.fromResponse(response, nsid: SessionEndpoints.getSession))
        }
        var updated = try SessionEndpoints.applyGetSession(response, to: archive)
        if updated != archive, let accountCheck { updated = try await accountCheck(updated) }
        if updated != archive { install(updated) }
        return updated
    }

    /// Refreshes the tokens now (`com.atproto.server.refreshSession`), with the same fallback to a
    /// new login as an expired call.
    @discardableResult
    public func refresh() async throws -> PasswordSessionArchive {
        _ = try activeArchive()
        try await renew(after: generation)
        return try activeArchive()
    }

    // MARK: Sending

    /// Sends `request`, with the access token when it goes to one of the session's hosts, refreshing
    /// and retrying once when the server rejects the token.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        let archive: PasswordSessionArchive
        switch phase {
        case .ended(let error): throw error
        case .loggedOut:
            var routed = request
            routed.serviceURL = request.serviceURL ?? service
            return try await agent.send(routed)
        case .active(let current): archive = current
        }
        guard let first = authorized(request, with: archive) else {
            var routed = request
            routed.serviceURL = request.serviceURL ?? archive.callServiceURL
            return try await agent.send(routed)
        }
        callsInFlight += 1
        defer {
            callsInFlight -= 1
            if callsInFlight == 0 { spentRefreshes = 0 }
        }
        var sentGeneration = generation
        var response = try await agent.send(first)
        // Two refreshes per session, not per call: joining one in progress, or finding the token
        // replaced while out, is free, so however many callers wait, a server that rejects every
        // token costs two refreshes; the budget comes back when a call is accepted or none is out.
        while SessionEndpoints.isTokenRejection(response) {
            if generation == sentGeneration {
                if renewals.runningKey != sentGeneration, spentRefreshes >= 2 { return response }
                logger.log(
                    .debug, "PasswordSession", "token rejected on \(request.nsid): refreshing",
                    ["status": String(response.status)])
                try await renew(after: sentGeneration, spending: true)
            }
            guard let retry = authorized(request, with: try activeArchive()) else { return response }
            sentGeneration = generation
            response = try await agent.send(retry)
        }
        if sentGeneration == generation { spentRefreshes = 0 }
        return response
    }

    /// `request` routed to its host with the access token, or `nil` when it gets no credentials: it
    /// names a host that is not the session's, or carries its own `Authorization`.
    private func authorized(_ request: XRPCRequest, with archive: PasswordSessionArchive) -> XRPCRequest? {
        guard request.header("Authorization") == nil else { return nil }
        let target = request.serviceURL ?? archive.callServiceURL
        guard let origin = ServiceOrigin(target) else { return nil }
        let own = [service, archive.service, archive.pdsEndpoint].compactMap { $0.flatMap(ServiceOrigin.init) }
        guard own.contains(origin) else { return nil }
        var sent = request
        sent.serviceURL = target
        sent.setHeader("Authorization", archive.accessToken.bearer)
        return sent
    }

    /// Whether a refresh is running (for tests: none may outlive the calls that needed it).
    var renewalInProgress: Bool { renewals.isRunning }

    private func activeArchive() throws -> PasswordSessionArchive {
        switch phase {
        case .active(let archive): return archive
        case .ended(let error): throw error
        case .loggedOut:
            throw PasswordSessionError(.sessionEnded, message: "not logged in to \(service.absoluteString)")
        }
    }

    // MARK: Renewal

    /// Makes sure the tokens are newer than `generation`: joins the renewal in progress or starts one.
    /// A renewal started for a rejected token (`spending`) counts against the budget unless it fails.
    private func renew(after generation: Int, spending: Bool = false) async throws {
        guard self.generation == generation else { return }
        var counted = false
        do {
            try await renewals.run(generation) {
                if spending {
                    spentRefreshes += 1
                    counted = true
                }
            } _: {
                try await self.performRenewal()
            }
        } catch {
            if counted { spentRefreshes = max(0, spentRefreshes - 1) }
            throw error
        }
    }

    private func performRenewal() async throws {
        guard case .active(let archive) = phase else { return }
        let startGeneration = generation
        let start = ContinuousClock.now
        logger.log(.info, "PasswordSession", "refreshing the session", ["did": archive.did.rawValue])
        let response = try await agent.send(
            SessionEndpoints.tokenRequest(
                SessionEndpoints.refreshSession, token: archive.refreshToken, service: archive.service))
        guard generation == startGeneration else { return }
        if response.isSuccess {
            let refreshed = try SessionEndpoints.archive(
                from: response, nsid: SessionEndpoints.refreshSession, service: archive.service, previous: archive)
            try await installChecked(refreshed, generation: startGeneration)
            logger.log(.info, "PasswordSession", "refreshed the session", ["ms": XRPCLogger.milliseconds(since: start)])
            return
        }
        let refreshError = XRPCError.fromResponse(response, nsid: SessionEndpoints.refreshSession)
        logger.log(.warning, "PasswordSession", "the refresh failed", ["status": String(response.status)])
        guard SessionEndpoints.isTokenRejection(response) else {
            throw PasswordSessionError(
                .requestFailed, message: "could not refresh the session of \(archive.did.rawValue)",
                underlying: refreshError)
        }
        try await relogin(archive, refreshError: refreshError, generation: startGeneration)
    }

    /// Logs in again through the credentials provider, or ends the session.
    private func relogin(_ archive: PasswordSessionArchive, refreshError: XRPCError, generation startGeneration: Int)
        async throws
    {
        let account = archive.did.rawValue
        guard let credentialsProvider else {
            throw end("the refresh token of \(account) was rejected and no credentials provider is set", refreshError)
        }
        var reason = PasswordSessionCredentialsRequest.Reason.sessionExpired
        var lastError = refreshError
        while true {
            let request = PasswordSessionCredentialsRequest(did: archive.did, handle: archive.handle, reason: reason)
            logger.log(.info, "PasswordSession", "asking the app for a new login", ["reason": reason.rawValue])
            guard let credentials = await credentialsProvider(request) else {
                throw end("the refresh token of \(account) was rejected and the app gave no new login", lastError)
            }
            guard generation == startGeneration else { return }
            let response = try await agent.send(
                SessionEndpoints.createSessionRequest(credentials, service: archive.service))
            guard generation == startGeneration else { return }
            if response.isSuccess {
                let renewed = try SessionEndpoints.archive(
                    from: response, nsid: SessionEndpoints.createSession, service: archive.service, previous: archive)
                guard renewed.did == archive.did else {
                    throw end("the new login is for \(renewed.did.rawValue), not \(account)", nil)
                }
                try await installChecked(renewed, generation: startGeneration)
                return
            }
            let error = Self.loginError(response, identifier: credentials.identifier)
            lastError = error.underlying ?? lastError
            if error.code == .authFactorTokenRequired, reason == .sessionExpired {
                reason = .authFactorTokenRequired
                continue
            }
            guard error.code == .authenticationFailed || error.code == .authFactorTokenRequired else { throw error }
            throw end("the refresh token of \(account) was rejected and logging in again failed", lastError)
        }
    }

    // MARK: State changes

    /// Installs a renewed state once the account check passed; a failed check ends the session.
    private func installChecked(_ archive: PasswordSessionArchive, generation startGeneration: Int) async throws {
        guard let accountCheck else { return install(archive) }
        let checked: PasswordSessionArchive
        do {
            checked = try await accountCheck(archive)
        } catch {
            guard generation == startGeneration else { return }
            throw end("the account check of \(archive.did.rawValue) failed after a refresh: \(error)", nil)
        }
        guard generation == startGeneration else { return }
        install(checked)
    }

    private func install(_ archive: PasswordSessionArchive) {
        if case .active(let old) = phase, old.accessToken == archive.accessToken,
            old.refreshToken == archive.refreshToken
        {
            phase = .active(archive)
        } else {
            phase = .active(archive)
            generation += 1
        }
        broadcaster.yield(.updated(archive))
    }

    /// Ends the session for good and returns the error later calls get.
    private func end(_ reason: String, _ serverError: XRPCError?) -> PasswordSessionError {
        let error = PasswordSessionError(
            .sessionEnded, message: "the session ended: \(reason); log in again", underlying: serverError)
        phase = .ended(error)
        generation += 1
        broadcaster.yield(.ended(error))
        logger.log(.error, "PasswordSession", error.message)
        return error
    }
}
