import Foundation

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
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)  // an enum in Glibc, an Int32 in Darwin and Musl
        #else
            let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
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

    /// A TCP connection to `127.0.0.1:port`, or `nil` when it cannot be made.
    static func dial(port: Int) -> Int32? {
        #if canImport(Glibc)
            let socketType = Int32(SOCK_STREAM.rawValue)  // an enum in Glibc, an Int32 in Darwin and Musl
        #else
            let socketType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
