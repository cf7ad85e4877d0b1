import Foundation
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a socket step failed, before the exchange names the query and the server.
enum DNSSocketFailure: Error {
    /// The deadline passed.
    case timedOut
    /// The lookup's task was cancelled.
    case cancelled
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// The peer closed a TCP connection before sending all it announced.
    case closed(received: Int, expected: Int)
}

/// A non-blocking, close-on-exec socket with waits bounded by a deadline and a cancellation flag:
/// the POSIX calls the DNS exchange makes. Not shared between threads; ``close()`` it when done.
struct DNSSocket {
    /// The descriptor.
    let descriptor: Int32
    /// When every wait gives up.
    let deadline: ContinuousClock.Instant
    /// Looked at between polls.
    let cancellation: DNSCancellation

    /// The longest single poll, so that cancellation is noticed soon.
    private static let pollSlice: Duration = .milliseconds(50)

    /// Attoseconds per millisecond, and what to add to round a remainder up.
    private static let perMillisecond: Int64 = 1_000_000_000_000_000
    private static let roundUp: Int64 = perMillisecond - 1

    /// Opens a datagram (`stream` false) or stream socket for `family`, non-blocking.
    init(
        family: Int32, stream: Bool, deadline: ContinuousClock.Instant, cancellation: DNSCancellation
    ) throws(DNSSocketFailure) {
        #if canImport(Glibc)
            let type = Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)  // Int32s in Darwin and Musl
        #else
            let type = stream ? SOCK_STREAM : SOCK_DGRAM
        #endif
        let descriptor = socket(family, type, 0)
        guard descriptor >= 0 else { throw .system(call: "socket", errno: errno) }
        let flags = fcntl(descriptor, F_GETFL, 0)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0,
            fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0
        else {
            let code = errno
            closeCall(descriptor)
            throw .system(call: "fcntl", errno: code)
        }
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        self.descriptor = descriptor
        self.deadline = deadline
        self.cancellation = cancellation
    }

    /// Closes the descriptor.
    func close() {
        closeCall(descriptor)
    }

    /// Connects to `address`: at once for a datagram socket (which then only hears from that
    /// address), waiting until the deadline for a stream socket.
    func connect(to address: SocketAddress) throws(DNSSocketFailure) {
        let result = address.withSockaddr { pointer, length in
            connectCall(descriptor, pointer, length)
        }
        if result == 0 { return }
        let code = errno
        guard code == EINPROGRESS || code == EINTR else { throw .system(call: "connect", errno: code) }
        try wait(for: Int16(POLLOUT))
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            throw .system(call: "getsockopt", errno: errno)
        }
        guard error == 0 else { throw .system(call: "connect", errno: error) }
    }

    /// Sends all of `bytes`, waiting for room as needed.
    func send(_ bytes: [UInt8]) throws(DNSSocketFailure) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                sendCall(descriptor, buffer.baseAddress.map { $0 + sent }, buffer.count - sent, Self.sendFlags)
            }
            if result >= 0 {
                sent += result
                continue
            }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw .system(call: "send", errno: code)
            }
            try wait(for: Int16(POLLOUT))
        }
    }

    /// Receives one datagram, or what a stream has ready, into `buffer`, waiting until the deadline;
    /// returns the count, 0 at the end of a stream.
    func receive(into buffer: inout [UInt8], capacity: Int) throws(DNSSocketFailure) -> Int {
        let capacity = min(capacity, buffer.count)
        while true {
            try wait(for: Int16(POLLIN))
            let result = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, capacity, 0) }
            if result >= 0 { return result }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw .system(call: "recv", errno: code)
            }
        }
    }

    /// Reads exactly `count` bytes from a stream.
    func receiveExactly(_ count: Int) throws(DNSSocketFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 16_384))
        while bytes.count < count {
            let received = try receive(into: &chunk, capacity: count - bytes.count)
            guard received > 0 else { throw .closed(received: bytes.count, expected: count) }
            bytes.append(contentsOf: chunk[0..<received])
        }
        return bytes
    }

    /// Waits until the socket is ready for `events`, in slices so that cancellation is seen.
    private func wait(for events: Int16) throws(DNSSocketFailure) {
        while true {
            if cancellation.isCancelled { throw .cancelled }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .timedOut }
            let slice = min(left, Self.pollSlice).components
            let milliseconds = Int32(slice.seconds * 1000 + (slice.attoseconds + Self.roundUp) / Self.perMillisecond)
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let result = poll(&entry, 1, max(1, milliseconds))
            if result > 0 { return }  // ready, or an error the next call reports
            if result < 0, errno != EINTR { throw .system(call: "poll", errno: errno) }
        }
    }

    #if canImport(Darwin)
        private static let sendFlags: Int32 = 0
    #else
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif
}

/// `connect(2)`, named apart from ``DNSSocket/connect(to:)``.
private func connectCall(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

/// `close(2)`, named apart from ``DNSSocket/close()``.
private func closeCall(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// `send(2)`, named apart from ``DNSSocket/send(_:)``.
private func sendCall(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}
