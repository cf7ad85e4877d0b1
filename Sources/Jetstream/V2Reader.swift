import AtprotoLexicons
import Foundation

// @unchecked Sendable: used by one iterator, one task at a time; `connection` is only touched by it.
/// The v2 stream, `network.bsky.jetstream.subscribeEvents`: one `xrpc.v1.json` text frame per
/// message, read one at a time (``JetstreamMessage/reading(v2:recordTypes:)``).
///
/// It reads the socket itself rather than through the runtime's `XRPCEventStream`, which parses
/// each frame into a `JSONValue` tree before decoding it: here a commit, nearly every frame, is
/// read straight from the text and its record decoded from its bytes in the frame.
final class V2Reader: JetstreamConnectionReader, @unchecked Sendable {
    private let transport: any XRPCWebSocketTransport
    private let url: URL
    private let headers: [String: String]
    private let recordTypes: LexiconRecordTypes
    private var connection: (any XRPCWebSocketConnection)?

    init(client: JetstreamClient, url: URL) {
        transport = client.transport
        self.url = url
        var headers = client.headers
        if let subprotocol = NetworkBskyJetstreamSubscribeEvents.framing.subprotocol {
            headers["Sec-WebSocket-Protocol"] = subprotocol
        }
        self.headers = headers
        recordTypes = client.recordTypes
    }

    deinit { connection?.close(code: .normalClosure, reason: "") }

    func next() async throws(JetstreamConnectionEnd) -> JetstreamMessage? {
        while true {
            let connection = try await open()
            let received: XRPCWebSocketMessage?
            do {
                received = try await connection.receive()
            } catch {
                throw .retry("the connection ended: \(error)")
            }
            switch received {
            case nil:
                return nil
            case .binary:
                throw .fail(
                    JetstreamError(
                        .malformedEvent,
                        message: "a binary WebSocket message; xrpc.v1.json frames are text (zstd is not supported)"))
            case .text(let text):
                if let message = try JetstreamMessage.reading(v2: text, recordTypes: recordTypes) { return message }
            }
        }
    }

    private func open() async throws(JetstreamConnectionEnd) -> any XRPCWebSocketConnection {
        if let connection { return connection }
        do {
            let opened = try await transport.connect(to: url, headers: headers)
            connection = opened
            return opened
        } catch let error as XRPCWebSocketError {
            if error.code == .unsupportedURL { throw .fail(JetstreamError(.invalidService, message: error.message)) }
            if error.code == .handshakeFailed, let status = error.status, status != 101,
                status < 500, status != 408, status != 429
            {
                throw .fail(Self.refusal(status: status, body: error.body))
            }
            throw .retry("cannot connect to \(url): \(error)")
        } catch {
            throw .retry("cannot connect to \(url): \(error)")
        }
    }

    /// The error of a refused upgrade: its XRPC error body's name and message, `CursorTooOld` apart.
    static func refusal(status: Int, body: Data) -> JetstreamError {
        var name: String?
        var message = "the server refused the subscription"
        if case .object(let fields)? = try? JSONValue.parse(body) {
            name = fields["error"]?.stringValue
            message = fields["message"]?.stringValue ?? message
        } else if !body.isEmpty {
            message += ": " + String(decoding: body.prefix(500), as: UTF8.self)
        }
        let code: JetstreamError.Code = name == "CursorTooOld" ? .cursorTooOld : .rejected
        return JetstreamError(code, name: name, status: status, message: message)
    }

    func close() {
        connection?.close(code: .normalClosure, reason: "")
        connection = nil
    }
}
