import AtprotoData
import Foundation
import XRPCCore

/// Event-stream frames as bytes (atproto.com/specs/event-stream): a DAG-CBOR header then a DAG-CBOR
/// body, what `XRPCEventFrame` reads on the client side.
public enum XRPCEventFrameEncoder: Sendable {
    /// A message frame (`op: 1`) for a message in its lexicon JSON form: `t` is its `$type`, short
    /// (`#commit`) when it is a def of `nsid`, and the body is the rest of the object.
    ///
    /// - Throws: `LexiconDecodingError` when the value is not an object with a string `$type`, or
    ///   cannot be written as DAG-CBOR (a float, a malformed `$link` or `$bytes`).
    public static func message(_ json: JSONValue, nsid: NSID) throws -> Data {
        guard case .object(var fields) = json, case .string(let type)? = fields["$type"] else {
            throw LexiconDecodingError(message: "an event-stream message must be an object with a string $type")
        }
        fields["$type"] = nil
        let header = messageHeader(type: type, nsid: nsid)
        let body = try DAGCBOR.encode(json: .object(fields))
        return Data(header + body)
    }

    /// A message frame (`op: 1`) written straight from a typed message (a subscription's generated
    /// `Message` union): the bytes ``message(_:nsid:)`` gives for its `lexiconJSON`, with no JSON in
    /// between (bytes and links stay binary).
    ///
    /// - Throws: `LexiconDecodingError` when the message has no string `$type`, or cannot be written as
    ///   DAG-CBOR (a float or a malformed link among the fields it kept from reading).
    public static func message<Message: LexiconValue>(_ message: Message, nsid: NSID) throws -> Data {
        guard let (type, body) = try message.eventStreamMessage(asDAGCBOR: true), let type else {
            return try self.message(message.lexiconJSON, nsid: nsid)
        }
        var frame = messageHeader(type: type, nsid: nsid)
        frame.append(contentsOf: body)
        return Data(frame)
    }

    /// A message frame's header, `{op: 1, t}`: `t` is the message's `$type`, `#name` for a def of
    /// `nsid`, whole otherwise.
    static func messageHeader(type: String, nsid: NSID) -> [UInt8] {
        let prefix = nsid.rawValue + "#"
        let short = type.hasPrefix(prefix) ? String(type.dropFirst(nsid.rawValue.count)) : type
        return DAGCBOR.encode(.map(["op": .integer(1), "t": .string(short)]))
    }

    /// An error frame (`op: -1`) with `{error, message}`; the stream ends after it.
    public static func error(name: String, message: String?) -> Data {
        var body: [String: AtprotoDataModelValue] = ["error": .string(name)]
        if let message { body["message"] = .string(message) }
        return Data(DAGCBOR.encode(.map(["op": .integer(-1)])) + DAGCBOR.encode(.map(body)))
    }

    /// A message frame of the `xrpc.v1.json` framing, as UTF-8 text: `{"$type":"message","payload":…}`
    /// with the message (its full `$type` included) as the payload; what `XRPCJSONEventFrame` reads.
    ///
    /// - Throws: `LexiconDecodingError` when the value is not an object with a string `$type`.
    public static func jsonMessage(_ json: JSONValue) throws -> Data {
        guard case .object(let fields) = json, case .string = fields["$type"] else {
            throw LexiconDecodingError(message: "an event-stream message must be an object with a string $type")
        }
        return JSONValue.object(["$type": .string("message"), "payload": json]).serialized(sortedKeys: false)
    }

    /// A message frame of the `xrpc.v1.json` framing written straight from a typed message: the
    /// message as ``jsonMessage(_:)`` gives it for its `lexiconJSON` (as JSON, its keys sorted), with
    /// no tree in between.
    ///
    /// - Throws: `LexiconDecodingError` when the message has no string `$type`.
    public static func jsonMessage<Message: LexiconValue>(_ message: Message) throws -> Data {
        guard let (_, payload) = try message.eventStreamMessage(asDAGCBOR: false) else {
            return try jsonMessage(message.lexiconJSON)
        }
        var frame = Array(#"{"$type":"message","payload":"#.utf8)
        frame.reserveCapacity(frame.count + payload.count + 1)
        frame.append(contentsOf: payload)
        frame.append(UInt8(ascii: "}"))
        return Data(frame)
    }

    /// An error frame of the `xrpc.v1.json` framing, as UTF-8 text: `{"$type":"error","error":…,"message":…}`.
    public static func jsonError(name: String, message: String?) -> Data {
        var fields: [String: JSONValue] = ["$type": .string("error"), "error": .string(name)]
        if let message { fields["message"] = .string(message) }
        return JSONValue.object(fields).serialized(sortedKeys: false)
    }

    /// A message frame in `framing`, written straight from the typed message.
    static func message<Message: LexiconValue>(
        _ message: Message, nsid: NSID, framing: XRPCEventFraming
    ) throws -> Data {
        framing == .json ? try jsonMessage(message) : try self.message(message, nsid: nsid)
    }

    /// An error frame in `framing`: ``error(name:message:)`` or ``jsonError(name:message:)``.
    static func error(name: String, message: String?, framing: XRPCEventFraming) -> Data {
        framing == .json ? jsonError(name: name, message: message) : error(name: name, message: message)
    }
}

/// The frames of one subscription: each message of the handler's stream encoded, then, when the
/// stream fails, one error frame. It never throws: the adapter sends each element and closes at the end.
public struct XRPCEventFrameSequence: AsyncSequence, Sendable {
    /// Frames, each one WebSocket message: binary for ``framing`` `.dagCBOR`, UTF-8 text for `.json`.
    public typealias Element = Data

    let nsid: NSID
    /// How the subscription's frames are written (its lexicon's `subprotocol`).
    public let framing: XRPCEventFraming
    /// Makes a pull of the handler's messages as frames, one at a time: nothing is read ahead
    /// of the socket, so a slow client holds the handler back instead of growing a buffer here.
    let makeMessages: @Sendable () -> MessagePull
    let log: (@Sendable (String) -> Void)?

    init<Message: LexiconValue>(
        nsid: NSID, framing: XRPCEventFraming = .dagCBOR, messages: AsyncThrowingStream<Message, any Error>,
        log: (@Sendable (String) -> Void)?
    ) {
        self.nsid = nsid
        self.framing = framing
        self.log = log
        self.makeMessages = { MessagePull(messages) }
    }

    /// Iterates over the frames.
    public func makeAsyncIterator() -> Iterator {
        Iterator(nsid: nsid, framing: framing, messages: makeMessages(), log: log)
    }

    /// Iterates over the frames.
    ///
    /// `@unchecked Sendable`: an iterator is advanced by one task at a time, as `AsyncIteratorProtocol`
    /// requires (its `next()` is `mutating`), so the message pull inside it is never used concurrently.
    // @unchecked Sendable: advanced by one task at a time (`next()` is mutating), so its pull is never shared.
    public struct Iterator: AsyncIteratorProtocol, @unchecked Sendable {
        let nsid: NSID
        let framing: XRPCEventFraming
        let messages: MessagePull
        let log: (@Sendable (String) -> Void)?
        var finished = false

        /// The next frame, or `nil` after the last one (an error frame ends the stream).
        public mutating func next() async -> Data? {
            guard !finished else { return nil }
            do {
                guard let frame = try await messages.next(nsid: nsid, framing: framing) else {
                    finished = true
                    return nil
                }
                return frame
            } catch let error as XRPCServerError {
                finished = true
                return XRPCEventFrameEncoder.error(name: error.code.rawValue, message: error.message, framing: framing)
            } catch is CancellationError {
                finished = true
                return nil
            } catch {
                finished = true
                log?("\(nsid.rawValue): the event stream failed: \(error)")
                return XRPCEventFrameEncoder.error(
                    name: "InternalServerError", message: "the stream failed", framing: framing)
            }
        }
    }
}

/// The handler's message stream, read one message at a time and written as a frame straight from
/// its type: the type that keeps ``XRPCEventFrameSequence`` from being generic over the message type.
final class MessagePull {
    private let pull: (NSID, XRPCEventFraming) async throws -> Data?

    init<Message: LexiconValue>(_ messages: AsyncThrowingStream<Message, any Error>) {
        var iterator = messages.makeAsyncIterator()
        pull = { nsid, framing in
            guard let message = try await iterator.next() else { return nil }
            return try XRPCEventFrameEncoder.message(message, nsid: nsid, framing: framing)
        }
    }

    func next(nsid: NSID, framing: XRPCEventFraming) async throws -> Data? {
        try await pull(nsid, framing)
    }
}
