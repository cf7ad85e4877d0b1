import AtprotoIdentityResolution
import Foundation
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: `stopped` and `received` are read and written under `lock`; the rest are `let`s.
/// A DNS server on `127.0.0.1` for the tests: UDP and TCP on the same random port, each query
/// answered with the packets a handler returns (none: the query goes unanswered).
final class DNSTestServer: @unchecked Sendable {
    /// A query as the server read it.
    struct Query: Sendable {
        /// The message ID.
        var id: UInt16
        /// The flags word (RD is 0x0100).
        var flags: UInt16
        /// The question name, as sent (no compression in queries).
        var name: String
        /// The question type and class.
        var type: UInt16
        var qclass: UInt16
        /// Whether it came over TCP.
        var overTCP: Bool
    }

    /// The packets to send back, in order.
    typealias Handler = @Sendable (Query) -> [[UInt8]]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The address and the port of both sockets.
    let host: String
    let port: UInt16
    private let udp: Int32
    private let tcp: Int32
    private let frameTCP: Bool
    private let handler: Handler
    private let lock = NSLock()
    private var stopped = false
    private var received: [Query] = []
    private let finished = DispatchSemaphore(value: 0)

    /// The server as a nameserver to ask.
    var nameserver: DNSNameserver { DNSNameserver(host: host, port: port) }

    /// Every query read so far.
    var queries: [Query] { lock.withLock { received } }

    /// Starts a server on `host` (`127.0.0.1` or `::1`) answering with `handler`. Over TCP each packet
    /// goes behind its two-byte length unless `frameTCP` is false (then the packets are sent as they are).
    init(host: String = "127.0.0.1", frameTCP: Bool = true, handler: @escaping Handler) throws {
        self.host = host
        self.frameTCP = frameTCP
        self.handler = handler
        var lastFailure = "no attempt"
        for _ in 0..<20 {
            guard let (tcp, port) = Self.bound(host, port: 0, stream: true), listen(tcp, 16) == 0 else {
                throw Failure(description: "TCP bind/listen on \(host) failed: errno \(errno)")
            }
            if let (udp, _) = Self.bound(host, port: port, stream: false) {
                self.port = port
                self.tcp = tcp
                self.udp = udp
                Thread { [self] in serve() }.start()
                return
            }
            lastFailure = "UDP bind to \(host) port \(port): errno \(errno)"
            close(tcp)
        }
        throw Failure(description: lastFailure)
    }

    deinit { stop() }

    /// Stops serving and closes the sockets.
    func stop() {
        let wasRunning = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if wasRunning { _ = finished.wait(timeout: .now() + 2) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// A socket bound to `host` and `port` (0: any free port), and the port it got.
    private static func bound(_ host: String, port: UInt16, stream: Bool) -> (Int32, UInt16)? {
        guard let (descriptor, address) = SocketAddress(literal: host, port: port)?.bound(stream: stream) else {
            return nil
        }
        return (descriptor, address.port)
    }

    private func serve() {
        defer {
            close(udp)
            close(tcp)
            finished.signal()
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isStopped {
            var entries = [udp, tcp].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&entries, 2, 20) > 0 else { continue }
            if entries[0].revents != 0 { answerDatagram(&buffer) }
            if entries[1].revents != 0 { answerConnection() }
        }
    }

    private func answerDatagram(_ buffer: inout [UInt8]) {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(udp, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count > 0, let query = Self.parse(Array(buffer[0..<count]), overTCP: false) else { return }
        lock.withLock { received.append(query) }
        for packet in handler(query) {
            _ = packet.withUnsafeBytes { bytes in
                withUnsafePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(udp, bytes.baseAddress, bytes.count, 0, $0, length)
                    }
                }
            }
        }
    }

    /// Reads one length-prefixed query from a new connection and writes the answers the same way.
    private func answerConnection() {
        let connection = accept(tcp, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard let prefix = Self.read(connection, count: 2),
            let message = Self.read(connection, count: Int(prefix[0]) << 8 | Int(prefix[1])),
            let query = Self.parse(message, overTCP: true)
        else { return }
        lock.withLock { received.append(query) }
        for packet in handler(query) {
            let framed = frameTCP ? [UInt8(packet.count >> 8), UInt8(packet.count & 0xFF)] + packet : packet
            _ = framed.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        }
    }

    private static func read(_ connection: Int32, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(count, 1))
        while bytes.count < count {
            let wanted = count - bytes.count
            let got = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, wanted, 0) }
            guard got > 0 else { return nil }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// Reads the header and the question of a query (uncompressed, as queries are).
    static func parse(_ message: [UInt8], overTCP: Bool) -> Query? {
        guard message.count >= 17 else { return nil }
        var labels: [String] = []
        var position = 12
        while position < message.count, message[position] != 0 {
            let end = position + 1 + Int(message[position])
            guard end <= message.count else { return nil }
            labels.append(String(decoding: message[(position + 1)..<end], as: UTF8.self))
            position = end
        }
        guard position + 4 < message.count else { return nil }
        func word(_ at: Int) -> UInt16 { UInt16(message[at]) << 8 | UInt16(message[at + 1]) }
        return Query(
            id: word(0), flags: word(2), name: labels.joined(separator: "."), type: word(position + 1),
            qclass: word(position + 3), overTCP: overTCP)
    }
}
