#if NIOWebSocketTransport
    import Foundation
    import NIOCore
    import NIOWebSocket
    import XRPCRuntime

    // @unchecked Sendable: `channel` is read and written under `lock`; `inbox` is a Sendable `let`.
    /// A connection made by ``NIOWebSocketTransport``: the event loop queues whole messages in a
    /// ``XRPCWebSocketInbox``, which ``receive()`` hands out in order. Dropping it closes it.
    final class NIOWebSocketConnection: XRPCWebSocketConnection, @unchecked Sendable {
        private let lock = NSLock()
        private var channel: (any Channel)?
        private let inbox = XRPCWebSocketInbox()

        deinit { close(code: .goingAway, reason: "") }

        func attach(_ channel: any Channel) { lock.withLock { self.channel = channel } }

        func receive() async throws -> XRPCWebSocketMessage? { try await inbox.receive() }

        func send(_ message: XRPCWebSocketMessage) async throws {
            guard !inbox.isClosedLocally, let channel = lock.withLock({ channel }) else {
                throw XRPCWebSocketError(.closed, message: "cannot send: the connection is closed")
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

        func close(code: XRPCWebSocketCloseCode, reason: String) {
            guard inbox.closeLocally(), let channel = lock.withLock({ channel }) else { return }
            var payload = ByteBuffer()
            payload.writeInteger(code.rawValue)
            payload.writeString(String(reason.utf8.prefix(120)) ?? "")
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
            channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
        }

        /// Called on the event loop with each whole message.
        func deliver(_ message: XRPCWebSocketMessage) { inbox.deliver(message) }

        /// Called on the event loop when the connection ends.
        func finish(_ outcome: Result<XRPCWebSocketMessage?, XRPCWebSocketError>) { inbox.finish(outcome) }
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
                    connection.finish(
                        .failure(XRPCWebSocketError(.invalidUTF8, message: "a text message is not valid UTF-8")))
                    return close(context, code: .invalidPayload)
                }
                connection.deliver(.text(text))
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            case .connectionClose:
                var payload = frame.unmaskedData
                let code = payload.readInteger(as: UInt16.self).map(XRPCWebSocketCloseCode.init(rawValue:))
                let reason = payload.readString(length: payload.readableBytes) ?? ""
                if code == nil || code == .normalClosure {
                    connection.finish(.success(nil))
                } else {
                    connection.finish(
                        .failure(
                            XRPCWebSocketError(
                                .closedByPeer, closeCode: code,
                                message: "the server closed the connection\(reason.isEmpty ? "" : ": " + reason)")))
                }
                close(context, code: code ?? .normalClosure)
            default:
                break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let code: XRPCWebSocketError.Code = error is NIOWebSocketError ? .protocolViolation : .connectionLost
            connection.finish(.failure(XRPCWebSocketError(code, message: "\(error)")))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            connection.finish(
                .failure(
                    XRPCWebSocketError(.connectionLost, message: "the connection ended without a closing handshake")))
            context.fireChannelInactive()
        }

        private func close(_ context: ChannelHandlerContext, code: XRPCWebSocketCloseCode) {
            guard !sentClose else { return }
            sentClose = true
            var payload = context.channel.allocator.buffer(capacity: 2)
            payload.writeInteger(code.rawValue)
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
#endif  // NIOWebSocketTransport
