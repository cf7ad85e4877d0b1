#if NIOHTTPTransport
    import Foundation
    import HTTPTransport
    import NIOCore
    import NIOHTTP1
    import NIOSSL

    /// The one outcome of an exchange: the answer or the first failure, whichever comes first (the
    /// answer, the deadline, cancellation and the connection's end may race; later ones are dropped).
    // Every caller runs on the promise's event loop: the channel's handlers, the deadline, cancellation.
    // @unchecked Sendable: `done` is read and written on the promise's event loop only.
    final class ResponseOutcome: @unchecked Sendable {
        private let promise: EventLoopPromise<HTTPTransportResponse>
        /// The request errors are reported for (the one the caller sent, before any redirect).
        let request: HTTPTransportRequest
        private var done = false

        init(_ promise: EventLoopPromise<HTTPTransportResponse>, request: HTTPTransportRequest) {
            self.promise = promise
            self.request = request
        }

        var result: EventLoopFuture<HTTPTransportResponse> { promise.futureResult }

        /// Whether the outcome is settled.
        var isDone: Bool {
            promise.futureResult.eventLoop.assertInEventLoop()
            return done
        }

        func succeed(_ answer: HTTPTransportResponse) {
            promise.futureResult.eventLoop.assertInEventLoop()
            guard !done else { return }
            done = true
            promise.succeed(answer)
        }

        func fail(_ error: HTTPTransportError) {
            promise.futureResult.eventLoop.assertInEventLoop()
            guard !done else { return }
            done = true
            promise.fail(error)
        }

        func fail(_ code: HTTPTransportError.Code, _ message: String) {
            fail(HTTPTransportError(code, request: request, message: message))
        }
    }

    /// Reads the answer behind the HTTP decoder: its head, then its body up to the bound (an answer
    /// announcing more fails at its head), then settles the outcome and closes the connection.
    final class ResponseCollector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart

        /// What the collector checks.
        struct Settings: Sendable {
            /// The most body bytes read.
            var limit: Int
            /// The request was `HEAD`: the answer has no body, whatever its `Content-Length` says.
            var isHead: Bool
        }

        private let settings: Settings
        private let outcome: ResponseOutcome
        private let idle: Duration
        private var status = 0
        private var headers = HTTPHeaderFields()
        private var body = Data()

        init(_ settings: Settings, outcome: ResponseOutcome, idle: Duration) {
            self.settings = settings
            self.outcome = outcome
            self.idle = idle
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !outcome.isDone else { return }
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = Int(head.status.code)
                headers = HTTPHeaderFields(head.headers.map { HTTPHeaderFields.Field(name: $0.name, value: $0.value) })
                if settings.isHead {
                    finish(context)
                } else if let announced = head.headers.first(name: "Content-Length").flatMap({ Int($0) }),
                    announced > settings.limit
                {
                    outcome.fail(.tooLarge, "the answer announces more bytes than allowed")
                    context.close(promise: nil)
                }
            case .body(let buffer):
                guard body.count + buffer.readableBytes <= settings.limit else {
                    outcome.fail(.tooLarge, "the answer is longer than \(settings.limit) bytes")
                    context.close(promise: nil)
                    return
                }
                buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            case .end:
                finish(context)
            }
        }

        private func finish(_ context: ChannelHandlerContext) {
            outcome.succeed(HTTPTransportResponse(status: status, headers: headers, body: body))
            context.close(promise: nil)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let idleEvent = event as? IdleStateHandler.IdleStateEvent, idleEvent == .read {
                outcome.fail(.timedOut, "the server sent nothing for \(idle)")
                context.close(promise: nil)
            } else {
                context.fireUserInboundEventTriggered(event)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if let tls = error as? NIOSSLError, case .handshakeFailed = tls {
                outcome.fail(.cannotConnect, "the TLS handshake failed: \(tls)")
            } else if error is HTTPParserError {
                outcome.fail(.connectionLost, "the answer is not HTTP/1.1: \(error)")
            } else {
                outcome.fail(.connectionLost, "the connection failed: \(error)")
            }
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            outcome.fail(.connectionLost, "the connection closed before the answer was complete")
            context.fireChannelInactive()
        }
    }

    /// The request a redirect leads to, as browsers and URLSession follow one.
    enum HTTPRedirect {
        /// The request `answer` redirects `request` to; `nil` when it is not a redirect to an http or
        /// https URL. `303`, and `301`/`302` to a `POST`, continue with a `GET` without the body; one to
        /// another origin drops the credential headers.
        static func request(following answer: HTTPTransportResponse, of request: HTTPTransportRequest)
            -> HTTPTransportRequest?
        {
            guard [301, 302, 303, 307, 308].contains(answer.status), let location = answer.headers["Location"],
                let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
                let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return nil }
            var next = request
            next.url = url
            if answer.status == 303 || ([301, 302].contains(answer.status) && request.method.uppercased() == "POST") {
                next.method = "GET"
                next.body = nil
                next.headers["Content-Type"] = nil
            }
            let from = HTTPRedirectPolicy.origin(of: request.url)
            if from == nil || from != HTTPRedirectPolicy.origin(of: url) {
                for name in HTTPRedirectPolicy.credentialHeaders { next.headers[name] = nil }
            }
            return next
        }
    }
#endif  // NIOHTTPTransport
