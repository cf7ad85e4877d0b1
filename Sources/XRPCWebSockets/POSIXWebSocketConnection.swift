import Foundation

/// A connection made by ``POSIXWebSocketTransport``. Dropping it closes it.
final class POSIXWebSocketConnection: XRPCWebSocketConnection {
    let core: Core

    init(core: Core) {
        self.core = core
    }

    deinit { core.close(code: .goingAway, reason: "") }

    func receive() async throws -> XRPCWebSocketMessage? { try await core.receive() }

    func send(_ message: XRPCWebSocketMessage) async throws {
        switch message {
        case .binary(let data): try core.send(WebSocketFrame(fin: true, opcode: .binary, payload: Array(data)))
        case .text(let text): try core.send(WebSocketFrame(fin: true, opcode: .text, payload: Array(text.utf8)))
        }
    }

    func close(code: XRPCWebSocketCloseCode, reason: String) { core.close(code: code, reason: reason) }

    // @unchecked Sendable: `closeDeadline` is under `deadlineLock`, `sentClose` and `socketOpen` under `writeLock`.
    /// The state of a connection, shared by its reader thread and its users. `inbox` holds what was
    /// received; `deadlineLock` guards `closeDeadline`; `writeLock` orders writes to the socket and
    /// its release.
    final class Core: @unchecked Sendable {
        private let descriptor: Int32
        private let options: POSIXWebSocketTransport
        private let inbox: XRPCWebSocketInbox
        private let deadlineLock = NSLock()
        private let writeLock = NSLock()
        /// When a close was asked for on this side, the time by which the server must answer.
        private var closeDeadline: ContinuousClock.Instant?
        /// Guarded by `writeLock`.
        private var sentClose = false
        private var socketOpen = true

        init(descriptor: Int32, leftover: [UInt8], options: POSIXWebSocketTransport) {
            self.descriptor = descriptor
            self.options = options
            self.inbox = XRPCWebSocketInbox(capacity: options.maximumQueuedMessages)
            let thread = Thread { [self] in readLoop(leftover) }
            thread.name = "WebSocket reader"
            thread.start()
        }

        // MARK: Users

        func receive() async throws -> XRPCWebSocketMessage? { try await inbox.receive() }

        func send(_ frame: WebSocketFrame) throws {
            var generator = SystemRandomNumberGenerator()
            let mask = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try writeLock.withLock {
                guard socketOpen, !sentClose else {
                    throw XRPCWebSocketError(.closed, message: "cannot send: the connection is closed")
                }
                if frame.opcode == .close { sentClose = true }
                guard POSIXSocket.writeAll(descriptor, frame.encoded(maskKey: mask)) else {
                    throw XRPCWebSocketError(
                        .connectionLost, message: "sending a \(frame.opcode) frame failed: \(POSIXSocket.errorText())")
                }
            }
        }

        func close(code: XRPCWebSocketCloseCode, reason: String) {
            guard inbox.closeLocally() else { return }
            deadlineLock.withLock { closeDeadline = ContinuousClock.now + options.closeTimeout }
            sendClose(code, reason)
        }

        private func sendClose(_ code: XRPCWebSocketCloseCode, _ reason: String) {
            let frame = WebSocketFrame(
                fin: true, opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: reason))
            try? send(frame)
        }

        // MARK: The reader thread

        private func readLoop(_ leftover: [UInt8]) {
            var parser = WebSocketFrameParser(maximumFrameSize: options.maximumFrameSize)
            var assembler = WebSocketMessageAssembler(maximumMessageSize: options.maximumMessageSize)
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            parser.append(leftover)
            let outcome: Result<XRPCWebSocketMessage?, XRPCWebSocketError>
            reading: while true {
                do {
                    while let frame = try parser.next() {
                        if frame.opcode.isControl {
                            if let end = try control(frame) {
                                outcome = end
                                break reading
                            }
                        } else if let message = try assembler.add(frame) {
                            inbox.deliver(message)
                        }
                    }
                } catch {
                    let code: XRPCWebSocketCloseCode =
                        error.code == .messageTooBig
                        ? .messageTooBig : error.code == .invalidUTF8 ? .invalidPayload : .protocolError
                    sendClose(code, "")
                    outcome = .failure(error)
                    break reading
                }
                let closeOverdue = { [self] in deadlineLock.withLock { closeDeadline.map { .now >= $0 } ?? false } }
                switch POSIXSocket.waitFor(descriptor, for: Int16(POLLIN), until: nil, shouldStop: closeOverdue) {
                case .ready: break
                case .timedOut, .stopped:
                    outcome = .failure(
                        XRPCWebSocketError(.closed, message: "the server did not answer the close frame in time"))
                    break reading
                }
                let count = POSIXSocket.readSome(descriptor, into: &chunk)
                if count <= 0 {
                    let detail = count == 0 ? "the server closed the TCP connection" : POSIXSocket.errorText()
                    outcome = .failure(
                        XRPCWebSocketError(.connectionLost, message: "\(detail) without a closing handshake"))
                    break reading
                }
                parser.append(chunk[0..<count])
            }
            writeLock.withLock {
                socketOpen = false
                POSIXSocket.shutdownBoth(descriptor)
                POSIXSocket.closeDescriptor(descriptor)
            }
            inbox.finish(outcome)
        }

        /// Handles a control frame; returns how the connection ends when it is a close frame.
        private func control(_ frame: WebSocketFrame) throws(XRPCWebSocketError) -> Result<
            XRPCWebSocketMessage?, XRPCWebSocketError
        >? {
            switch frame.opcode {
            case .ping:
                try? send(WebSocketFrame(fin: true, opcode: .pong, payload: frame.payload))
                return nil
            case .close:
                let payload = frame.payload
                guard payload.count != 1 else {
                    throw XRPCWebSocketError(.protocolViolation, message: "close frame with a one-byte payload")
                }
                guard payload.count >= 2 else {
                    sendClose(.normalClosure, "")
                    return .success(nil)
                }
                let code = XRPCWebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
                let reason = String(decoding: payload[2...], as: UTF8.self)
                sendClose(code, "")
                guard code != .normalClosure else { return .success(nil) }
                let because = reason.isEmpty ? "" : ": \(reason)"
                return .failure(
                    XRPCWebSocketError(
                        .closedByPeer, closeCode: code, message: "the server closed the connection\(because)"))
            default:
                return nil  // a pong
            }
        }
    }
}
