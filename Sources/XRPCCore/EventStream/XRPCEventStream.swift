import AtprotoData
import Foundation
import XRPCWebSockets

/// The messages of a subscription, as an `AsyncSequence` of its generated message union.
///
/// Nothing connects until iteration starts; each iterator opens its own connection. A `#commit`
/// frame arrives as the union's commit case; a message type the union does not list arrives in its
/// `unknown` case; frames with an unknown `op` are skipped. The sequence ends:
/// - normally when the server closes the connection cleanly and there is no reconnect policy, or
///   when the iterating task is cancelled (the connection is then closed);
/// - with ``XRPCEventStreamError`` on an error frame, a malformed frame, a refused subscription,
///   or a connection that failed (after the reconnect policy's attempts, if any).
///
/// ```swift
/// for try await message in client.com.atproto.sync.subscribeRepos(cursor: 0) {
///     if case .comAtprotoSyncSubscribeReposCommit(let commit) = message { ... }
/// }
/// ```
public struct XRPCEventStream<Endpoint: XRPCSubscription>: AsyncSequence, Sendable {
    public typealias Element = Endpoint.Message
    public typealias Failure = XRPCEventStreamError

    /// The URL of the first connection, with the parameters as its query, when it is known before
    /// connecting; `nil` when the agent names its service at the first connection, or when there is
    /// no service.
    public let url: URL?
    /// How connections are made and kept.
    public let options: XRPCEventStreamOptions
    /// The client's agent: names the service when ``url`` is `nil`, and the upgrade request's
    /// credentials (``XRPCAgent/eventStreamHeaders(for:rejection:)``) before each connection.
    let agent: (any XRPCAgent)?
    /// The parameters, for a URL made from the agent's service; `nil` when the service is not the
    /// agent's (``url`` is the only one).
    let queryItems: [URLQueryItem]?

    /// A stream from `url` (`ws://.../xrpc/<nsid>?<parameters>`) with `options`.
    public init(url: URL?, options: XRPCEventStreamOptions) {
        self.init(url: url, options: options, agent: nil, queryItems: nil)
    }

    /// A stream that connects to `url`, or to the agent's service with `queryItems` when `url` is
    /// `nil` and `queryItems` are not, with the agent's credentials for the upgrade.
    init(url: URL?, options: XRPCEventStreamOptions, agent: (any XRPCAgent)?, queryItems: [URLQueryItem]?) {
        self.url = url
        self.options = options
        self.agent = agent
        self.queryItems = queryItems
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(state: EventStreamIteratorState(url: url, options: options, agent: agent, queryItems: queryItems))
    }

    /// Reads messages from one connection, reconnecting as the policy allows.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let state: EventStreamIteratorState<Endpoint>

        public mutating func next() async throws(XRPCEventStreamError) -> Endpoint.Message? {
            try await state.next()
        }

        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(XRPCEventStreamError) -> Endpoint.Message? {
            try await state.next()
        }
    }
}

// @unchecked Sendable: only its iterator uses it, and AsyncIteratorProtocol allows one task at a time per iterator.
/// The mutable state of an ``XRPCEventStream`` iterator. An iterator is used by one task at a
/// time, as `AsyncIteratorProtocol` requires; that is what makes this unchecked `Sendable` sound.
final class EventStreamIteratorState<Endpoint: XRPCSubscription>: @unchecked Sendable {
    private var url: URL?
    private let options: XRPCEventStreamOptions
    private let agent: (any XRPCAgent)?
    private let queryItems: [URLQueryItem]?
    private var connection: (any XRPCWebSocketConnection)?
    private var lastSequence: Int?
    /// After a reconnection, the `seq` it resumed after: messages up to it are ones already
    /// delivered, which a server that reads `cursor` inclusively sends again.
    private var resumedAfter: Int?
    /// Connection attempts in a row that failed or delivered no message.
    private var failures = 0
    private var finished = false

    init(url: URL?, options: XRPCEventStreamOptions, agent: (any XRPCAgent)?, queryItems: [URLQueryItem]?) {
        self.url = url
        self.options = options
        self.agent = agent
        self.queryItems = queryItems
    }

    deinit { connection?.close(code: .normalClosure, reason: "") }

    private var nsid: NSID { Endpoint.nsid }

    func next() async throws(XRPCEventStreamError) -> Endpoint.Message? {
        while !finished {
            guard !Task.isCancelled else { return end() }
            guard let connection = try await currentConnection() else { return end() }
            let received: XRPCWebSocketMessage?
            do {
                received = try await connection.receive()
            } catch {
                if error is CancellationError || Task.isCancelled { return end() }
                try await connectionEnded(because: "\(error)")
                continue
            }
            guard let received else {
                try await connectionEnded(because: nil)
                continue
            }
            if let message = try await decode(received) { return message }
        }
        return nil
    }

    /// The message in `received`, `nil` for a frame to skip; throws for error and malformed frames.
    private func decode(_ received: XRPCWebSocketMessage) async throws(XRPCEventStreamError) -> Endpoint.Message? {
        if Endpoint.framing == .json { return try await decodeJSON(received) }
        guard case .binary(let data) = received else {
            throw fail(.malformedFrame, "a text WebSocket message; event-stream frames are binary")
        }
        let frame: XRPCEventFrame
        do {
            frame = try XRPCEventFrame(decoding: data)
        } catch {
            throw fail(.malformedFrame, "frame after seq \(lastSequence.map(String.init) ?? "none"): \(error)")
        }
        switch frame {
        case .unknown:
            return nil
        case .error(let name, let message):
            throw fail(.errorFrame, message ?? "", name: name)
        case .message(let type, let body):
            return try await deliver(type: type, sequence: frame.sequence, body: { body }) {
                // The body read with its `$type` beside it rather than copied to add it; one with a
                // `$type` of its own (which the frame's replaces) the general way.
                if body["$type"] != nil, let value = frame.messageDataModel(nsid: nsid) {
                    return try Endpoint.Message(dataModel: value)
                }
                return try LexiconJSONTokens.decode(
                    Endpoint.Message.self, fromMessageBody: body, type: XRPCEventFrame.messageType(type, nsid: nsid))
            }
        }
    }

    /// The message in a text frame of the `xrpc.v1.json` framing, `nil` for a frame to skip.
    private func decodeJSON(_ received: XRPCWebSocketMessage) async throws(XRPCEventStreamError) -> Endpoint.Message? {
        guard case .text(let text) = received else {
            throw fail(
                .malformedFrame,
                "a binary WebSocket message; xrpc.v1.json frames are text (compressed frames are not supported)")
        }
        let frame: XRPCJSONEventFrame
        do {
            frame = try XRPCJSONEventFrame(text: text)
        } catch {
            throw fail(.malformedFrame, "frame after seq \(lastSequence.map(String.init) ?? "none"): \(error)")
        }
        switch frame {
        case .unknown:
            return nil
        case .error(let name, let message):
            throw fail(.errorFrame, message ?? "", name: name)
        case .message(let type, let payload):
            guard let json = frame.messageJSON(nsid: nsid) else { return nil }
            return try await deliver(
                type: type, sequence: frame.sequence,
                body: { () throws(LexiconDecodingError) -> [String: AtprotoDataModelValue] in
                    var body = payload
                    body["$type"] = nil
                    guard case .map(let entries) = try AtprotoDataModelValue(json: .object(body)) else { return [:] }
                    return entries
                }, message: { try Endpoint.Message(lexiconJSON: json) })
        }
    }

    /// Skips a message already delivered before a reconnection, runs the frame check, and decodes
    /// the message; `body` is the message as DAG-CBOR, for the check, and `message` decodes it.
    private func deliver(
        type: String, sequence: Int?, body: () throws(LexiconDecodingError) -> [String: AtprotoDataModelValue],
        message decodeMessage: () throws -> Endpoint.Message
    ) async throws(XRPCEventStreamError) -> Endpoint.Message? {
        if let resumedAfter, let sequence {
            if sequence <= resumedAfter { return nil }
            self.resumedAfter = nil
        }
        let place = sequence.map { "seq \($0)" } ?? "a frame without seq"
        if let check = options.frameCheck {
            do {
                guard try await check.check(type: type, body: try body(), nsid: nsid) else {
                    if let sequence { lastSequence = sequence }
                    return nil
                }
            } catch {
                throw fail(.frameCheckFailed, "\(type) at \(place) failed its check: \(error)")
            }
        }
        do {
            let message = try decodeMessage()
            if let sequence { lastSequence = sequence }
            failures = 0
            return message
        } catch {
            throw fail(.malformedFrame, "a \(type) message at \(place) does not decode: \(error)")
        }
    }

    /// The open connection, or a new one (resuming after the last `seq`); `nil` when cancelled.
    private func currentConnection() async throws(XRPCEventStreamError) -> (any XRPCWebSocketConnection)? {
        if let connection { return connection }
        let url = try await streamURL()
        var rejection: XRPCEventStreamError?
        var sentHeaders: HTTPHeaderFields?
        while true {
            guard !Task.isCancelled else { return nil }
            let target = Self.url(url, resumingAfter: lastSequence)
            resumedAfter = lastSequence
            let headers = try await upgradeHeaders(for: target, rejection: rejection)
            if let rejection {
                // Asked again after an unauthorized refusal: the same credentials would be refused again.
                guard headers != sentHeaders else {
                    _ = end()
                    throw rejection
                }
            }
            sentHeaders = headers
            do {
                let opened = try await options.transport.connect(to: target, headers: headers)
                connection = opened
                return opened
            } catch {
                if error is CancellationError || Task.isCancelled { return nil }
                guard let socketError = error as? XRPCWebSocketError else {
                    try await retry(after: "cannot connect to \(target): \(error)")
                    continue
                }
                if socketError.code == .unsupportedURL { throw fail(.invalidService, socketError.message) }
                if socketError.code == .handshakeFailed, let status = socketError.status, status != 101 {
                    let refusal = rejected(socketError, status: status, ending: false)
                    if rejection == nil, agent != nil, refusal.isUnauthorized {
                        // Once per connection: the agent may renew its credentials.
                        rejection = refusal
                        continue
                    }
                    guard status >= 500 || status == 408 || status == 429 else {
                        _ = end()
                        throw refusal
                    }
                    rejection = nil
                    try await retry(after: refusal.description)
                    continue
                }
                try await retry(after: "cannot connect to \(target): \(socketError)")
            }
        }
    }

    /// The URL of the stream: the one given, or one on the agent's service.
    private func streamURL() async throws(XRPCEventStreamError) -> URL {
        if let url { return url }
        if let agent, let queryItems, let service = await agent.defaultServiceURL() {
            guard let made = XRPCClient.eventStreamURL(service: service, nsid: nsid, queryItems: queryItems) else {
                throw fail(.invalidService, "the agent's service \(service) is not an http(s) or ws(s) URL with a host")
            }
            url = made
            return made
        }
        throw fail(
            .invalidService,
            "no service to connect to: set XRPCClient.eventStreams.serviceURL, or use an agent that names "
                + "its service (XRPCAgent.defaultServiceURL())")
    }

    /// The upgrade request's header fields: the agent's for `target`, then the options' (which win).
    private func upgradeHeaders(
        for target: URL, rejection: XRPCEventStreamError?
    ) async throws(XRPCEventStreamError) -> HTTPHeaderFields {
        var own = options.headers
        if let subprotocol = Endpoint.framing.subprotocol { own["Sec-WebSocket-Protocol"] = subprotocol }
        guard let agent else { return own }
        var headers: HTTPHeaderFields
        do {
            headers = try await agent.eventStreamHeaders(for: target, rejection: rejection)
        } catch {
            let reason = "the agent gave no credentials for \(target): \(error)"
            guard let rejection else { throw fail(.connectionFailed, reason) }
            throw fail(
                .rejected, rejection.message + " (" + reason + ")", name: rejection.name, status: rejection.status)
        }
        headers.merge(own)
        return headers
    }

    /// Handles the end of the connection: reconnects if the policy allows, else ends the stream
    /// (normally after a clean close, with an error otherwise).
    private func connectionEnded(because reason: String?) async throws(XRPCEventStreamError) {
        connection?.close(code: .normalClosure, reason: "")
        connection = nil
        guard options.reconnectPolicy != nil else {
            guard let reason else {
                finished = true
                return
            }
            throw fail(.connectionFailed, "the connection ended: \(reason)")
        }
        try await retry(after: "the connection ended: \(reason ?? "closed by the server")")
    }

    /// Waits before the next connection attempt, or throws when the policy allows no more.
    private func retry(after reason: String) async throws(XRPCEventStreamError) {
        failures += 1
        guard let policy = options.reconnectPolicy, failures <= policy.maximumAttempts else {
            let attempts = options.reconnectPolicy.map { _ in " after \(failures) attempts in a row" } ?? ""
            throw fail(.connectionFailed, reason + attempts)
        }
        let delay = policy.delay(beforeAttempt: failures, random: Double.random(in: 0..<1))
        try? await Task.sleep(for: delay)
    }

    private func rejected(_ error: XRPCWebSocketError, status: Int, ending: Bool = true) -> XRPCEventStreamError {
        var name: String?
        var message = "the server refused the subscription"
        if let json = try? JSONValue.parse(error.body), case .object(let fields) = json {
            name = fields["error"]?.stringValue
            message = fields["message"]?.stringValue ?? message
        } else if !error.body.isEmpty {
            message += ": " + snippet(of: error.body)
        }
        return fail(.rejected, message, name: name, status: status, ending: ending)
    }

    private func fail(
        _ kind: XRPCEventStreamError.Code, _ message: String, name: String? = nil, status: Int? = nil,
        ending: Bool = true
    ) -> XRPCEventStreamError {
        if ending { _ = end() }
        return XRPCEventStreamError(
            kind, nsid: nsid, name: name, status: status, lastSequence: lastSequence, message: message)
    }

    private func end() -> Endpoint.Message? {
        finished = true
        connection?.close(code: .normalClosure, reason: "")
        connection = nil
        return nil
    }

    /// `url` with its `cursor` query item set to `sequence`, when there is one.
    static func url(_ url: URL, resumingAfter sequence: Int?) -> URL {
        guard let sequence, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "cursor" }
        items.append(URLQueryItem(name: "cursor", value: String(sequence)))
        components.queryItems = items
        return components.url ?? url
    }
}
