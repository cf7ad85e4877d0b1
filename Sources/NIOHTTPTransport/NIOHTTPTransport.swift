#if NIOHTTPTransport
    import Foundation
    import HTTPTransport
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL

    /// An `HTTPTransport` over SwiftNIO, with TLS from NIOSSL: for a Linux backend that waits on
    /// slow answers (a PDS building a `getRepo` CAR, writes to a busy server).
    ///
    /// FoundationNetworking's `URLSession` (under `URLSessionTransport`) keeps a core busy while the
    /// first request on a new connection waits for its answer, and on Linux it sends every `POST` on a
    /// new connection: a write that the server answers in 200 ms costs about 180 ms of CPU there. This
    /// transport waits on the socket without polling: a request costs its connection, TLS handshake and
    /// bytes, not the server's time. Each request has a connection of its own (`Connection: close`), so
    /// nothing is ever sent on a connection a server has dropped; a request does pay its handshake.
    ///
    /// ```swift
    /// let transport = NIOHTTPTransport()
    /// let agent = URLSessionAgent(serviceURL: pds, transport: transport)
    /// ```
    ///
    /// It honours what `HTTPTransport` asks: the size bound (an answer announcing more fails before
    /// its body is read), the deadline, each request's idle timeout (the transport's ``idleTimeout``
    /// when it has none), its redirect policy (at most ``maximumRedirects``, `303` and a `POST`'s
    /// `301`/`302` followed with a `GET`, `Authorization`, `DPoP`, `Cookie` and `Proxy-Authorization`
    /// dropped across origins), and cancellation (the connection closed at once).
    public struct NIOHTTPTransport: HTTPTransport {
        /// The TLS settings for `https://` (the system's trust roots by default).
        public var tlsConfiguration: TLSConfiguration {
            get { contexts.configuration }
            set { contexts = TLSContexts(newValue) }
        }
        /// The event loops connections run on.
        public var group: any EventLoopGroup
        /// How long the TCP connection (and the TLS handshake) may take.
        public var connectTimeout: Duration
        /// How long the server may send nothing, for a request without its own
        /// `HTTPTransportRequest.idleTimeout`.
        public var idleTimeout: Duration
        /// The most redirects followed for one request.
        public var maximumRedirects: Int

        /// The TLS context, made once from the configuration (it loads the trust roots).
        private var contexts: TLSContexts

        /// Creates a transport.
        public init(
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
            connectTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60), maximumRedirects: Int = 10
        ) {
            self.contexts = TLSContexts(tlsConfiguration)
            self.group = group
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.maximumRedirects = max(0, maximumRedirects)
        }

        /// Sends the request; see `HTTPTransport.send(_:)`.
        public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
            let deadline = request.timeout.map { ContinuousClock.now + $0 }
            var current = request
            var followed = 0
            while true {
                let answer = try await exchange(current, deadline: deadline, reporting: request)
                guard request.redirects == .followDroppingCredentialsAcrossOrigins,
                    let next = HTTPRedirect.request(following: answer, of: current)
                else { return answer }
                followed += 1
                guard followed <= maximumRedirects else {
                    throw HTTPTransportError(
                        .other, request: request, message: "more than \(maximumRedirects) redirects")
                }
                current = next
            }
        }

        /// One request on a connection of its own.
        private func exchange(
            _ request: HTTPTransportRequest, deadline: ContinuousClock.Instant?,
            reporting original: HTTPTransportRequest
        ) async throws(HTTPTransportError) -> HTTPTransportResponse {
            guard let target = HTTPTarget(request.url) else {
                throw HTTPTransportError(
                    .other, request: original, message: "not an http or https URL with a host")
            }
            if Task.isCancelled {
                throw HTTPTransportError(.cancelled, request: original, message: "the task was cancelled")
            }
            if let deadline, deadline <= .now { throw Self.timedOut(original) }
            let tls: NIOSSLContext?
            do {
                tls = target.secure ? try contexts.context() : nil
            } catch {
                throw HTTPTransportError(.cannotConnect, request: original, message: "the TLS settings: \(error)")
            }
            let loop = group.next()
            let outcome = ResponseOutcome(loop.makePromise(of: HTTPTransportResponse.self), request: original)
            let collector = ResponseCollector.Settings(
                limit: request.maximumResponseSize, isHead: request.method.uppercased() == "HEAD")
            let idle = request.idleTimeout ?? idleTimeout
            let bootstrap = ClientBootstrap(group: loop)
                .connectTimeout(Self.amount(connectTimeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let operations = channel.pipeline.syncOperations
                        if let tls {
                            try operations.addHandler(
                                NIOSSLClientHandler(context: tls, serverHostname: target.serverName))
                        }
                        try operations.addHTTPClientHandlers()
                        try operations.addHandler(IdleStateHandler(readTimeout: Self.amount(idle)))
                        try operations.addHandler(ResponseCollector(collector, outcome: outcome, idle: idle))
                    }
                }
            let channel: any Channel
            do {
                channel = try await bootstrap.connect(host: target.host, port: target.port).get()
            } catch {
                let failure = Self.connectFailure(error, target, original)
                // The outcome's promise must be completed (NIO reports a dropped promise as a leak).
                loop.execute { outcome.fail(failure) }
                throw failure
            }
            let timer = deadline.map { deadline in
                loop.scheduleTask(in: Self.amount(deadline - .now)) {
                    outcome.fail(Self.timedOut(original))
                    channel.close(promise: nil)
                }
            }
            defer { timer?.cancel() }
            channel.write(HTTPClientRequestPart.head(Self.head(request, target)), promise: nil)
            if let body = request.body, !body.isEmpty {
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            do {
                return try await withTaskCancellationHandler {
                    try await outcome.result.get()
                } onCancel: {
                    loop.execute {
                        outcome.fail(
                            HTTPTransportError(.cancelled, request: original, message: "the task was cancelled"))
                        channel.close(promise: nil)
                    }
                }
            } catch let error as HTTPTransportError {
                channel.close(promise: nil)
                throw error
            } catch {
                channel.close(promise: nil)
                throw HTTPTransportError(.other, request: original, message: "\(error)")
            }
        }

        /// The request's head: its fields but those the transport sets (`Host`, `Content-Length`,
        /// `Connection`, `Transfer-Encoding`).
        private static func head(_ request: HTTPTransportRequest, _ target: HTTPTarget) -> HTTPRequestHead {
            var headers = HTTPHeaders([("Host", target.hostHeader)])
            let reserved: Set<String> = ["host", "content-length", "connection", "transfer-encoding"]
            for field in request.headers where !reserved.contains(field.name.lowercased()) {
                headers.add(name: field.name, value: field.value)
            }
            let method = request.method.uppercased()
            if let body = request.body {
                headers.add(name: "Content-Length", value: String(body.count))
            } else if ["POST", "PUT", "PATCH"].contains(method) {
                headers.add(name: "Content-Length", value: "0")
            }
            headers.add(name: "Connection", value: "close")
            return HTTPRequestHead(
                version: .http1_1, method: HTTPMethod(rawValue: method), uri: target.requestTarget, headers: headers)
        }

        private static func timedOut(_ request: HTTPTransportRequest) -> HTTPTransportError {
            HTTPTransportError(
                .timedOut, request: request,
                message: "no complete answer within \(request.timeout.map { "\($0)" } ?? "the deadline")")
        }

        private static func connectFailure(_ error: any Error, _ target: HTTPTarget, _ request: HTTPTransportRequest)
            -> HTTPTransportError
        {
            let place = "\(target.host):\(target.port)"
            if let failure = error as? NIOConnectionError, failure.connectionErrors.isEmpty,
                failure.dnsAError != nil || failure.dnsAAAAError != nil
            {
                return HTTPTransportError(.hostNotFound, request: request, message: "cannot resolve \(target.host)")
            }
            if case ChannelError.connectTimeout = error {
                return HTTPTransportError(.timedOut, request: request, message: "no connection to \(place) in time")
            }
            return HTTPTransportError(.cannotConnect, request: request, message: "cannot connect to \(place): \(error)")
        }

        static func amount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = duration.components
            guard seconds > 0 || attoseconds > 0 else { return .zero }
            guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(Int64.max) }
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }

    /// The TLS context of a configuration, made on first use and kept (`NIOSSLContext` loads the trust
    /// roots: once per transport, not once per request).
    // @unchecked Sendable: `made` is read and written under `lock`; `configuration` is a constant.
    final class TLSContexts: @unchecked Sendable {
        let configuration: TLSConfiguration
        private let lock = NSLock()
        private var made: NIOSSLContext?

        init(_ configuration: TLSConfiguration) { self.configuration = configuration }

        func context() throws -> NIOSSLContext {
            try lock.withLock {
                if let made { return made }
                let context = try NIOSSLContext(configuration: configuration)
                made = context
                return context
            }
        }
    }

    /// Where a request goes: scheme, host, port and the request target (path and query).
    struct HTTPTarget: Sendable {
        var secure: Bool
        var host: String
        var port: Int
        var requestTarget: String

        init?(_ url: URL) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = components.host, !host.isEmpty
            else { return nil }
            secure = scheme == "https"
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            port = components.port ?? (secure ? 443 : 80)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }

        /// The `Host` field: the host, and the port when it is not the scheme's.
        var hostHeader: String {
            let shown = host.contains(":") ? "[\(host)]" : host
            return port == (secure ? 443 : 80) ? shown : "\(shown):\(port)"
        }

        /// The name sent for TLS's server name indication: none for an IP address.
        var serverName: String? {
            host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        }
    }
#endif  // NIOHTTPTransport
