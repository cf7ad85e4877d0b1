import AtprotoData
import Foundation

/// Something that can be an XRPC body: a JSON lexicon value, raw bytes, or nothing.
public protocol XRPCBody: Sendable {
    /// Reads a response body.
    init(xrpcBody body: Data, contentType: String?) throws
    /// The body to send and its content type, or `nil` to send none.
    func xrpcBody() throws -> (data: Data, contentType: String)?
}

extension LexiconValue {
    public init(xrpcBody body: Data, contentType: String?) throws {
        self = try LexiconJSONTokens.decode(Self.self, from: body)
    }

    public func xrpcBody() throws -> (data: Data, contentType: String)? {
        (Data(lexiconJSONText()), "application/json")
    }
}

/// A body that is not JSON (a blob, a CAR file, JSON lines): the bytes and their content type.
public struct XRPCRawBody: XRPCBody, Hashable {
    /// The bytes.
    public var data: Data
    /// The content type, e.g. `image/png` or `application/vnd.ipld.car`.
    public var contentType: String

    /// Creates a body.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }

    public init(xrpcBody body: Data, contentType: String?) throws {
        self.data = body
        self.contentType = contentType ?? "application/octet-stream"
    }

    public func xrpcBody() throws -> (data: Data, contentType: String)? {
        (data, contentType)
    }
}

/// The body of an endpoint that declares none. Whatever a server sends back is ignored.
public struct XRPCEmptyBody: XRPCBody, Hashable {
    /// The empty body.
    public init() {}

    public init(xrpcBody body: Data, contentType: String?) throws {}

    public func xrpcBody() throws -> (data: Data, contentType: String)? { nil }
}

/// The query parameters of an endpoint: an object whose fields become query items.
public protocol XRPCParameters: LexiconObject {}

extension XRPCParameters {
    /// The parameters as query items, sorted by name: arrays as repeated keys, booleans as
    /// `true`/`false`.
    public var queryItems: [URLQueryItem] {
        guard case .object(let fields) = lexiconJSON else { return [] }
        var items: [URLQueryItem] = []
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            if case .array(let elements) = value {
                for element in elements { items.append(URLQueryItem(name: key, value: element.queryText)) }
            } else {
                items.append(URLQueryItem(name: key, value: value.queryText))
            }
        }
        return items
    }
}

extension JSONValue {
    /// The text of a scalar value in a query string.
    fileprivate var queryText: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return value
        case .array, .object: return String(decoding: serialized(), as: UTF8.self)
        }
    }
}

/// The parameters of an endpoint that declares none.
public struct XRPCNoParameters: XRPCParameters {
    /// Query items to send anyway, by name.
    public var unknownFields: [String: JSONValue]

    /// No parameters.
    public init() {
        unknownFields = [:]
    }

    /// Keeps every field as an unknown one.
    @_spi(Generated) public init(reading reader: inout LexiconObjectReader) throws {
        unknownFields = reader.remainingFields
    }

    /// Writes the unknown fields back.
    @_spi(Generated) public func write(to writer: inout LexiconObjectWriter) {
        writer.writeUnknown(unknownFields)
    }
}

/// The error names an endpoint declares, with a case for any other name a server sends.
public protocol XRPCErrorName: Sendable, Hashable {
    /// Maps a wire name (`"InvalidSwap"`) to a declared case or to the open case.
    init(name: String)
    /// The wire name.
    var name: String { get }
    /// The names the endpoint's lexicon declares (`["InvalidSwap"]`): a server's refusal with one of
    /// them is ``XRPCCallError/Code/declaredError``, with any other ``XRPCCallError/Code/serverError``.
    static var declaredNames: [String] { get }
}

/// The errors of an endpoint that declares none: every name is open.
public struct XRPCUndeclaredError: XRPCErrorName {
    /// The wire name.
    public let name: String
    /// Wraps a wire name.
    public init(name: String) { self.name = name }
    /// None: the endpoint declares no errors.
    public static var declaredNames: [String] { [] }
}

/// An XRPC endpoint: its NSID and the types of its parameters and errors.
public protocol XRPCEndpoint: Sendable {
    /// The endpoint's query parameters.
    associatedtype Parameters: XRPCParameters
    /// The error names the endpoint declares.
    associatedtype Error: XRPCErrorName
    /// The endpoint's NSID.
    static var nsid: NSID { get }
}

/// A lexicon `query`: `GET /xrpc/<nsid>`.
public protocol XRPCQuery: XRPCEndpoint {
    /// What the query returns.
    associatedtype Output: XRPCBody
}

/// A lexicon `procedure`: `POST /xrpc/<nsid>`.
public protocol XRPCProcedure: XRPCEndpoint {
    /// What the procedure takes.
    associatedtype Input: XRPCBody
    /// What the procedure returns.
    associatedtype Output: XRPCBody
}

/// A lexicon `subscription`: an event stream over a WebSocket.
public protocol XRPCSubscription: XRPCEndpoint {
    /// The messages the stream carries.
    associatedtype Message: LexiconValue
    /// How its frames are written: ``XRPCEventFraming/dagCBOR`` unless the lexicon names the
    /// `xrpc.v1.json` subprotocol (then ``XRPCEventFraming/json``).
    static var framing: XRPCEventFraming { get }
}

extension XRPCSubscription {
    /// DAG-CBOR frames, the event-stream spec's.
    public static var framing: XRPCEventFraming { .dagCBOR }
}
