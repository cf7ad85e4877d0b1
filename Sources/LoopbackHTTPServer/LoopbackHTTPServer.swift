import Foundation
@_exported import HTTPMessages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: `connections` and `stopped` are read and written under `lock`; the rest are `let`s.
/// A tiny HTTP/1.1 server on `127.0.0.1` for tests and benchmarks: no dependencies, POSIX sockets,
/// one thread per connection, keep-alive.
///
/// Each request is answered by a handler you supply. It is not a general web server: it reads a
/// request line, headers and a `Content-Length` body, nothing more (no chunked requests).
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The request target: the path and the query, e.g. `/xrpc/a.b.c?x=1`.
        public var target: String
        /// Header fields in order, names lower-cased, a repeated name once per field.
        public var headers: HTTPHeaderFields
        /// The body, empty when there was none.
        public var body: Data

        /// The path part of the target.
        public var path: String { String(target.prefix { $0 != "?" }) }
    }

    /// What the server does with a request.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Header fields to send besides `Content-Length` and `Connection`, in order (a repeated name
        /// goes as that many fields).
        public var headers: HTTPHeaderFields
        /// The body.
        public var body: Data
        /// Time to wait before answering, in seconds.
        public var delay: Double
        /// Closes the connection without answering when `true`.
        public var dropConnection: Bool
        /// Sends the status, the headers and the `Content-Length` of the whole body, then only this
        /// many bytes of the body, and closes the connection (a body cut off in transit); `nil` sends
        /// it all.
        public var truncatedTo: Int?

        /// Creates a response.
        public init(
            status: Int = 200,
            headers: HTTPHeaderFields = [:],
            body: Data = Data(),
            delay: Double = 0,
            dropConnection: Bool = false,
            truncatedTo: Int? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.dropConnection = dropConnection
            self.truncatedTo = truncatedTo
        }

        /// A JSON response.
        public static func json(_ text: String, status: Int = 200, headers: HTTPHeaderFields = [:]) -> Response {
            var headers = headers
            headers["Content-Type"] = "application/json"
            return Response(status: status, headers: headers, body: Data(text.utf8))
        }
    }

    /// Answers a request; called on the connection's thread.
    public typealias Handler = @Sendable (Request) -> Response

    /// A failure to start the server.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed and the system error.
        public var description: String
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: Handler
    /// See ``init(quietCloseDelay:handler:)``; `nil` says `Connection: close` and closes at once.
    private let quietCloseDelay: Double?
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var stopped = false

    /// The server's root URL, `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Starts a server on a free loopback port.
    public convenience init(handler: @escaping Handler) throws {
        try self.init(quietCloseDelay: nil, handler: handler)
    }

    /// Starts a server that answers a request asking to close (`Connection: close`) without saying
    /// `Connection: close` in its answer, and closes that connection `quietCloseDelay` seconds after
    /// the answer, reading nothing more from it: what Python's `http.server` does, its close late on
    /// a busy machine. A client that takes the connection for a live keep-alive one and writes its
    /// next request on it within the delay gets no answer. Package-visible: for the transport's tests.
    package init(quietCloseDelay: Double?, handler: @escaping Handler) throws {
        self.handler = handler
        self.quietCloseDelay = quietCloseDelay
        let listener: LoopbackListener
        do {
            // Room for every connection the load tests open at once (1,000 calls): with 128, a busy
            // machine's accept queue overflowed, Linux dropped the handshakes' last packets, and the
            // calls on those connections stalled for the 31 s of SYN-ACK retries (CI, 2026-11-27:
            // 136 procedures timed out after 30 s). The kernel caps it at net.core.somaxconn.
            listener = try LoopbackListener(backlog: 1024)
        } catch {
            throw StartError(description: error.description)
        }
        self.port = listener.port
        self.listener = listener.descriptor
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and closes every open connection. The connections are shut down under the
    /// lock: a connection leaves `connections` before its descriptor is closed, so none is shut down
    /// after its number could be reused (by another server's or a client's socket).
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        LoopbackListener.wake(listener, port: port)
        lock.withLock {
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// Accepts until stopped, then closes the listener: only this thread closes it, so its descriptor
    /// number cannot be reused (by the next server's listener) while this thread may still accept on it.
    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if lock.withLock({ stopped }) { return }
                if errno == EINTR { continue }
                return
            }
            let accepted: Bool = lock.withLock {
                if stopped { return false }
                connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
                // Darwin has no MSG_NOSIGNAL: a client that hung up must not raise SIGPIPE in the tests.
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let thread = Thread { [self] in
                serve(connection)
                lock.withLock { _ = connections.remove(connection) }
                close(connection)
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard let (request, used, keepAlive) = nextRequest(in: &buffer, chunk: &chunk, connection) else {
                return
            }
            buffer.removeFirst(used)
            let response = handler(request)
            if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
            if response.dropConnection { return }
            if let cut = response.truncatedTo {
                _ = write(response, keepAlive: false, sendingBodyBytes: cut, to: connection)
                return
            }
            if !keepAlive, let delay = quietCloseDelay {
                if write(response, keepAlive: nil, to: connection) { Thread.sleep(forTimeInterval: delay) }
                return
            }
            guard write(response, keepAlive: keepAlive, to: connection) else { return }
            if !keepAlive { return }
        }
    }

    /// Reads until one whole request is in `buffer`; returns it, the bytes it used and whether the
    /// connection stays open, or `nil` when the connection closed.
    private func nextRequest(
        in buffer: inout [UInt8],
        chunk: inout [UInt8],
        _ connection: Int32
    ) -> (Request, Int, Bool)? {
        while true {
            if let parsed = Self.parse(buffer) { return parsed }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private static let headerEnd: [UInt8] = Array("\r\n\r\n".utf8)

    private static func parse(_ buffer: [UInt8]) -> (Request, Int, Bool)? {
        guard buffer.count >= 4 else { return nil }
        var end: Int?
        for index in 0...(buffer.count - 4) where buffer[index..<index + 4].elementsEqual(headerEnd) {
            end = index
            break
        }
        guard let end else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = (lines.first ?? "").split(separator: " ")
        var headers = HTTPHeaderFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        guard buffer.count >= bodyStart + length else { return nil }
        let request = Request(
            method: parts.first.map(String.init) ?? "",
            target: parts.count > 1 ? String(parts[1]) : "/",
            headers: headers,
            body: Data(buffer[bodyStart..<bodyStart + length])
        )
        let keepAlive = headers["connection"]?.lowercased() != "close"
        return (request, bodyStart + length, keepAlive)
    }

    /// Writes the answer; `keepAlive` `nil` leaves out the `Connection` field.
    private func write(
        _ response: Response, keepAlive: Bool?, sendingBodyBytes: Int? = nil, to connection: Int32
    ) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        head += keepAlive.map { $0 ? "Connection: keep-alive\r\n" : "Connection: close\r\n" } ?? ""
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: response.body.prefix(max(0, sendingBodyBytes ?? response.body.count)))
        return LoopbackListener.sendAll(connection, bytes)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
