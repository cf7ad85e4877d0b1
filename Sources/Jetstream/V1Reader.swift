import AtprotoLexicons
import Foundation

// @unchecked Sendable: used by one iterator, one task at a time; `connection` is only touched by it.
/// The legacy v1 `/subscribe`: one bare JSON event per text message, read one at a time.
final class V1Reader: JetstreamConnectionReader, @unchecked Sendable {
    private let transport: any XRPCWebSocketTransport
    private let url: URL
    private let headers: [String: String]
    private let recordTypes: LexiconRecordTypes
    private var connection: (any XRPCWebSocketConnection)?

    init(client: JetstreamClient, url: URL) {
        transport = client.transport
        self.url = url
        headers = client.headers
        recordTypes = client.recordTypes
    }

    deinit { connection?.close(code: .normalClosure, reason: "") }

    func next() async throws(JetstreamConnectionEnd) -> JetstreamMessage? {
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
            throw .fail(
                JetstreamError(
                    .malformedEvent, message: "a binary message; v1 events are text (zstd is not supported)"))
        case .text(let text):
            do {
                return try JetstreamMessage.reading(v1: text, recordTypes: recordTypes)
            } catch {
                throw .fail(error)
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
                let body = String(decoding: error.body.prefix(500), as: UTF8.self)
                throw .fail(JetstreamError(.rejected, status: status, message: body.isEmpty ? error.message : body))
            }
            throw .retry("cannot connect to \(url): \(error)")
        } catch {
            throw .retry("cannot connect to \(url): \(error)")
        }
    }

    func close() {
        connection?.close(code: .normalClosure, reason: "")
        connection = nil
    }
}
