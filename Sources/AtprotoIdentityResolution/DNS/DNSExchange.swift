import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One query to one server, blocking: over UDP, and again over TCP when the answer is truncated.
/// Runs on a thread of its own, never on Swift's cooperative pool (see `UDPDNSClient`).
struct DNSExchange: Sendable {
    /// The name asked.
    var name: DNSName
    /// The server asked.
    var server: DNSNameserver
    /// How long each of the UDP and TCP steps may wait.
    var timeout: Duration
    /// Set when the lookup's task is cancelled.
    var cancellation: DNSCancellation

    /// The answer: TXT records, NXDOMAIN or another error code (never ``DNSResponse/truncated``).
    /// Throws ``DNSError`` or `CancellationError`.
    func run() throws -> DNSResponse {
        guard let address = SocketAddress(literal: server.host, port: server.port) else {
            throw DNSError(
                .invalidNameserver, name: name.description, server: server,
                message: "the nameserver host \"\(server.host)\" is no IPv4 or IPv6 address")
        }
        let query = DNSQuery(name: name)
        let response = try overUDP(query, to: address)
        guard response == .truncated else { return response }
        return try overTCP(DNSQuery(name: name), to: address)
    }

    /// Sends the query in a datagram and waits for its answer, ignoring datagrams that answer
    /// something else.
    private func overUDP(_ query: DNSQuery, to address: SocketAddress) throws -> DNSResponse {
        let socket = try opened(address, stream: false)
        defer { socket.close() }
        do {
            try socket.connect(to: address)
            try socket.send(query.message)
            var buffer = [UInt8](repeating: 0, count: DNSResponse.maximumSize)
            while true {
                let count = try socket.receive(into: &buffer, capacity: buffer.count)
                if let response = try DNSResponse.parse(Array(buffer[0..<count]), for: query) {
                    return response
                }
            }
        } catch let failure as DNSSocketFailure {
            throw error(failure, over: "UDP")
        } catch let malformed as DNSMalformedMessage {
            throw error(malformed)
        }
    }

    /// Sends the query with its two-byte length over a new TCP connection and reads the answer.
    private func overTCP(_ query: DNSQuery, to address: SocketAddress) throws -> DNSResponse {
        let socket = try opened(address, stream: true)
        defer { socket.close() }
        do {
            try socket.connect(to: address)
            let message = query.message
            try socket.send([UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message)
            let prefix = try socket.receiveExactly(2)
            let length = Int(prefix[0]) << 8 | Int(prefix[1])
            let answer = try socket.receiveExactly(length)
            guard let response = try DNSResponse.parse(answer, for: query, allowTruncated: false) else {
                throw DNSMalformedMessage(reason: "the TCP answer does not answer the query (ID or question)")
            }
            return response
        } catch let failure as DNSSocketFailure {
            throw error(failure, over: "TCP")
        } catch let malformed as DNSMalformedMessage {
            throw error(malformed)
        }
    }

    private func opened(_ address: SocketAddress, stream: Bool) throws -> DNSSocket {
        do {
            return try DNSSocket(
                family: address.family, stream: stream, deadline: .now.advanced(by: timeout),
                cancellation: cancellation)
        } catch {
            throw self.error(error, over: stream ? "TCP" : "UDP")
        }
    }

    private func error(_ failure: DNSSocketFailure, over transport: String) -> any Error {
        switch failure {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return DNSError(
                .timedOut, name: name.description, server: server,
                message: "no answer over \(transport) within \(timeout)")
        case .system(let call, let code):
            let reason = String(cString: strerror(code))
            return DNSError(
                .socket, name: name.description, server: server, errno: code,
                message: "\(call) over \(transport) failed: \(reason)")
        case .closed(let received, let expected):
            return DNSError(
                .malformedResponse, name: name.description, server: server,
                message: "the TCP connection closed after \(received) of \(expected) bytes")
        }
    }

    private func error(_ malformed: DNSMalformedMessage) -> DNSError {
        DNSError(
            .malformedResponse, name: name.description, server: server, message: "malformed answer: \(malformed.reason)"
        )
    }
}
