import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: `open`, `accepted`, `cuts` and `stopped` are read and written under `lock`; the rest are `let`s.
/// A TCP proxy on `127.0.0.1` in front of another loopback server, whose connections a test can cut:
/// each of the first ``cutConnections`` connections after ``cutAfterBytes`` bytes from the server
/// (mid-message, as a network drop does), or all open ones at once with ``severAll()``.
///
/// One thread per direction per connection; for tests, not for traffic.
public final class LoopbackTCPProxy: @unchecked Sendable {
    /// The port the proxy listens on.
    public let port: Int
    /// The server's port on `127.0.0.1`.
    public let upstreamPort: Int
    /// How many bytes from the server each cut connection forwards before it is cut.
    public let cutAfterBytes: Int
    /// How many connections, from the first, are cut after ``cutAfterBytes``.
    public let cutConnections: Int
    private let listener: Int32
    private let lock = NSLock()
    private var open: [Int: (client: Int32, server: Int32)] = [:]
    private var accepted = 0
    private var cuts = 0
    private var stopped = false

    /// Starts a proxy to `upstreamPort` on `127.0.0.1`.
    public init(upstreamPort: Int, cutAfterBytes: Int = .max, cutConnections: Int = 0) throws {
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(backlog: 16)
        } catch {
            throw LoopbackHTTPServer.StartError(description: error.description)
        }
        self.port = listener.port
        self.listener = listener.descriptor
        self.upstreamPort = upstreamPort
        self.cutAfterBytes = cutAfterBytes
        self.cutConnections = cutConnections
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// How many connections the proxy accepted.
    public var connectionCount: Int { lock.withLock { accepted } }
    /// How many connections it cut (after ``cutAfterBytes``, or by ``severAll()``).
    public var cutCount: Int { lock.withLock { cuts } }

    /// Cuts every open connection now, both ways. Under the lock: a connection leaves `open` before
    /// its descriptors are closed, so none is shut down after it could be reused.
    public func severAll() {
        lock.withLock {
            cuts += open.count
            for pair in open.values { Self.cut(pair) }
        }
    }

    /// Stops accepting and cuts every open connection.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        LoopbackListener.wake(listener, port: port)
        lock.withLock {
            for pair in open.values { Self.cut(pair) }
        }
    }

    private static func cut(_ pair: (client: Int32, server: Int32)) {
        shutdown(pair.client, Int32(SHUT_RDWR))
        shutdown(pair.server, Int32(SHUT_RDWR))
    }

    /// Accepts until stopped, then closes the listener (only here: see ``LoopbackListener/wake(_:port:)``).
    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR, !lock.withLock({ stopped }) { continue }
                return
            }
            guard let server = LoopbackListener.dial(port: upstreamPort) else {
                close(client)
                continue
            }
            #if canImport(Darwin)
                // Darwin has no MSG_NOSIGNAL: writing to a side that hung up must not raise SIGPIPE.
                var yes: Int32 = 1
                for descriptor in [client, server] {
                    setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
                }
            #endif
            let index: Int? = lock.withLock {
                if stopped { return nil }
                accepted += 1
                open[accepted] = (client, server)
                return accepted
            }
            guard let index else {
                close(client)
                close(server)
                return
            }
            let limit = index <= cutConnections ? cutAfterBytes : Int.max
            let finished = Counter()
            let end: @Sendable () -> Void = { [self] in
                guard finished.increment() == 2 else { return }
                lock.withLock { _ = open.removeValue(forKey: index) }
                close(client)
                close(server)
            }
            Thread { [self] in
                pump(from: client, to: server, limit: .max)
                Self.cut((client, server))
                end()
            }.start()
            Thread { [self] in
                if pump(from: server, to: client, limit: limit) { lock.withLock { cuts += 1 } }
                Self.cut((client, server))
                end()
            }.start()
        }
    }

    /// Copies bytes until either side closes or `limit` bytes went through; returns whether it
    /// stopped at the limit.
    @discardableResult
    private func pump(from source: Int32, to target: Int32, limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var forwarded = 0
        while forwarded < limit {
            let wanted = min(buffer.count, limit - forwarded)
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, wanted, 0) }
            if count <= 0 { return false }
            guard LoopbackListener.sendAll(target, buffer[..<count]) else { return false }
            forwarded += count
        }
        return true
    }

    // @unchecked Sendable: `value` is read and written under `lock`.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
