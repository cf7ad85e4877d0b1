/// How long the package's DNS client waits for an answer and how often it asks again, when an app
/// names the nameservers (`StandardIdentityResolver(nameservers:dnsLimits:...)`,
/// `DNSHandleResolver(nameservers:limits:)`, `LexiconResolver(identityResolver:nameservers:dnsLimits:...)`).
///
/// Each round asks every nameserver in turn, each query waiting up to ``timeout``; a lookup that no
/// server answers fails with `DNSError.Code.timedOut` after ``attempts`` rounds, so it takes at most
/// about `timeout × attempts × nameservers`.
///
/// ```swift
/// let resolver = StandardIdentityResolver(
///     nameservers: [DNSNameserver(host: "9.9.9.9")], dnsLimits: DNSQueryLimits(timeout: .seconds(1), attempts: 3))
/// ```
public struct DNSQueryLimits: Sendable, Hashable {
    /// How long one query waits for its answer (default 2 s; at least 1 ms).
    public var timeout: Duration
    /// How many rounds over the nameservers (default 2; from 1 to 10).
    public var attempts: Int

    /// Limits of `timeout` per query and `attempts` rounds, each brought into its range (a timeout of
    /// at least 1 ms, 1 to 10 rounds).
    public init(timeout: Duration = .seconds(2), attempts: Int = 2) {
        self.timeout = max(timeout, .milliseconds(1))
        self.attempts = min(max(attempts, 1), 10)
    }
}

extension UDPDNSClient {
    /// A client asking `nameservers` within `limits`.
    package init(nameservers: [DNSNameserver], limits: DNSQueryLimits) {
        self.init(nameservers: nameservers, timeout: limits.timeout, attempts: limits.attempts)
    }
}
