import AtprotoData
import Foundation

/// How a subscription's frames are written on the wire: the DAG-CBOR frames of the event-stream
/// spec, or the JSON frames of the `xrpc.v1.json` WebSocket subprotocol (atproto proposal 0015).
///
/// A lexicon chooses it with its subscription's `"subprotocol"`; generated code sets
/// ``XRPCSubscription/framing`` from it.
public struct XRPCEventFraming: Sendable, Hashable, CustomStringConvertible {
    /// The WebSocket subprotocol the client offers in `Sec-WebSocket-Protocol`; `nil` offers none.
    public let subprotocol: String?

    private init(subprotocol: String?) { self.subprotocol = subprotocol }

    /// Binary messages, each a DAG-CBOR header `{op, t}` and a DAG-CBOR body (``XRPCEventFrame``).
    public static let dagCBOR = XRPCEventFraming(subprotocol: nil)
    /// Text messages, each one JSON object: `{"$type":"message","payload":{...}}` or
    /// `{"$type":"error","error":...,"message":...}` (``XRPCJSONEventFrame``), under the
    /// `xrpc.v1.json` subprotocol.
    public static let json = XRPCEventFraming(subprotocol: "xrpc.v1.json")

    public var description: String { subprotocol ?? "DAG-CBOR" }
}

/// One frame of a JSON-framed event stream (`xrpc.v1.json`): a text WebSocket message holding one
/// JSON object whose `$type` says what it is.
public enum XRPCJSONEventFrame: Sendable, Hashable {
    /// `"$type": "message"`: a message whose payload has its own `$type` (`"nsid#name"`, or
    /// `"#name"` for one of the subscription's own definitions).
    case message(type: String, payload: [String: JSONValue])
    /// `"$type": "error"`: an error; the server closes the stream after it.
    case error(name: String, message: String?)
    /// Any other frame `$type`: skipped, as DAG-CBOR frames with an unknown `op` are.
    case unknown(type: String)

    /// Reads a frame from the text of a WebSocket message.
    ///
    /// - Throws: `AtprotoBinaryDecodingError` (`AtprotoBinaryDecodingError.Code.invalidEventFrame`, offset 0) for
    ///   text that is not a JSON object with a string `$type`, a message without an object `payload`
    ///   that has a string `$type`, or an error frame without a string `error`.
    public init(text: String) throws(AtprotoBinaryDecodingError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw Self.invalid("not JSON: \(error)")
        }
        guard case .object(let fields) = value else {
            throw Self.invalid("the frame is a \(value.kindName), not an object")
        }
        guard case .string(let kind)? = fields["$type"] else { throw Self.invalid("the frame has no string \"$type\"") }
        switch kind {
        case "message":
            guard case .object(let payload)? = fields["payload"] else {
                throw Self.invalid("the message frame has no object \"payload\"")
            }
            guard case .string(let type)? = payload["$type"], !type.isEmpty else {
                throw Self.invalid("the message's payload has no string \"$type\"")
            }
            self = .message(type: type, payload: payload)
        case "error":
            guard case .string(let name)? = fields["error"] else {
                throw Self.invalid("the error frame has no string \"error\"")
            }
            self = .error(name: name, message: fields["message"]?.stringValue)
        default:
            self = .unknown(type: kind)
        }
    }

    private static func invalid(_ message: String) -> AtprotoBinaryDecodingError {
        AtprotoBinaryDecodingError(
            .invalidEventFrame, offset: 0, message: "xrpc.v1.json event-stream frame: \(message)")
    }

    /// The message as a generated message union reads it: the payload with `$type` made full
    /// (`<nsid>#name` for a short `"#name"`). `nil` for other frames.
    public func messageJSON(nsid: NSID) -> JSONValue? {
        guard case .message(let type, var payload) = self else { return nil }
        payload["$type"] = .string(type.hasPrefix("#") ? nsid.rawValue + type : type)
        return .object(payload)
    }

    /// The message's `seq`, when its payload has an integer one: the cursor to resume after it.
    public var sequence: Int? {
        guard case .message(_, let payload) = self, case .integer(let seq)? = payload["seq"] else { return nil }
        return seq
    }
}
