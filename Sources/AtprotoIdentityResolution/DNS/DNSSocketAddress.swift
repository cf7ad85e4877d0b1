import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A nameserver's address as the socket calls take it: IPv4 or IPv6 (with a zone, `fe80::1%eth0`).
enum DNSSocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// The address of `host`, an IPv4 or IPv6 literal (brackets allowed around IPv6), at `port`;
    /// nil for anything else, host names included.
    init?(host: String, port: UInt16) {
        var literal = Substring(host)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        var ipv4 = sockaddr_in()
        if !literal.contains(":"), inet_pton(AF_INET, String(literal), &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            #if canImport(Darwin)
                ipv4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            self = .v4(ipv4)
            return
        }
        let parts = literal.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        var ipv6 = sockaddr_in6()
        guard let address = parts.first, inet_pton(AF_INET6, String(address), &ipv6.sin6_addr) == 1 else {
            return nil
        }
        if parts.count == 2 {
            let zone = String(parts[1])
            let index = UInt32(zone) ?? if_nametoindex(zone)
            guard index != 0 else { return nil }
            ipv6.sin6_scope_id = index
        }
        ipv6.sin6_family = sa_family_t(AF_INET6)
        ipv6.sin6_port = port.bigEndian
        #if canImport(Darwin)
            ipv6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        self = .v6(ipv6)
    }

    /// Whether `host` is an IPv4 or IPv6 literal this type accepts.
    static func isLiteral(_ host: String) -> Bool {
        DNSSocketAddress(host: host, port: 53) != nil
    }

    /// The address family, `AF_INET` or `AF_INET6`.
    var family: Int32 {
        switch self {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch self {
        case .v4(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
