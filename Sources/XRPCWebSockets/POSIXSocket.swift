import Foundation
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket calls the POSIX WebSocket client makes: blocking TCP sockets, used from a
/// dedicated thread, waited on with `poll` in short slices so that a cancellation or a close is
/// noticed within ``slice``.
enum POSIXSocket {
    /// How long one `poll` waits before the caller checks its flags again.
    static let slice: Int32 = 100

    /// What a wait ended with.
    enum Wait {
        case ready
        case timedOut
        case stopped
    }

    /// Opens a TCP connection to `host`:`port`, trying each address the resolver gives.
    ///
    /// - Parameters:
    ///   - deadline: When to give up.
    ///   - shouldStop: Polled between waits; returning `true` abandons the attempt (cancellation).
    /// - Returns: The connected descriptor, in blocking mode, with `TCP_NODELAY` set.
    static func open(
        host: String, port: Int, deadline: ContinuousClock.Instant, shouldStop: () -> Bool
    ) throws(XRPCWebSocketError) -> Int32 {
        let addresses: [SocketAddress]
        switch SocketAddress.resolve(host: host, port: port, stream: true) {
        case .success(let found): addresses = found
        case .failure(let failure):
            throw XRPCWebSocketError(.cannotConnect, message: "cannot resolve \(host): \(failure.reason)")
        }
        var lastError = "no address"
        for address in addresses {
            let descriptor = socket(address.family, SocketAddress.socketType(stream: true), 0)
            guard descriptor >= 0 else {
                lastError = "socket() failed: \(errorText())"
                continue
            }
            do {
                try establish(descriptor, to: address, deadline: deadline, shouldStop: shouldStop)
                configure(descriptor)
                return descriptor
            } catch {
                closeDescriptor(descriptor)
                if error.code != .cannotConnect { throw error }
                lastError = error.message
            }
        }
        throw XRPCWebSocketError(.cannotConnect, message: "cannot connect to \(host):\(port): \(lastError)")
    }

    private static func establish(
        _ descriptor: Int32, to address: SocketAddress, deadline: ContinuousClock.Instant, shouldStop: () -> Bool
    ) throws(XRPCWebSocketError) {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if address.withSockaddr({ connect(descriptor, $0, $1) }) != 0 {
            guard errno == EINPROGRESS else { throw XRPCWebSocketError(.cannotConnect, message: errorText()) }
            switch waitFor(descriptor, for: Int16(POLLOUT), until: deadline, shouldStop: shouldStop) {
            case .ready: break
            case .timedOut: throw XRPCWebSocketError(.timedOut, message: "connecting took too long")
            case .stopped: throw XRPCWebSocketError(.closed, message: "connecting was cancelled")
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
            guard socketError == 0 else {
                throw XRPCWebSocketError(.cannotConnect, message: String(cString: strerror(socketError)))
            }
        }
        _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
    }

    /// Sets `TCP_NODELAY`, a 10-second send timeout (a write never blocks forever) and, on Apple
    /// platforms, `SO_NOSIGPIPE`.
    private static func configure(_ descriptor: Int32) {
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits until `descriptor` is ready for `events`, the deadline passes, or `shouldStop` says so.
    static func waitFor(
        _ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant?, shouldStop: () -> Bool
    ) -> Wait {
        while true {
            if shouldStop() { return .stopped }
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let result = poll(&entry, 1, slice)
            if result > 0 { return .ready }
            if result < 0, errno != EINTR { return .ready }  // the next read or write reports the error
        }
    }

    /// Writes all of `bytes`; `false` when the connection failed.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                #if canImport(Darwin)
                    let written = send(descriptor, base + offset, buffer.count - offset, 0)
                #else
                    let written = send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #endif
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads what is available into `buffer`: the byte count, 0 at the end of the stream, or -1
    /// on an error other than an interruption.
    static func readSome(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return count
        }
    }

    /// Shuts both directions down, which wakes any thread waiting on the socket.
    static func shutdownBoth(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Releases the descriptor.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// The text of the current `errno`.
    static func errorText() -> String {
        "\(String(cString: strerror(errno))) (errno \(errno))"
    }
}
