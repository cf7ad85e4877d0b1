import Foundation

/// A small RFC 6455 WebSocket client of this package over POSIX sockets, for `ws://` URLs on Linux
/// and Apple platforms (no TLS: `wss://` is refused with ``XRPCWebSocketError/Code/unsupportedURL``).
///
/// Each connection has a thread of its own that reads frames, answers pings, joins fragments and
/// queues whole messages; when ``maximumQueuedMessages`` are waiting it stops reading, so a slow
/// consumer slows the server down instead of filling memory.
///
/// ```swift
/// let connection = try await POSIXWebSocketTransport().connect(to: url, headers: [:])
/// while let message = try await connection.receive() { ... }
/// ```
public struct POSIXWebSocketTransport: XRPCWebSocketTransport {
    /// The largest frame accepted; a larger one fails the connection with close code 1009.
    public var maximumFrameSize: Int
    /// The largest message accepted, all fragments together.
    public var maximumMessageSize: Int
    /// How many received messages may wait for ``XRPCWebSocketConnection/receive()`` before reading pauses.
    public var maximumQueuedMessages: Int
    /// How long the TCP connection and the opening handshake may take together.
    public var connectTimeout: Duration
    /// How long ``XRPCWebSocketConnection/close(code:reason:)`` waits for the server's close frame
    /// before dropping the connection.
    public var closeTimeout: Duration

    /// Creates a transport.
    public init(
        maximumFrameSize: Int = 16 << 20,
        maximumMessageSize: Int = 16 << 20,
        maximumQueuedMessages: Int = 256,
        connectTimeout: Duration = .seconds(30),
        closeTimeout: Duration = .seconds(2)
    ) {
        self.maximumFrameSize = maximumFrameSize
        self.maximumMessageSize = maximumMessageSize
        self.maximumQueuedMessages = max(1, maximumQueuedMessages)
        self.connectTimeout = connectTimeout
        self.closeTimeout = closeTimeout
    }

    public func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        let target = try XRPCWebSocketTarget(url)
        guard !target.secure else {
            throw XRPCWebSocketError(
                .unsupportedURL,
                message:
                    "\(url): POSIXWebSocketTransport has no TLS; use URLSessionWebSocketTransport or a TLS transport")
        }
        let attempt = ConnectAttempt()
        let options = self
        // The connect thread hands its result over through `attempt`'s lock, not as the continuation's
        // value: the resume alone orders the two for Swift, but ThreadSanitizer does not see that order
        // from a Foundation thread, and reported the new connection's fields (written on the connect
        // thread) as raced by the task that read them.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    attempt.finish(
                        Result { () throws(XRPCWebSocketError) in
                            try Self.open(target, headers: headers, options: options, attempt: attempt)
                        }.mapError { $0 as any Error })
                    continuation.resume()
                }
                thread.name = "WebSocket connect \(target.hostHeader)"
                thread.start()
            }
        } onCancel: {
            attempt.cancel()
        }
        let result = attempt.result()
        if Task.isCancelled {
            if case .success(let core) = result { core.close(code: .goingAway, reason: "") }
            throw CancellationError()
        }
        return POSIXWebSocketConnection(core: try result.get())
    }

    /// Connects and shakes hands on the calling thread (blocking).
    private static func open(
        _ target: XRPCWebSocketTarget, headers: HTTPHeaderFields, options: POSIXWebSocketTransport,
        attempt: ConnectAttempt
    ) throws(XRPCWebSocketError) -> POSIXWebSocketConnection.Core {
        let deadline = ContinuousClock.now + options.connectTimeout
        let descriptor = try POSIXSocket.open(
            host: target.host, port: target.port, deadline: deadline, shouldStop: attempt.isCancelled)
        do throws(XRPCWebSocketError) {
            let key = WebSocketHandshake.makeKey()
            guard POSIXSocket.writeAll(descriptor, WebSocketHandshake.request(for: target, key: key, headers: headers))
            else {
                throw XRPCWebSocketError(
                    .connectionLost, message: "sending the upgrade request failed: \(POSIXSocket.errorText())")
            }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                if let response = try WebSocketHandshake.parseResponse(received) {
                    let rest = Array(received[response.headerLength...])
                    if response.status != 101 {
                        let body = readBody(descriptor, response, rest, &chunk, deadline, attempt)
                        try WebSocketHandshake.validate(response, key: key, body: body)
                    }
                    try WebSocketHandshake.validate(response, key: key, body: Data(), headers: headers)
                    return POSIXWebSocketConnection.Core(descriptor: descriptor, leftover: rest, options: options)
                }
                try waitReadable(descriptor, deadline, attempt, "waiting for the upgrade response")
                let count = POSIXSocket.readSome(descriptor, into: &chunk)
                guard count > 0 else {
                    throw XRPCWebSocketError(
                        .connectionLost,
                        message: "the server closed the connection before answering the upgrade request")
                }
                received += chunk[0..<count]
            }
        } catch {
            POSIXSocket.closeDescriptor(descriptor)
            throw error
        }
    }

    private static func waitReadable(
        _ descriptor: Int32, _ deadline: ContinuousClock.Instant, _ attempt: ConnectAttempt, _ doing: String
    ) throws(XRPCWebSocketError) {
        switch POSIXSocket.waitFor(descriptor, for: Int16(POLLIN), until: deadline, shouldStop: attempt.isCancelled) {
        case .ready: return
        case .timedOut: throw XRPCWebSocketError(.timedOut, message: "timed out \(doing)")
        case .stopped: throw XRPCWebSocketError(.closed, message: "cancelled while \(doing)")
        }
    }

    /// The body of a refused upgrade, by its `Content-Length` (at most 64 KiB), as far as it arrives.
    private static func readBody(
        _ descriptor: Int32, _ response: WebSocketHandshake.Response, _ start: [UInt8], _ chunk: inout [UInt8],
        _ deadline: ContinuousClock.Instant, _ attempt: ConnectAttempt
    ) -> Data {
        let limit = 64 * 1024
        let declared = response.headers["content-length"].flatMap { Int($0) } ?? limit
        let wanted = min(declared, limit)
        var body = start
        while body.count < wanted {
            guard (try? waitReadable(descriptor, deadline, attempt, "reading the error body")) != nil else { break }
            let count = POSIXSocket.readSome(descriptor, into: &chunk)
            guard count > 0 else { break }
            body += chunk[0..<count]
        }
        return Data(body.prefix(wanted))
    }
}

// @unchecked Sendable: `cancelled` and `outcome` are read and written under `lock`.
/// A connection attempt that a cancelled task abandons, and the connect thread's result.
private final class ConnectAttempt: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var outcome: Result<POSIXWebSocketConnection.Core, any Error>?

    func cancel() { lock.withLock { cancelled = true } }

    func isCancelled() -> Bool { lock.withLock { cancelled } }

    /// Called once by the connect thread, before it resumes the waiting task.
    func finish(_ outcome: Result<POSIXWebSocketConnection.Core, any Error>) {
        lock.withLock { self.outcome = outcome }
    }

    /// The connect thread's result; called after it resumed the waiting task.
    func result() -> Result<POSIXWebSocketConnection.Core, any Error> {
        lock.withLock {
            outcome
                ?? .failure(XRPCWebSocketError(.connectionLost, message: "the connect thread ended without a result"))
        }
    }
}
