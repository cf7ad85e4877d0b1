import Foundation
@_spi(Generated) import XRPCCore
import XRPCRuntime

/// A hand-written subscription, as the generator would write it: `com.example.stream` with a
/// `cursor` parameter and a `#tick` message.
enum TestStream: XRPCSubscription {
    static let nsid: NSID = "com.example.stream"

    struct Parameters: XRPCParameters {
        var cursor: Int?
        var unknownFields: [String: JSONValue] = [:]

        init(cursor: Int? = nil) { self.cursor = cursor }

        init(reading reader: inout LexiconObjectReader) throws {
            cursor = try reader.optional("cursor")
            unknownFields = reader.remainingFields
        }

        func write(to writer: inout LexiconObjectWriter) {
            writer.write("cursor", cursor)
            writer.writeUnknown(unknownFields)
        }
    }

    struct Tick: LexiconObject {
        var seq: Int
        var note: String?
        var unknownFields: [String: JSONValue] = [:]

        init(reading reader: inout LexiconObjectReader) throws {
            seq = try reader.required("seq")
            note = try reader.optional("note")
            unknownFields = reader.remainingFields
        }

        func write(to writer: inout LexiconObjectWriter) {
            writer.write("seq", seq)
            writer.write("note", note)
            writer.writeUnknown(unknownFields)
        }
    }

    enum Message: LexiconUnion {
        case tick(Tick)
        case unknown(LexiconUnknownValue)

        init(lexiconJSON json: JSONValue) throws {
            if try lexiconUnionType(of: json) == "com.example.stream#tick" {
                self = .tick(try Tick(lexiconJSON: json))
            } else {
                self = .unknown(LexiconUnknownValue(json))
            }
        }

        var lexiconJSON: JSONValue {
            switch self {
            case .tick(let tick): return lexiconUnionMemberJSON(tick, type: "com.example.stream#tick")
            case .unknown(let value): return value.json
            }
        }

        var seq: Int? {
            if case .tick(let tick) = self { return tick.seq }
            return nil
        }
    }

    enum Error: XRPCErrorName {
        case futureCursor
        case unknown(String)

        init(name: String) { self = name == "FutureCursor" ? .futureCursor : .unknown(name) }
        var name: String {
            switch self {
            case .futureCursor: return "FutureCursor"
            case .unknown(let name): return name
            }
        }
        static var declaredNames: [String] { ["FutureCursor"] }
    }
}

/// Event-stream frames for tests.
enum Frames {
    static func frame(op: Int = 1, type: String? = "#tick", _ body: [String: AtprotoDataModelValue]) -> Data {
        var header: [String: AtprotoDataModelValue] = ["op": .integer(op)]
        if let type { header["t"] = .string(type) }
        return Data(DAGCBOR.encode(.map(header)) + DAGCBOR.encode(.map(body)))
    }

    static func tick(_ seq: Int) -> XRPCWebSocketMessage {
        .binary(frame(["seq": .integer(seq)]))
    }

    static func error(_ name: String, _ message: String) -> XRPCWebSocketMessage {
        .binary(frame(op: -1, type: nil, ["error": .string(name), "message": .string(message)]))
    }
}

// @unchecked Sendable: every `var` is read and written under `lock`.
/// A transport that serves scripted connections, one per connect call, and records the URLs.
final class ScriptedTransport: XRPCWebSocketTransport, @unchecked Sendable {
    /// What one connect call gives: a connection that plays `events`, or an error.
    enum Script {
        case connection([ScriptedConnection.Event])
        case failure(any Error)
    }

    private let lock = NSLock()
    private var scripts: [Script]
    private var urls: [URL] = []
    private var headerFields: [HTTPHeaderFields] = []
    private var opened: [ScriptedConnection] = []

    init(_ scripts: [Script]) { self.scripts = scripts }

    var connectedURLs: [URL] { lock.withLock { urls } }
    /// The header fields of each connect call.
    var connectedHeaders: [HTTPHeaderFields] { lock.withLock { headerFields } }
    var connections: [ScriptedConnection] { lock.withLock { opened } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        let script: Script = lock.withLock {
            urls.append(url)
            headerFields.append(headers)
            return scripts.isEmpty
                ? .failure(XRPCWebSocketError(.cannotConnect, message: "no more scripts")) : scripts.removeFirst()
        }
        switch script {
        case .failure(let error): throw error
        case .connection(let events):
            let connection = ScriptedConnection(events)
            lock.withLock { opened.append(connection) }
            return connection
        }
    }
}

// @unchecked Sendable: `events` and `closeCodes` are read and written under `lock`.
/// A connection that plays a list of events, then waits (until cancelled or closed).
final class ScriptedConnection: XRPCWebSocketConnection, @unchecked Sendable {
    enum Event {
        case message(XRPCWebSocketMessage)
        case close
        case failure(XRPCWebSocketError)
    }

    private let lock = NSLock()
    private var events: [Event]
    private var closeCodes: [XRPCWebSocketCloseCode] = []

    init(_ events: [Event]) { self.events = events }

    /// The codes of the close calls so far.
    var closedWith: [XRPCWebSocketCloseCode] { lock.withLock { closeCodes } }

    func receive() async throws -> XRPCWebSocketMessage? {
        while true {
            let next: Event? = lock.withLock { events.isEmpty ? nil : events.removeFirst() }
            if lock.withLock({ !closeCodes.isEmpty }) { throw XRPCWebSocketError(.closed, message: "closed") }
            switch next {
            case .message(let message): return message
            case .close: return nil
            case .failure(let error): throw error
            case nil: try await Task.sleep(nanoseconds: 5_000_000)  // throws CancellationError when cancelled
            }
        }
    }

    func send(_ message: XRPCWebSocketMessage) async throws {}

    func close(code: XRPCWebSocketCloseCode, reason: String) { lock.withLock { closeCodes.append(code) } }
}
