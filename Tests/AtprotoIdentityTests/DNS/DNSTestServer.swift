import AtprotoIdentity
import Foundation
import LoopbackHTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// The port of both sockets.
    let port: UInt16
    private let udp: Int32
    private let tcp: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var stopped = false
    private var received: [Query] = []
    private let finished = DispatchSemaphore(value: 0)

    /// The server as a nameserver to ask.
    var nameserver: DNSNameserver { DNSNameserver(host: "127.0.0.1", port: port) }

    /// Every query read so far.
    var queries: [Query] { lock.withLock { received } }

    /// Starts a server answering with `handler`.
    init(handler: @escaping Handler) throws {
        self.handler = handler
        var lastFailure = "no attempt"
        for _ in 0..<20 {
            let listener: LoopbackListener
            do {
                listener = try LoopbackListener(backlog: 16)
            } catch {
                throw Failure(description: error.description)
            }
            if let udp = Self.udpSocket(port: UInt16(listener.port)) {
                self.port = UInt16(listener.port)
                self.tcp = listener.descriptor
                self.udp = udp
                Thread { [self] in serve() }.start()
                return
            }
            lastFailure = "UDP bind to \(listener.port): errno \(errno)"
            close(listener.descriptor)
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

    private static func udpSocket(port: UInt16) -> Int32? {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_DGRAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
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
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
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
            let framed = [UInt8(packet.count >> 8), UInt8(packet.count & 0xFF)] + packet
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
