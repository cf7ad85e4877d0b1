import AtprotoLexicons
import Foundation

/// Why a call to Tap failed or a ``TapEventStream`` ended.
public struct TapError: AtprotoError {
    /// What went wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The service URL is not an http(s) or ws(s) URL with a host.
        public static let invalidService: Code = "invalidService"
        /// Tap refused the admin password, or wanted one and got none (HTTP 401).
        public static let unauthorized: Code = "unauthorized"
        /// Tap answered a request or the `/channel` upgrade with another error status
        /// (``TapError/status``).
        public static let rejected: Code = "rejected"
        /// A frame that is not a Tap event: not JSON, not an object, a field missing, of the wrong
        /// kind or of invalid syntax (``TapError/field`` names it, ``TapError/eventID`` says which
        /// event when the frame had an id). The connection is dropped; the stream ends.
        public static let malformedEvent: Code = "malformedEvent"
        /// A frame larger than the WebSocket transport accepts (its `maximumMessageSize`).
        public static let frameTooLarge: Code = "frameTooLarge"
        /// No connection could be made or kept, after the reconnect policy's attempts; or an HTTP
        /// request got no answer.
        public static let connectionFailed: Code = "connectionFailed"
    }

    /// What went wrong.
    public var code: Code
    /// The id of the event whose frame was malformed, when it had a readable one: acknowledge it with
    /// ``TapClient/ack(id:)`` to have Tap drop it.
    public var eventID: Int?
    /// The field at fault in a malformed frame, as a path (`record.collection`, `identity.did`).
    public var field: String?
    /// The HTTP status of a refused request or upgrade.
    public var status: Int?
    /// What went wrong and where, for people to read. Never the admin password.
    public var message: String
    /// The error that caused this one (an `XRPCWebSocketError`, an `HTTPTransportError`, a
    /// `JSONParseError`), when there is one.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, eventID: Int? = nil, field: String? = nil, status: Int? = nil, message: String,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.eventID = eventID
        self.field = field
        self.status = status
        self.message = message
        self.underlying = underlying
    }

    /// The code, the event, field and status when known, and the message.
    public var description: String {
        var text = "Tap \(code)"
        if let eventID { text += " (event \(eventID))" }
        if let field { text += " (\(field))" }
        if let status { text += " (HTTP status \(status))" }
        return text + ": " + message
    }
}
