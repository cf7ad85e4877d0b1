#if NIOWebSocketTransport
    import Foundation
    import NIOSSL
    import NIOWebSocketTransport
    import XCTest
    @_spi(Generated) import XRPCCore
    import XRPCRuntime

    /// The NIO transport over `wss://` against `tls_websocket_server.py` (``TLSWebSocketServer``), which
    /// serves a self-signed certificate: event-stream frames through `XRPCClient.subscribe` when the
    /// certificate is trusted, and a prompt, clear failure when it is not.
    final class TLSEventStreamTests: XCTestCase {
        private var server: TLSWebSocketServer?

        override func tearDown() {
            server?.stop()
            server = nil
            super.tearDown()
        }

        private func startServer() throws -> TLSWebSocketServer {
            let started = try TLSWebSocketServer.start()
            server = started
            return started
        }

        /// A transport that trusts only the server's self-signed certificate.
        private func trustingTransport(_ server: TLSWebSocketServer) throws -> NIOWebSocketTransport {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(server.certificatePath))
            return NIOWebSocketTransport(tlsConfiguration: tls, connectTimeout: .seconds(10))
        }

        private func client(_ server: TLSWebSocketServer, host: String = "127.0.0.1", transport: NIOWebSocketTransport)
            throws -> XRPCClient
        {
            let service = try XCTUnwrap(URL(string: "https://\(host):\(server.port)"))
            var client = XRPCClient(agent: URLSessionAgent(serviceURL: service))
            client.eventStreams.transport = transport
            return client
        }

        private func messages(_ stream: XRPCEventStream<TLSRepos>) async throws -> [RepoEvent] {
            try await withDeadline(.seconds(20), "the event stream") {
                var messages: [RepoEvent] = []
                for try await message in stream { messages.append(message) }
                return messages
            }
        }

        func testMessagesArriveDecodedWhenTheSelfSignedCertificateIsTrusted() async throws {
            let server = try startServer()
            let client = try client(server, transport: try trustingTransport(server))
            let stream = client.subscribe(TLSRepos.self, parameters: CursorParameters())
            XCTAssertEqual(stream.url?.scheme, "wss")

            // The frame with an unknown op between the first two is skipped; the close ends the stream.
            let messages = try await messages(stream)
            guard messages.count == 3, case .identity(let first) = messages[0], case .info(let info) = messages[1],
                case .identity(let second) = messages[2]
            else { return XCTFail("expected #identity, #info, #identity: \(messages)") }
            XCTAssertEqual(first.seq, 1)
            XCTAssertEqual(first.did, "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
            XCTAssertEqual(first.handle, "alice.test")
            XCTAssertEqual(first.time, "2024-05-01T12:00:00.000Z")
            XCTAssertEqual(info.name, "OutdatedCursor")
            XCTAssertEqual(info.message, "Requested cursor exceeded limit.")
            XCTAssertEqual(second.seq, 2)
            XCTAssertNil(second.handle)
        }

        func testTheHostNameIsCheckedAgainstTheCertificateByName() async throws {
            let server = try startServer()
            let client = try client(server, host: "localhost", transport: try trustingTransport(server))
            let messages = try await messages(client.subscribe(TLSRepos.self, parameters: CursorParameters()))
            XCTAssertEqual(messages.count, 3, "\(messages)")
        }

        func testFramesInTheReadThatBringsTheUpgradeResponseAreKept() async throws {
            let server = try startServer()
            let url = try XCTUnwrap(URL(string: "wss://127.0.0.1:\(server.burstPort)/xrpc/\(TLSRepos.nsid)"))
            let transport = try trustingTransport(server)
            let sizes = try await withDeadline(.seconds(20), "the burst") {
                let connection = try await transport.connect(to: url, headers: [:])
                var sizes: [Int] = []
                while let message = try await connection.receive() {
                    guard case .binary(let data) = message else {
                        throw DeadlineExceeded(description: "a text message")
                    }
                    sizes.append(data.count)
                }
                return sizes
            }
            XCTAssertEqual(sizes, [110, 24, 76, 92], "every frame, then the close")

            var client = try client(server, transport: transport)
            client.eventStreams.serviceURL = URL(string: "wss://127.0.0.1:\(server.burstPort)")
            let messages = try await messages(client.subscribe(TLSRepos.self, parameters: CursorParameters()))
            XCTAssertEqual(messages.count, 3, "\(messages)")
        }

        func testAnErrorFrameEndsTheStreamWithItsTypedError() async throws {
            let server = try startServer()
            let client = try client(server, transport: try trustingTransport(server))
            let stream = client.subscribe(TLSRepos.self, parameters: CursorParameters(cursor: 999_999))
            XCTAssertEqual(stream.url?.query, "cursor=999999")
            do {
                let messages = try await messages(stream)
                XCTFail("expected the FutureCursor error frame, got \(messages)")
            } catch let error as XRPCEventStreamError {
                XCTAssertEqual(error.code, .errorFrame, "\(error)")
                XCTAssertEqual(error.code(for: TLSRepos.self), .futureCursor)
                XCTAssertEqual(error.message, "Cursor in the future.")
                XCTAssertEqual(error.nsid, TLSRepos.nsid)
            }
        }

        func testAnUntrustedSelfSignedCertificateFailsTheHandshakePromptly() async throws {
            let server = try startServer()
            let url = try XCTUnwrap(URL(string: "wss://127.0.0.1:\(server.port)/xrpc/\(TLSRepos.nsid)"))
            let started = ContinuousClock.now
            do {
                _ = try await withDeadline(.seconds(20), "the TLS handshake") {
                    try await NIOWebSocketTransport(connectTimeout: .seconds(10)).connect(to: url, headers: [:])
                }
                XCTFail("the system's trust roots do not include a self-signed certificate")
            } catch let error as XRPCWebSocketError {
                XCTAssertEqual(error.code, .handshakeFailed, "\(error)")
                XCTAssertNil(error.status, "no HTTP answer: the handshake failed before it: \(error)")
                XCTAssertTrue(
                    error.message.localizedCaseInsensitiveContains("certificate"), "names the certificate: \(error)")
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
        }

        func testAnUntrustedCertificateEndsTheEventStreamWithConnectionFailed() async throws {
            let server = try startServer()
            let client = try client(server, transport: NIOWebSocketTransport(connectTimeout: .seconds(10)))
            do {
                let messages = try await messages(client.subscribe(TLSRepos.self, parameters: CursorParameters()))
                XCTFail("expected a TLS failure, got \(messages)")
            } catch let error as XRPCEventStreamError {
                XCTAssertEqual(error.code, .connectionFailed, "\(error)")
                XCTAssertTrue(error.message.localizedCaseInsensitiveContains("certificate"), "\(error)")
            }
        }

        func testARefusedUpgradeOverTLSReportsItsStatus() async throws {
            let server = try startServer()
            let url = try XCTUnwrap(
                URL(string: "wss://127.0.0.1:\(server.port)/xrpc/com.atproto.server.describeServer"))
            let transport = try trustingTransport(server)
            do {
                _ = try await withDeadline(.seconds(20), "the refused upgrade") {
                    try await transport.connect(to: url, headers: [:])
                }
                XCTFail("the server answers 404 to other paths")
            } catch let error as XRPCWebSocketError {
                XCTAssertEqual(error.code, .handshakeFailed, "\(error)")
                XCTAssertEqual(error.status, 404, "\(error)")
                XCTAssertEqual(String(decoding: error.body, as: UTF8.self), "no such event stream\n")
            }
        }
    }

    /// Runs `body`, failing with ``DeadlineExceeded`` when it takes longer than `limit`, so a hang is a
    /// failure rather than a stuck test run.
    private func withDeadline<T: Sendable>(
        _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw DeadlineExceeded(description: "\(what) took longer than \(limit)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw DeadlineExceeded(description: "\(what) did not run") }
            return first
        }
    }

    /// ``withDeadline(_:_:_:)`` ran out of time.
    private struct DeadlineExceeded: Error, CustomStringConvertible {
        let description: String
    }

    /// `com.atproto.sync.subscribeRepos` with a few message types written by hand, so these tests need
    /// XRPCRuntime only, not the generated SDK.
    enum TLSRepos: XRPCSubscription {
        static let nsid: NSID = "com.atproto.sync.subscribeRepos"
        typealias Parameters = CursorParameters
        typealias Message = RepoEvent

        /// The declared errors of the subscription.
        enum Error: XRPCErrorName {
            case futureCursor
            case consumerTooSlow
            case other(String)

            init(name: String) {
                switch name {
                case "FutureCursor": self = .futureCursor
                case "ConsumerTooSlow": self = .consumerTooSlow
                default: self = .other(name)
                }
            }

            var name: String {
                switch self {
                case .futureCursor: return "FutureCursor"
                case .consumerTooSlow: return "ConsumerTooSlow"
                case .other(let name): return name
                }
            }

            static var declaredNames: [String] { ["FutureCursor", "ConsumerTooSlow"] }
        }
    }

    /// The subscription's one parameter.
    struct CursorParameters: XRPCParameters {
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

    /// The messages the test server sends, by `$type`.
    enum RepoEvent: LexiconJSONBacked {
        case identity(Identity)
        case info(Info)
        case unknown(LexiconUnknownValue)

        init(lexiconJSON json: JSONValue) throws {
            guard case .object(let fields) = json else {
                throw LexiconDecodingError.typeMismatch(expected: "object", found: json)
            }
            switch fields["$type"]?.stringValue {
            case "com.atproto.sync.subscribeRepos#identity": self = .identity(try Identity(lexiconJSON: json))
            case "com.atproto.sync.subscribeRepos#info": self = .info(try Info(lexiconJSON: json))
            default: self = .unknown(LexiconUnknownValue(json))
            }
        }

        var lexiconJSON: JSONValue {
            switch self {
            case .identity(let value): return value.lexiconJSON
            case .info(let value): return value.lexiconJSON
            case .unknown(let value): return value.json
            }
        }

        /// `#identity`: an account's identity changed.
        struct Identity: LexiconObject {
            var seq: Int
            var did: String
            var time: String
            var handle: String?
            var unknownFields: [String: JSONValue] = [:]

            init(reading reader: inout LexiconObjectReader) throws {
                seq = try reader.required("seq")
                did = try reader.required("did")
                time = try reader.required("time")
                handle = try reader.optional("handle")
                unknownFields = reader.remainingFields
            }

            func write(to writer: inout LexiconObjectWriter) {
                writer.write("seq", seq)
                writer.write("did", did)
                writer.write("time", time)
                writer.write("handle", handle)
                writer.writeUnknown(unknownFields)
            }
        }

        /// `#info`: a notice from the server.
        struct Info: LexiconObject {
            var name: String
            var message: String?
            var unknownFields: [String: JSONValue] = [:]

            init(reading reader: inout LexiconObjectReader) throws {
                name = try reader.required("name")
                message = try reader.optional("message")
                unknownFields = reader.remainingFields
            }

            func write(to writer: inout LexiconObjectWriter) {
                writer.write("name", name)
                writer.write("message", message)
                writer.writeUnknown(unknownFields)
            }
        }
    }
#endif  // NIOWebSocketTransport
