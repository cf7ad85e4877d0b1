import AtprotoLexicons
import Foundation

/// The events of a Tap `/channel`, as an `AsyncSequence`.
///
/// Nothing connects until iteration starts; each iterator opens its own connection and reads one
/// frame per event asked for (nothing is read ahead beyond the transport's bounded queue). A dropped
/// connection is opened again as the client's reconnect policy allows, and the acks kept meanwhile
/// are sent first; Tap sends again, once its retry timeout has passed, the events it saw no ack
/// for. The stream ends normally when the task is cancelled, or when Tap closes and there is no
/// reconnect policy; with ``TapError`` otherwise (a malformed frame, a refused connection, the
/// policy's attempts spent).
public struct TapEventStream: AsyncSequence, Sendable {
    /// Each element is one event.
    public typealias Element = TapEvent
    /// A stream ends with a ``TapError``.
    public typealias Failure = TapError

    let client: TapClient

    /// An iterator with a connection of its own, opened at its first `next()`.
    public func makeAsyncIterator() -> Iterator { Iterator(state: TapIteratorState(client: client)) }

    /// Reads events, reconnecting as the policy allows.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let state: TapIteratorState

        /// The next event; `nil` once the stream has ended.
        public mutating func next() async throws(TapError) -> TapEvent? { try await state.next() }

        /// The next event; `nil` once the stream has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(TapError) -> TapEvent? {
            try await state.next()
        }
    }
}

/// How reading from one connection ended, when it did not end cleanly.
enum TapConnectionEnd: Error {
    /// The connection failed: open another.
    case retry(String)
    /// The stream ends with this error.
    case fail(TapError)
}

// @unchecked Sendable: only its iterator uses it, and AsyncIteratorProtocol allows one task at a time per iterator.
/// The mutable state of a ``TapEventStream`` iterator: the current connection, the failures in a row.
final class TapIteratorState: @unchecked Sendable {
    private let client: TapClient
    private var connection: (any XRPCWebSocketConnection)?
    private var token = 0
    private var connections = 0
    private var frames = 0
    private var failures = 0
    private var finished = false

    init(client: TapClient) { self.client = client }

    deinit { drop() }

    func next() async throws(TapError) -> TapEvent? {
        while !finished {
            guard !Task.isCancelled else { return end() }
            do {
                return try await read()
            } catch {
                if Task.isCancelled { return end() }
                switch error {
                case .fail(let failure):
                    _ = end()
                    throw failure
                case .retry(let reason):
                    try await reconnect(after: reason)
                }
            }
        }
        return nil
    }

    /// The next event of the open connection (opened first if need be); `nil` when the stream ends.
    private func read() async throws(TapConnectionEnd) -> TapEvent? {
        let connection = try await open()
        let received: XRPCWebSocketMessage?
        do {
            received = try await connection.receive()
        } catch let error as XRPCWebSocketError {
            if error.code == .messageTooBig {
                throw .fail(
                    TapError(
                        .frameTooLarge, message: "frame \(frames + 1) of \(client.channelURL): \(error.message)",
                        underlying: error))
            }
            throw .retry("the connection ended: \(error)")
        } catch {
            throw .retry("the connection ended: \(error)")
        }
        guard let received else {
            guard client.reconnectPolicy != nil else { return end() }
            throw .retry("Tap closed the connection")
        }
        frames += 1
        let place = "frame \(frames) of connection \(connections) to \(client.channelURL)"
        guard case .text(let text) = received else {
            throw .fail(TapError(.malformedEvent, message: "\(place) is a binary message; Tap sends text"))
        }
        do {
            let event = try TapEvent.reading(text, recordTypes: client.recordTypes, place: place)
            failures = 0
            return event
        } catch {
            throw .fail(error)
        }
    }

    /// The open connection, or a new one with the acks kept sent first.
    private func open() async throws(TapConnectionEnd) -> any XRPCWebSocketConnection {
        if let connection { return connection }
        var fields = client.headers
        if let authorization = client.authorization { fields["Authorization"] = authorization }
        let url = client.channelURL
        let opened: any XRPCWebSocketConnection
        do {
            opened = try await client.webSocketTransport.connect(to: url, headers: fields)
        } catch let error as XRPCWebSocketError {
            if error.code == .unsupportedURL {
                throw .fail(TapError(.invalidService, message: error.message, underlying: error))
            }
            if error.code == .handshakeFailed, let status = error.status, status == 401 || status == 403 {
                throw .fail(
                    TapError(
                        .unauthorized, status: status, message: "\(url): \(Self.detail(error))", underlying: error))
            }
            if error.code == .handshakeFailed, let status = error.status, (400..<500).contains(status),
                status != 408, status != 429
            {
                throw .fail(
                    TapError(.rejected, status: status, message: "\(url): \(Self.detail(error))", underlying: error))
            }
            throw .retry("cannot connect to \(url): \(error)")
        } catch {
            throw .retry("cannot connect to \(url): \(error)")
        }
        connections += 1
        frames = 0
        connection = opened
        token = await client.acknowledgements.opened(opened)
        return opened
    }

    /// The `message` of a refused upgrade's JSON body, or its text.
    private static func detail(_ error: XRPCWebSocketError) -> String {
        if case .object(let fields)? = try? JSONValue.parse(error.body), case .string(let text)? = fields["message"] {
            return text
        }
        let body = String(decoding: error.body.prefix(500), as: UTF8.self)
        return body.isEmpty ? error.message : body
    }

    /// Drops the connection and waits before the next one, or throws when the policy allows no more.
    private func reconnect(after reason: String) async throws(TapError) {
        drop()
        failures += 1
        guard let policy = client.reconnectPolicy, failures <= policy.maximumAttempts else {
            _ = end()
            let attempts = client.reconnectPolicy.map { _ in " after \(failures) attempts in a row" } ?? ""
            throw TapError(.connectionFailed, message: reason + attempts)
        }
        let delay = policy.initialDelay * (1 << min(failures - 1, 16))
        try? await Task.sleep(for: min(delay, policy.maximumDelay))
    }

    private func drop() {
        guard let connection else { return }
        client.acknowledgements.closed(token)
        connection.close(code: .normalClosure, reason: "")
        self.connection = nil
    }

    private func end() -> TapEvent? {
        finished = true
        drop()
        return nil
    }
}
