import Foundation
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DNSNameserver {
    /// A server written as a command line takes it: `host`, `host:port`, `[IPv6]:port` or a bare
    /// IPv6 literal, where `host` is an address literal or a host name; the port is 53 when absent.
    ///
    /// A host name is resolved here, once, with the system's resolver (a blocking call): the server
    /// is its first address, IPv4 before IPv6.
    ///
    /// - Throws: ``DNSError/Code/invalidNameserver`` naming the text and what was wrong with it (a
    ///   port that is no number from 1 to 65535, a host name that does not resolve).
    public init(parsing text: String) throws(DNSError) {
        let (host, port) = try Self.hostAndPort(text)
        if SocketAddress.isLiteral(host) {
            self.init(host: host, port: port)
            return
        }
        self.init(host: try Self.address(ofHostNamed: host, in: text), port: port)
    }

    private static func hostAndPort(_ text: String) throws(DNSError) -> (String, UInt16) {
        func invalid(_ why: String) -> DNSError {
            DNSError(
                .invalidNameserver, message: "\(text.debugDescription) is no nameserver: \(why); expected host[:port]")
        }
        func port(_ digits: Substring) throws(DNSError) -> UInt16 {
            guard let port = UInt16(digits), port > 0 else {
                throw invalid("the port \(digits.debugDescription) is no number from 1 to 65535")
            }
            return port
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("the [ of an IPv6 address is not closed") }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard SocketAddress.isLiteral(host) else { throw invalid("\(host) in brackets is no IPv6 address") }
            if rest.isEmpty { return (host, 53) }
            guard rest.hasPrefix(":") else { throw invalid("expected :port after the brackets") }
            return (host, try port(rest.dropFirst()))
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard !text.isEmpty else { throw invalid("the host is empty") }
            return (text, 53)
        case 2:
            guard !parts[0].isEmpty else { throw invalid("the host is empty") }
            return (String(parts[0]), try port(parts[1]))
        default:
            // Several colons: an IPv6 literal without a port.
            guard SocketAddress.isLiteral(text) else {
                throw invalid("it is no IPv6 address (write [address]:port for one with a port)")
            }
            return (text, 53)
        }
    }

    /// The first address of `name`, IPv4 before IPv6, as a literal.
    private static func address(ofHostNamed name: String, in text: String) throws(DNSError) -> String {
        let addresses: [SocketAddress]
        switch SocketAddress.resolve(host: name, port: 53, stream: false) {
        case .success(let found): addresses = found
        case .failure(let failure):
            throw DNSError(
                .invalidNameserver,
                message:
                    "\(text.debugDescription) is no nameserver: the host name \(name) does not resolve (\(failure.reason)); "
                    + "expected host[:port] with an IP address or a host name that resolves")
        }
        let literals = addresses.compactMap { address in address.numericHost.map { (address.family, $0) } }
        guard let chosen = literals.first(where: { $0.0 == AF_INET }) ?? literals.first else {
            throw DNSError(
                .invalidNameserver,
                message: "\(text.debugDescription) is no nameserver: the host name \(name) has no address")
        }
        return chosen.1
    }
}
