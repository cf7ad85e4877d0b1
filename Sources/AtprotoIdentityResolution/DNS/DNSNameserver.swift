/// A DNS server to ask: an IP address literal and a port (``init(parsing:)`` also takes a host name).
public struct DNSNameserver: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 (`192.0.2.53`) or IPv6 (`2001:db8::53`, `fe80::1%eth0`) address literal; no host names.
    public var host: String
    /// The UDP (and, for truncated answers, TCP) port, 53 by default.
    public var port: UInt16

    /// A server at `host` (an IPv4 or IPv6 literal) and `port`.
    public init(host: String, port: UInt16 = 53) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with the IPv6 address in brackets: `127.0.0.1:53`, `[::1]:53`.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
