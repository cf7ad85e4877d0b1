#if XRPCHummingbird
    import AtprotoData
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdCore
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import XRPCServer

    /// An `XRPCRouter` served over HTTP/1.1 by Hummingbird 2, with its subscriptions as
    /// WebSockets (trait `XRPCHummingbird`).
    ///
    /// The limits that protect a server from its clients are on by default: a body larger than the
    /// router's `maximumBodySize` is refused (413) before it is read whole, a body that does not arrive
    /// within ``Configuration/bodyTimeout`` is refused (408) and its connection closed, a connection idle
    /// for ``Configuration/idleTimeout`` is closed, and WebSocket frames from clients are capped. Nothing
    /// it logs carries a header value.
    ///
    /// ```swift
    /// let server = XRPCHTTPServer(router: router, configuration: .init(host: "0.0.0.0", port: 8080))
    /// try await server.run()
    /// ```
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public struct XRPCHTTPServer: Sendable {
        /// Where to listen and how long to wait.
        public struct Configuration: Sendable {
            /// The address to bind (default `127.0.0.1`).
            public var host: String
            /// The port (default 8080; 0 picks a free one, reported to `run(onListening:)`).
            public var port: Int
            /// The longest a request body may take to arrive (default 10 s).
            public var bodyTimeout: Duration
            /// How long a connection may stay idle before it is closed (default 60 s).
            public var idleTimeout: Duration
            /// The largest WebSocket frame a client may send (default 64 KiB; XRPC clients send none).
            public var maximumInboundFrameSize: Int

            /// The defaults.
            public init(
                host: String = "127.0.0.1", port: Int = 8080, bodyTimeout: Duration = .seconds(10),
                idleTimeout: Duration = .seconds(60), maximumInboundFrameSize: Int = 1 << 16
            ) {
                self.host = host
                self.port = port
                self.bodyTimeout = bodyTimeout
                self.idleTimeout = idleTimeout
                self.maximumInboundFrameSize = maximumInboundFrameSize
            }
        }

        /// What is served.
        public let router: XRPCRouter
        /// Where and how.
        public let configuration: Configuration
        let logger: Logger

        /// A server for `router`.
        public init(router: XRPCRouter, configuration: Configuration = Configuration(), logger: Logger? = nil) {
            self.router = router
            self.configuration = configuration
            self.logger = logger ?? Logger(label: "XRPCHTTPServer")
        }

        /// Serves until its task is cancelled (signals are the app's to handle), calling `onListening` with the bound
        /// port once the socket listens.
        public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
            let responder = XRPCHummingbirdResponder<BasicWebSocketRequestContext>(
                router: router, bodyTimeout: configuration.bodyTimeout)
            let router = self.router
            let logger = self.logger
            let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
            let server = HTTPServerBuilder.http1WebSocketUpgrade(
                configuration: .init(
                    http1: http1, ws: .init(maxFrameSize: configuration.maximumInboundFrameSize))
            ) { head, _, _ in
                try await Self.upgrade(head, router: router, logger: logger)
            }
            let application = Application(
                responder: responder, server: server,
                configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
                logger: logger)
            try await application.runService(gracefulShutdownSignals: [])
        }

        /// The upgrade decision: a subscription whose parameters and credentials hold streams its frames;
        /// a refused one, or a WebSocket to any other `/xrpc/` path, gets one error frame with the
        /// refusal's name and message, then the close; other paths are not upgraded.
        static func upgrade(_ head: HTTPRequest, router: XRPCRouter, logger: Logger) async throws
            -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
        {
            let request = XRPCHummingbirdResponder<BasicWebSocketRequestContext>.serverRequest(head, body: Data())
            // A WebSocket to another kind of method, or to an unknown one, gets the refusal as an error
            // frame (no handler runs); paths outside /xrpc/ are left to HTTP (whose answer is a 400).
            guard request.path.hasPrefix("/xrpc/") else { return .dontUpgrade }
            guard router.servesSubscription(at: request.path) else {
                let refusal =
                    router.servesMethod(at: request.path)
                    ? XRPCServerError(.invalidRequest, message: "\(request.path.dropFirst(6)) is not a subscription")
                    : XRPCServerError(
                        .methodNotImplemented, message: "method not implemented: \(request.path.dropFirst(6))")
                return upgradeRefusal(XRPCServerResponse(error: refusal))
            }
            switch await router.handle(request) {
            case .eventStream(let frames):
                return .upgrade([:]) { inbound, outbound, _ in
                    // The stream ends when its messages end or when the client goes away, whichever is
                    // first: a client that leaves while no message comes is noticed at once.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await _ in inbound {}
                        }
                        group.addTask {
                            for await frame in frames {
                                if frames.framing == .json {
                                    try await outbound.write(.text(String(decoding: frame, as: UTF8.self)))
                                } else {
                                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                                }
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            case .response(let response):
                return upgradeRefusal(response)
            }
        }
    }

    /// An upgrade that sends one error frame, the name and message of `response`'s body, and closes.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    func upgradeRefusal(_ response: XRPCServerResponse)
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    {
        let fields = (try? JSONValue.parse(response.body).objectValue) ?? [:]
        let frame = XRPCEventFrameEncoder.error(
            name: fields["error"]?.stringValue ?? "InvalidRequest", message: fields["message"]?.stringValue)
        return .upgrade([:]) { _, outbound, _ in
            try await outbound.write(.binary(ByteBuffer(bytes: frame)))
            try await outbound.close(.policyViolation, reason: nil)
        }
    }

    /// Answers Hummingbird requests with an `XRPCRouter`: the body read with a size cap and a
    /// deadline, then the router's response as is.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public struct XRPCHummingbirdResponder<Context: RequestContext>: HTTPResponder {
        /// What is served.
        public let router: XRPCRouter
        /// The longest a request body may take to arrive.
        public let bodyTimeout: Duration

        /// A responder for `router`.
        public init(router: XRPCRouter, bodyTimeout: Duration = .seconds(10)) {
            self.router = router
            self.bodyTimeout = bodyTimeout
        }

        /// The router's answer to `request`.
        public func respond(to request: Request, context: Context) async throws -> Response {
            let limit = router.configuration.maximumBodySize
            let announcedLength = request.headers[.contentLength].flatMap(Int.init)
            if let length = announcedLength, length > limit {
                return Self.response(
                    XRPCServerResponse(
                        error: XRPCServerError(
                            .payloadTooLarge, headers: ["connection": "close"],
                            message: "the body is larger than \(limit) bytes")))
            }
            var body = Data()
            // A request that announces no body (no Content-Length above 0, no Transfer-Encoding) has none
            // to wait for: queries skip the timed read.
            let announcesBody = (announcedLength ?? 0) > 0 || request.headers[.transferEncoding] != nil
            if announcesBody {
                do {
                    body = try await Self.collect(request, limit: limit, timeout: bodyTimeout)
                } catch let error as XRPCServerError {
                    return Self.response(XRPCServerResponse(error: error))
                } catch {
                    // The connection failed mid-body: answer in XRPC's shape all the same.
                    return Self.response(
                        XRPCServerResponse(
                            error: XRPCServerError(
                                .invalidRequest, headers: ["connection": "close"], message: "the body could not be read"
                            )))
                }
            }
            let answer = await router.respond(to: Self.serverRequest(request.head, body: body))
            return Self.response(answer)
        }

        /// The body, or 413 past `limit` bytes, or 408 when it does not arrive within `timeout`.
        static func collect(_ request: Request, limit: Int, timeout: Duration) async throws -> Data {
            try await withThrowingTaskGroup(of: Data?.self) { group in
                group.addTask {
                    var request = request
                    do {
                        let buffer = try await request.collectBody(upTo: limit)
                        return Data(buffer.readableBytesView)
                    } catch is NIOTooManyBytesError {
                        throw XRPCServerError(
                            .payloadTooLarge, headers: ["connection": "close"],
                            message: "the body is larger than \(limit) bytes")
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let body = first else {
                    throw XRPCServerError(
                        .invalidRequest, status: 408, headers: ["connection": "close"],
                        message: "the body did not arrive within \(timeout)")
                }
                return body
            }
        }

        static func serverRequest(_ head: HTTPRequest, body: Data) -> XRPCServerRequest {
            let target = head.path ?? "/"
            // Every field in order, a repeated name once per field.
            let headers = HTTPHeaderFields(
                head.headerFields.map { HTTPHeaderFields.Field(name: $0.name.canonicalName, value: $0.value) })
            return XRPCServerRequest(method: head.method.rawValue, target: target, headers: headers, body: body)
        }

        static func response(_ answer: XRPCServerResponse) -> Response {
            var fields = HTTPFields()
            // Every field in order: two `WWW-Authenticate` fields go as two.
            for (name, value) in answer.headers {
                guard let fieldName = HTTPField.Name(name) else { continue }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            fields[.contentLength] = String(answer.body.count)
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
#endif
