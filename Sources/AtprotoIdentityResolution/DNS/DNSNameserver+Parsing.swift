import Foundation

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
    /// - Throws: ``DNSError/Kind/invalidNameserver`` naming the text and what was wrong with it (a
    ///   port that is no number from 1 to 65535, a host name that does not resolve).
    public init(parsing text: String) throws(DNSError) {
        let (host, port) = try Self.hostAndPort(text)
        if DNSSocketAddress.isLiteral(host) {
            self.init(host: host, port: port)
            return
        }
        self.init(host: try Self.address(ofHostNamed: host, in: text), port: port)
    }

    private static func hostAndPort(_ text: String) throws(DNSError) -> (String, UInt16) {
        func invalid(_ why: String) -> DNSError {
            DNSError(.invalidNameserver, "\(text.debugDescription) is no nameserver: \(why); expected host[:port]")
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
            guard DNSSocketAddress.isLiteral(host) else { throw invalid("\(host) in brackets is no IPv6 address") }
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
            guard DNSSocketAddress.isLiteral(text) else {
                throw invalid("it is no IPv6 address (write [address]:port for one with a port)")
            }
            return (text, 53)
        }
    }

    /// The first address of `name`, IPv4 before IPv6, as a literal.
    private static func address(ofHostNamed name: String, in text: String) throws(DNSError) -> String {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)  // an enum in Glibc, an Int32 in Darwin and Musl
        #else
            hints.ai_socktype = SOCK_DGRAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw DNSError(
                .invalidNameserver,
                "\(text.debugDescription) is no nameserver: the host name \(name) does not resolve (\(reason)); "
                    + "expected host[:port] with an IP address or a host name that resolves")
        }
        defer { freeaddrinfo(first) }
        var addresses: [(family: Int32, text: String)] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = current.pointee.ai_family
            guard
                getnameinfo(
                    address, current.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
            else { continue }
            addresses.append(
                (family, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        guard let chosen = addresses.first(where: { $0.family == AF_INET }) ?? addresses.first else {
            throw DNSError(
                .invalidNameserver, "\(text.debugDescription) is no nameserver: the host name \(name) has no address")
        }
        return chosen.text
    }
}
