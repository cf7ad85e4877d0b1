import Foundation
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket listening on a free port of `127.0.0.1`: how every loopback server of the tests
/// and benchmarks starts (``LoopbackHTTPServer``, the test WebSocket server, the firehose benchmark).
public struct LoopbackListener: Sendable {
    /// The listening socket; the caller accepts on it and closes it.
    public let descriptor: Int32
    /// The port the system chose.
    public let port: Int

    /// A failure to open the socket, with the system error.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed and the system error.
        public var description: String
    }

    /// Opens a socket on a free loopback port and listens with room for `backlog` connections.
    public init(backlog: Int32) throws(Failure) {
        guard let (descriptor, address) = SocketAddress.loopback(port: 0).bound(stream: true) else {
            throw Failure(description: "socket/bind on 127.0.0.1 failed: errno \(errno)")
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "listen on 127.0.0.1 failed: errno \(code)")
        }
        self.descriptor = descriptor
        self.port = Int(address.port)
    }

    /// Ends the accept loop of a server listening on `descriptor` (port `port`), which then closes
    /// the descriptor itself. Closing it here instead would free its number while the loop's thread
    /// may not yet have called `accept`: the next socket the process opens (the next server's
    /// listener) gets that number, and the old loop takes that server's connections and drops them
    /// unanswered. `shutdown` makes `accept` fail on Linux; the connection wakes it where it does not.
    public static func wake(_ descriptor: Int32, port: Int) {
        shutdown(descriptor, Int32(SHUT_RDWR))
        if let probe = dial(port: port) { close(probe) }
    }

    /// Writes all of `bytes` to the connected socket `descriptor`; `false` when the peer is gone
    /// (no SIGPIPE: `MSG_NOSIGNAL` on Linux, and the servers set `SO_NOSIGPIPE` on Darwin).
    public static func sendAll(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        let bytes = Array(bytes)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// A TCP connection to `127.0.0.1:port`, or `nil` when it cannot be made.
    static func dial(port: Int) -> Int32? {
        let descriptor = socket(AF_INET, SocketAddress.socketType(stream: true), 0)
        guard descriptor >= 0 else { return nil }
        let connected = SocketAddress.loopback(port: UInt16(clamping: port)).withSockaddr {
            connect(descriptor, $0, $1)
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
