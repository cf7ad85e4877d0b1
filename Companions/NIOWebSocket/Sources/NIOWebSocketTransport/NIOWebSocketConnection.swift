import Foundation
import NIOCore
import NIOWebSocket
import XRPCRuntime

/// A connection made by ``NIOWebSocketTransport``: the event loop queues whole messages, which
/// ``receive()`` hands out in order. Dropping it closes it.
final class NIOWebSocketConnection: WebSocketConnection, @unchecked Sendable {
    private let lock = NSLock()
    private var channel: (any Channel)?
    private var queue: [WebSocketMessage] = []
    private var queueHead = 0
    private var ending: Result<WebSocketMessage?, WebSocketError>?
    private var waiter: CheckedContinuation<WebSocketMessage?, any Error>?
    private var closedHere = false

    deinit { close(code: .goingAway, reason: "") }

    func attach(_ channel: any Channel) { lock.withLock { self.channel = channel } }

    func receive() async throws -> WebSocketMessage? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if closedHere {
                    lock.unlock()
                    continuation.resume(throwing: WebSocketError(.closed, "the connection was closed on this side"))
                } else if queueHead < queue.count {
                    let message = queue[queueHead]
                    queueHead += 1
                    if queueHead == queue.count {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    lock.unlock()
                    continuation.resume(returning: message)
                } else if let ending {
                    lock.unlock()
                    continuation.resume(with: ending.mapError { $0 as any Error })
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if waiter != nil {
                    lock.unlock()
                    continuation.resume(throwing: WebSocketError(.other, "another task is already receiving"))
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            let pending: CheckedContinuation<WebSocketMessage?, any Error>? = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            pending?.resume(throwing: CancellationError())
        }
    }

    func send(_ message: WebSocketMessage) async throws {
        guard let channel = lock.withLock({ closedHere ? nil : channel }) else {
            throw WebSocketError(.closed, "cannot send: the connection is closed")
        }
        let frame: WebSocketFrame
        switch message {
        case .binary(let data):
            frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: data))
        case .text(let text):
            frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        }
        try await channel.writeAndFlush(frame)
    }

    func close(code: WebSocketCloseCode, reason: String) {
        let (channel, pending): ((any Channel)?, CheckedContinuation<WebSocketMessage?, any Error>?) = lock.withLock {
            guard !closedHere else { return (nil, nil) }
            closedHere = true
            defer { waiter = nil }
            return (self.channel, waiter)
        }
        pending?.resume(throwing: WebSocketError(.closed, "the connection was closed on this side"))
        guard let channel else { return }
        var payload = ByteBuffer()
        payload.writeInteger(code.rawValue)
        payload.writeString(String(reason.utf8.prefix(120)) ?? "")
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Called on the event loop with each whole message.
    func deliver(_ message: WebSocketMessage) {
        lock.lock()
        guard !closedHere, ending == nil else { return lock.unlock() }
        if let pending = waiter {
            waiter = nil
            lock.unlock()
            pending.resume(returning: message)
            return
        }
        queue.append(message)
        lock.unlock()
    }

    /// Called on the event loop when the connection ends.
    func finish(_ outcome: Result<WebSocketMessage?, WebSocketError>) {
        lock.lock()
        guard ending == nil else { return lock.unlock() }
        ending = outcome
        let pending = queueHead < queue.count ? nil : waiter
        if pending != nil { waiter = nil }
        lock.unlock()
        pending?.resume(with: outcome.mapError { $0 as any Error })
    }
}

/// Turns aggregated frames into messages, answers pings, and ends the connection on a close frame.
final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: NIOWebSocketConnection
    private var sentClose = false

    init(connection: NIOWebSocketConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .binary:
            connection.deliver(.binary(Data(frame.unmaskedData.readableBytesView)))
        case .text:
            guard let text = String(bytes: frame.unmaskedData.readableBytesView, encoding: .utf8) else {
                connection.finish(.failure(WebSocketError(.invalidUTF8, "a text message is not valid UTF-8")))
                return close(context, code: .invalidPayload)
            }
            connection.deliver(.text(text))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var payload = frame.unmaskedData
            let code = payload.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:))
            let reason = payload.readString(length: payload.readableBytes) ?? ""
            if code == nil || code == .normalClosure {
                connection.finish(.success(nil))
            } else {
                connection.finish(
                    .failure(
                        WebSocketError(
                            .closedByPeer, "the server closed the connection\(reason.isEmpty ? "" : ": " + reason)",
                            closeCode: code)))
            }
            close(context, code: code ?? .normalClosure)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let kind: WebSocketError.Kind = error is NIOWebSocketError ? .protocolViolation : .connectionLost
        connection.finish(.failure(WebSocketError(kind, "\(error)")))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.finish(.failure(WebSocketError(.connectionLost, "the connection ended without a closing handshake")))
        context.fireChannelInactive()
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketCloseCode) {
        guard !sentClose else { return }
        sentClose = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.writeInteger(code.rawValue)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }
}
