import AtprotoSyntax
import Foundation

/// A whole WebSocket message: the payload of one data frame, or of a fragmented run of them.
public enum XRPCWebSocketMessage: Sendable, Hashable {
    /// A binary message (atproto event streams send only these).
    case binary(Data)
    /// A text message, valid UTF-8.
    case text(String)
}

/// A WebSocket close status code (RFC 6455 section 7.4).
public struct XRPCWebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code on the wire.
    public var rawValue: UInt16

    /// Wraps a code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = XRPCWebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a client leaving).
    public static let goingAway = XRPCWebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = XRPCWebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = XRPCWebSocketCloseCode(rawValue: 1003)
    /// 1007: a text message that is not valid UTF-8.
    public static let invalidPayload = XRPCWebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = XRPCWebSocketCloseCode(rawValue: 1008)
    /// 1009: a frame or message larger than the endpoint accepts.
    public static let messageTooBig = XRPCWebSocketCloseCode(rawValue: 1009)
    /// 1011: the server met an unexpected condition.
    public static let internalError = XRPCWebSocketCloseCode(rawValue: 1011)
}

/// An open WebSocket connection, as an ``XRPCWebSocketTransport`` made it.
///
/// One task receives at a time. Cancelling the receiving task makes ``receive()`` throw
/// `CancellationError`; the connection stays usable until ``close(code:reason:)``.
public protocol XRPCWebSocketConnection: AnyObject, Sendable {
    /// The next message, or `nil` once the server has closed the connection with a close frame
    /// carrying code 1000 or no code.
    ///
    /// Pings are answered by the connection itself and never returned.
    ///
    /// - Throws: ``XRPCWebSocketError`` when the connection broke, the server broke the protocol, or
    ///   the server closed with another code (``XRPCWebSocketError/Code/closedByPeer``), or
    ///   ``close(code:reason:)`` was called on this side (``XRPCWebSocketError/Code/closed``);
    ///   `CancellationError` when the calling task was cancelled.
    func receive() async throws -> XRPCWebSocketMessage?

    /// Sends a message.
    func send(_ message: XRPCWebSocketMessage) async throws

    /// Starts the closing handshake and releases the connection; never blocks for long and may be
    /// called more than once. A receive in progress ends.
    func close(code: XRPCWebSocketCloseCode, reason: String)
}

/// Opens WebSocket connections: the seam between event streams and the network, so that tests and
/// apps can supply their own (a TLS client on Linux, a test double).
public protocol XRPCWebSocketTransport: Sendable {
    /// Opens a connection to `url` (`ws://` or `wss://`) with the opening handshake, sending
    /// `headers` with the upgrade request.
    ///
    /// - Throws: ``XRPCWebSocketError``: ``XRPCWebSocketError/Code/handshakeFailed`` with the status and
    ///   body when the server answered without upgrading (an XRPC error body, for example),
    ///   ``XRPCWebSocketError/Code/cannotConnect`` when no connection was made,
    ///   ``XRPCWebSocketError/Code/unsupportedURL`` for a scheme the transport cannot open.
    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection
}

/// A WebSocket failure: what went wrong and, where known, the close code or HTTP answer.
public struct XRPCWebSocketError: AtprotoError, Hashable {
    /// What went wrong, for code to act on. An open set: match with `==`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The URL's scheme or form is not one the transport can open.
        public static let unsupportedURL: Code = "unsupportedURL"
        /// No connection was made: unknown host, refused, unreachable.
        public static let cannotConnect: Code = "cannotConnect"
        /// The connection or the handshake took longer than allowed.
        public static let timedOut: Code = "timedOut"
        /// The server answered the upgrade request without switching protocols, or with a wrong
        /// `Sec-WebSocket-Accept`; ``XRPCWebSocketError/status`` and ``XRPCWebSocketError/body`` hold its answer.
        public static let handshakeFailed: Code = "handshakeFailed"
        /// The server broke RFC 6455 (a masked frame, reserved bits, a bad opcode, a bad fragment).
        public static let protocolViolation: Code = "protocolViolation"
        /// A frame or message larger than the connection accepts.
        public static let messageTooBig: Code = "messageTooBig"
        /// A text message that is not valid UTF-8.
        public static let invalidUTF8: Code = "invalidUTF8"
        /// The server closed with a code other than 1000; ``XRPCWebSocketError/closeCode`` holds it.
        public static let closedByPeer: Code = "closedByPeer"
        /// The connection ended without a closing handshake.
        public static let connectionLost: Code = "connectionLost"
        /// The connection was closed on this side before the operation.
        public static let closed: Code = "closed"
        /// Anything else the transport reports.
        public static let other: Code = "other"
    }

    /// What went wrong.
    public var code: Code
    /// Details for people to read: where, and what the system said.
    public var message: String
    /// The close code the server sent, for ``Code/closedByPeer``.
    public var closeCode: XRPCWebSocketCloseCode?
    /// The HTTP status of a failed handshake.
    public var status: Int?
    /// The body of a failed handshake's response (cut to 64 KiB).
    public var body: Data

    /// Creates an error.
    public init(
        _ code: Code, closeCode: XRPCWebSocketCloseCode? = nil, status: Int? = nil, body: Data = Data(), message: String
    ) {
        self.code = code
        self.message = message
        self.closeCode = closeCode
        self.status = status
        self.body = body
    }

    public var description: String {
        var text = "WebSocket \(code): \(message)"
        if let closeCode { text += " (close code \(closeCode))" }
        if let status { text += " (HTTP status \(status))" }
        return text
    }
}
