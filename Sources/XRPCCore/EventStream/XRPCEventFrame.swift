import AtprotoData
import Foundation
import XRPCWebSockets

/// One frame of an XRPC event stream (atproto.com/specs/event-stream): a binary WebSocket message
/// holding a DAG-CBOR header `{op, t}` followed by a DAG-CBOR body.
public enum XRPCEventFrame: Sendable, Hashable {
    /// `op: 1`: a message of type `t` (`"#commit"`, or a full `nsid#name`), and its body.
    case message(type: String, body: [String: AtprotoDataModelValue])
    /// `op: -1`: an error; the server closes the stream after it.
    case error(name: String, message: String?)
    /// Any other `op`: the spec says to ignore the frame.
    case unknown(op: Int)

    /// Reads a frame.
    ///
    /// - Throws: `AtprotoBinaryDecodingError` with the byte offset in the frame: DAG-CBOR faults in the
    ///   header or the body, bytes after the body, or (`AtprotoBinaryDecodingError.Code.invalidEventFrame`)
    ///   a header or body of the wrong shape: a header that is not a map with an integer `op`, a
    ///   message without a string `t` or whose body is not a map, an error body without a string
    ///   `error`.
    public init(decoding bytes: some ContiguousBytes) throws(AtprotoBinaryDecodingError) {
        self = try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in try Self.read(buffer) }
    }

    private static func read(_ buffer: UnsafeRawBufferPointer) throws(AtprotoBinaryDecodingError) -> XRPCEventFrame {
        let (header, headerLength) = try DAGCBOR.decodePrefix(buffer)
        guard case .map(let fields) = header else {
            throw invalid(0, "the header is a \(header.kindName), not a map")
        }
        guard case .integer(let op)? = fields["op"] else {
            throw invalid(0, "the header has no integer \"op\"")
        }
        guard op == 1 || op == -1 else { return .unknown(op: op) }
        guard headerLength < buffer.count else {
            throw AtprotoBinaryDecodingError(
                .truncated, offset: headerLength, message: "truncated: the frame has a header but no body")
        }
        let body: AtprotoDataModelValue
        do {
            body = try DAGCBOR.decode(UnsafeRawBufferPointer(rebasing: buffer[headerLength...]))
        } catch {
            throw error.shifted(by: headerLength)
        }
        guard case .map(let entries) = body else {
            throw invalid(headerLength, "the body is a \(body.kindName), not a map")
        }
        if op == -1 {
            guard case .string(let name)? = entries["error"] else {
                throw invalid(headerLength, "the error frame's body has no string \"error\"")
            }
            return .error(name: name, message: entries["message"]?.stringValue)
        }
        guard case .string(let type)? = fields["t"], !type.isEmpty else {
            throw invalid(0, "the header of a message (op 1) has no string \"t\"")
        }
        return .message(type: type, body: entries)
    }

    private static func invalid(_ offset: Int, _ message: String) -> AtprotoBinaryDecodingError {
        AtprotoBinaryDecodingError(.invalidEventFrame, offset: offset, message: "event-stream frame: \(message)")
    }

    /// The message in the JSON form a generated message union reads: the body with `$type` set to
    /// the full type, `<nsid>#name` for a short `t` such as `"#commit"`. `nil` for other frames.
    public func messageJSON(nsid: NSID) -> JSONValue? {
        guard case .message(let type, let body) = self else { return nil }
        var object = [String: JSONValue](minimumCapacity: body.count + 1)
        for (key, value) in body { object[key] = value.json }
        object["$type"] = .string(type.hasPrefix("#") ? nsid.rawValue + type : type)
        return .object(object)
    }

    /// The message as the data-model value a generated message union reads
    /// (`Message(dataModel:)`): the body with `$type` set as in ``messageJSON(nsid:)``, its bytes and
    /// links as decoded. `nil` for other frames.
    public func messageDataModel(nsid: NSID) -> AtprotoDataModelValue? {
        guard case .message(let type, var body) = self else { return nil }
        body["$type"] = .string(Self.messageType(type, nsid: nsid))
        return .map(body)
    }

    /// A message's `$type` from the frame's `t`: a `#name` is a definition of the subscription `nsid`.
    static func messageType(_ type: String, nsid: NSID) -> String {
        type.hasPrefix("#") ? nsid.rawValue + type : type
    }

    /// The message's `seq`, when its body has an integer one: the cursor to resume after it.
    public var sequence: Int? {
        guard case .message(_, let body) = self, case .integer(let seq)? = body["seq"] else { return nil }
        return seq
    }
}

extension AtprotoBinaryDecodingError.Code {
    /// An event-stream frame whose header or body has the wrong shape.
    public static let invalidEventFrame = AtprotoBinaryDecodingError.Code(rawValue: "invalidEventFrame")
}
