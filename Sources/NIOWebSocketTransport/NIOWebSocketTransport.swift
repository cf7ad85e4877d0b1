#if NIOWebSocketTransport
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import NIOWebSocket
    import XRPCRuntime

    /// An `XRPCWebSocketTransport` over SwiftNIO: `ws://` and, with TLS from NIOSSL, `wss://` on Linux
    /// and Apple platforms.
    ///
    /// ```swift
    /// var client = XRPCClient(agent: agent)
    /// client.eventStreams.transport = NIOWebSocketTransport()
    /// client.eventStreams.serviceURL = URL(string: "wss://bsky.network")
    /// ```
    public struct NIOWebSocketTransport: XRPCWebSocketTransport {
        /// The largest message accepted, all fragments together; also the largest frame.
        public var maximumMessageSize: Int
        /// The TLS settings for `wss://` (the system's trust roots by default).
        public var tlsConfiguration: TLSConfiguration
        /// The event loops connections run on.
        public var group: any EventLoopGroup
        /// How long the TCP connection may take.
        public var connectTimeout: Duration

        /// Creates a transport.
        public init(
            maximumMessageSize: Int = 16 << 20,
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
            connectTimeout: Duration = .seconds(30)
        ) {
            self.maximumMessageSize = maximumMessageSize
            self.tlsConfiguration = tlsConfiguration
            self.group = group
            self.connectTimeout = connectTimeout
        }

        public func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
            let target = try XRPCWebSocketTarget(url)
            let connection = NIOWebSocketConnection()
            let upgraded = group.next().makePromise(of: Void.self)
            let sslContext = target.secure ? try NIOSSLContext(configuration: tlsConfiguration) : nil
            let maximum = maximumMessageSize
            let bootstrap = ClientBootstrap(group: group)
                .connectTimeout(.nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let operations = channel.pipeline.syncOperations
                        if let sslContext {
                            let hostname =
                                target.host.contains(":") || target.host.allSatisfy({ $0.isNumber || $0 == "." })
                                ? nil : target.host
                            try operations.addHandler(
                                NIOSSLClientHandler(context: sslContext, serverHostname: hostname))
                        }
                        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maximum, automaticErrorHandling: true) {
                            channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                // The refusal handler reads HTTP parts: it must not see WebSocket bytes.
                                channel.pipeline.syncOperations.removeHandler(name: RefusalHandler.name, promise: nil)
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: Int.max,
                                        maxAccumulatedFrameSize: maximum))
                                try channel.pipeline.syncOperations.addHandler(FrameHandler(connection: connection))
                                connection.attach(channel)
                                upgraded.succeed(())
                            }
                        }
                        // Frames the server sends right behind its 101 can arrive in the same read as the
                        // response: the HTTP decoder must hand them on, not drop them, when it is removed.
                        try operations.addHTTPClientHandlers(
                            leftOverBytesStrategy: .forwardBytes,
                            withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                        try operations.addHandler(RefusalHandler(promise: upgraded), name: RefusalHandler.name)
                    }
                }
            let channel: any Channel
            do {
                channel = try await bootstrap.connect(host: target.host, port: target.port).get()
            } catch {
                upgraded.fail(error)
                throw XRPCWebSocketError(
                    .cannotConnect, message: "cannot connect to \(target.host):\(target.port): \(error)")
            }
            var requestHeaders = HTTPHeaders([("Host", target.hostHeader)])
            let reserved: Set<String> = ["host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version"]
            for (name, value) in headers where !reserved.contains(name.lowercased()) {
                requestHeaders.add(name: name, value: value)
            }
            let head = HTTPRequestHead(
                version: .http1_1, method: .GET, uri: target.requestTarget, headers: requestHeaders)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            do {
                try await withTaskCancellationHandler {
                    try await upgraded.futureResult.get()
                } onCancel: {
                    channel.close(promise: nil)
                }
            } catch {
                channel.close(promise: nil)
                if Task.isCancelled { throw CancellationError() }
                if let refusal = error as? XRPCWebSocketError { throw refusal }
                throw XRPCWebSocketError(.handshakeFailed, message: "the WebSocket upgrade failed: \(error)")
            }
            return connection
        }
    }

    /// After the HTTP handlers: sees the response when the server refuses the upgrade (status and up
    /// to 64 KiB of body), and any error before the upgrade, and fails the connect call with it.
    final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        /// The handler's name in the pipeline.
        static let name = "xrpc-upgrade-refusal"

        private let promise: EventLoopPromise<Void>
        private var status: Int?
        private var body = Data()

        init(promise: EventLoopPromise<Void>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): status = Int(head.status.code)
            case .body(let buffer): if body.count < 65_536 { body.append(contentsOf: buffer.readableBytesView) }
            case .end:
                promise.fail(
                    XRPCWebSocketError(
                        .handshakeFailed, status: status, body: body.prefix(65_536),
                        message: "the server answered the upgrade with status \(status ?? 0)"))
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(XRPCWebSocketError(.handshakeFailed, message: "the WebSocket upgrade failed: \(error)"))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(XRPCWebSocketError(.connectionLost, message: "the connection closed before the upgrade"))
            context.fireChannelInactive()
        }
    }
#endif  // NIOWebSocketTransport
