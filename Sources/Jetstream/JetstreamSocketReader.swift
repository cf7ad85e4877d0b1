import AtprotoLexicons
import Foundation

// @unchecked Sendable: used by one iterator, one task at a time; `connection` is only touched by it.
/// One Jetstream connection, read one text message at a time, for either endpoint:
///
/// - v1, the legacy `/subscribe`: one bare JSON event per message
///   (``JetstreamMessage/reading(v1:recordTypes:)``);
/// - v2, `network.bsky.jetstream.subscribeEvents`: one `xrpc.v1.json` frame per message
///   (``JetstreamMessage/reading(v2:recordTypes:)``). It reads the socket itself rather than through
///   the runtime's `XRPCEventStream`, which parses each frame into a `JSONValue` tree before decoding
///   it: here a commit, nearly every frame, is read straight from the text and its record decoded
///   from its bytes in the frame.
final class JetstreamSocketReader: JetstreamConnectionReader, @unchecked Sendable {
    private let endpoint: JetstreamEndpoint
    private let transport: any XRPCWebSocketTransport
    private let url: URL
    private let headers: HTTPHeaderFields
    private let recordTypes: LexiconRecordTypes
    private var connection: (any XRPCWebSocketConnection)?

    init(client: JetstreamClient, url: URL) {
        endpoint = client.version
        transport = client.transport
        self.url = url
        var headers = client.headers
        if endpoint == .v2, let subprotocol = NetworkBskyJetstreamSubscribeEvents.framing.subprotocol {
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
                // A close with another code than 1000 (v1's ConsumerTooSlow is 1008), a lost connection.
                throw .retry("the connection ended: \(error)")
            }
            switch received {
            case nil:
                return nil
            case .binary:
                let framing = endpoint == .v2 ? "xrpc.v1.json frames" : "v1 events"
                throw .fail(
                    JetstreamError(
                        .malformedEvent,
                        message: "a binary WebSocket message; \(framing) are text (zstd is not supported)"))
            case .text(let text):
                switch endpoint {
                case .v1:
                    do {
                        return try JetstreamMessage.reading(v1: text, recordTypes: recordTypes)
                    } catch {
                        throw .fail(error)
                    }
                case .v2:
                    // A frame of a type this client does not know is skipped.
                    if let message = try JetstreamMessage.reading(v2: text, recordTypes: recordTypes) {
                        return message
                    }
                }
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
                throw .fail(refusal(status: status, body: error.body, message: error.message))
            }
            throw .retry("cannot connect to \(url): \(error)")
        } catch {
            throw .retry("cannot connect to \(url): \(error)")
        }
    }

    /// The error of a refused upgrade: v1 answers with text, v2 with an XRPC error body (its name
    /// and message; `CursorTooOld` apart).
    private func refusal(status: Int, body: Data, message handshakeMessage: String) -> JetstreamError {
        guard endpoint == .v2 else {
            let text = String(decoding: body.prefix(500), as: UTF8.self)
            return JetstreamError(.rejected, status: status, message: text.isEmpty ? handshakeMessage : text)
        }
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
