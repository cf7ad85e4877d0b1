import Foundation

/// One WebSocket frame (RFC 6455 section 5.2), as read from a server or to send.
struct WebSocketFrame: Sendable, Hashable {
    /// The frame's opcode.
    enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Whether this is a control frame (close, ping, pong).
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// Whether this is the last frame of its message.
    var fin: Bool
    var opcode: Opcode
    /// The payload, unmasked.
    var payload: [UInt8]

    /// The frame's bytes: masked with `maskKey` (a client must mask every frame), unmasked when it
    /// is `nil` (a server).
    func encoded(maskKey: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)]
        } else {
            bytes.append(maskBit | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        guard let maskKey, maskKey.count == 4 else { return bytes + payload }
        bytes += maskKey
        bytes.reserveCapacity(bytes.count + payload.count)
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ maskKey[index & 3]) }
        return bytes
    }

    /// A close frame's payload: the code, big-endian, then the reason in UTF-8 (cut to fit 125 bytes).
    static func closePayload(code: XRPCWebSocketCloseCode, reason: String) -> [UInt8] {
        var reasonBytes = Array(reason.utf8.prefix(123))
        while !reasonBytes.isEmpty, checkedUTF8(reasonBytes) == nil {
            reasonBytes.removeLast()
        }
        return [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)] + reasonBytes
    }
}

/// Reads frames from the bytes a server sends, enforcing RFC 6455 for a client: unmasked frames,
/// no reserved bits (no extension is negotiated), known opcodes, control frames unfragmented and
/// at most 125 bytes, and a frame no larger than ``maximumFrameSize``.
struct WebSocketFrameParser {
    /// The largest payload accepted in one frame.
    let maximumFrameSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(maximumFrameSize: Int) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` when more bytes are needed.
    mutating func next() throws(XRPCWebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x70 == 0 else {
            throw XRPCWebSocketError(
                .protocolViolation, message: "frame has reserved bits set (\(hex(first))); no extension was negotiated")
        }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw XRPCWebSocketError(.protocolViolation, message: "frame has the reserved opcode \(first & 0x0F)")
        }
        guard second & 0x80 == 0 else {
            throw XRPCWebSocketError(
                .protocolViolation, message: "the server sent a masked frame; servers must not mask")
        }
        let fin = first & 0x80 != 0
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            headerLength = 4
            guard available >= headerLength else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
        } else if length == 127 {
            headerLength = 10
            guard available >= headerLength else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(buffer[start + index]) }
            guard length >> 63 == 0 else {
                throw XRPCWebSocketError(.protocolViolation, message: "frame length has its most significant bit set")
            }
        }
        if opcode.isControl {
            guard fin else {
                throw XRPCWebSocketError(.protocolViolation, message: "control frame \(opcode) is fragmented")
            }
            guard length <= 125 else {
                throw XRPCWebSocketError(
                    .protocolViolation, message: "control frame \(opcode) has \(length) bytes (at most 125)")
            }
        }
        guard length <= UInt64(maximumFrameSize) else {
            throw XRPCWebSocketError(
                .messageTooBig, message: "frame of \(length) bytes is larger than \(maximumFrameSize)")
        }
        let total = headerLength + Int(length)
        guard available >= total else { return nil }
        let payload = Array(buffer[(start + headerLength)..<(start + total)])
        start += total
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }

    private func hex(_ byte: UInt8) -> String { "0x" + String(byte, radix: 16) }
}

/// Joins data frames into messages: a text or binary frame, then continuation frames up to one
/// with FIN. Control frames never reach it.
struct WebSocketMessageAssembler {
    /// The largest message accepted, all fragments together.
    let maximumMessageSize: Int
    private var opcode: WebSocketFrame.Opcode?
    private var parts: [UInt8] = []

    init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Adds a data frame; returns the message it completes, if any.
    mutating func add(_ frame: WebSocketFrame) throws(XRPCWebSocketError) -> XRPCWebSocketMessage? {
        switch frame.opcode {
        case .continuation:
            guard opcode != nil else {
                throw XRPCWebSocketError(
                    .protocolViolation, message: "continuation frame without a message to continue")
            }
        case .text, .binary:
            guard opcode == nil else {
                throw XRPCWebSocketError(
                    .protocolViolation, message: "new \(frame.opcode) frame while a fragmented message is open")
            }
            opcode = frame.opcode
        default:
            throw XRPCWebSocketError(.protocolViolation, message: "control frame \(frame.opcode) given as data")
        }
        guard parts.count + frame.payload.count <= maximumMessageSize else {
            throw XRPCWebSocketError(
                .messageTooBig,
                message: "message of more than \(maximumMessageSize) bytes (\(parts.count + frame.payload.count))")
        }
        if parts.isEmpty, frame.fin {
            return try finish(frame.payload)
        }
        parts += frame.payload
        guard frame.fin else { return nil }
        let payload = parts
        parts = []
        return try finish(payload)
    }

    private mutating func finish(_ payload: [UInt8]) throws(XRPCWebSocketError) -> XRPCWebSocketMessage {
        defer { opcode = nil }
        guard opcode == .text else { return .binary(Data(payload)) }
        guard let text = checkedUTF8(payload) else {
            throw XRPCWebSocketError(.invalidUTF8, message: "text message of \(payload.count) bytes is not valid UTF-8")
        }
        return .text(text)
    }
}

/// The string of `bytes`, or `nil` when they are not valid UTF-8: decoding replaces invalid
/// sequences with U+FFFD, so invalid input comes out different.
private func checkedUTF8(_ bytes: [UInt8]) -> String? {
    let string = String(decoding: bytes, as: UTF8.self)
    return string.utf8.elementsEqual(bytes) ? string : nil
}
