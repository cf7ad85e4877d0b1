import Dispatch

/// A small DNS client for TXT records, package-internal (apps name nameservers with the resolvers'
/// `nameservers:` initializers, or bring a ``DNSTXTLookup`` of their own): RFC 1035 queries over UDP to the servers you name (or those of
/// /etc/resolv.conf), with TCP when an answer is truncated. No DNSSEC, EDNS0 or search domains.
///
/// Each server is asked in turn, for `attempts` rounds, each query waiting up to `timeout`; a server
/// that times out, fails (SERVFAIL, REFUSED, ...) or sends a malformed answer hands over to the next.
/// NXDOMAIN ends the lookup with no records. The socket work runs on a dispatch queue, never on
/// Swift's cooperative thread pool, and stops soon after the task is cancelled.
///
/// ```swift
/// let dns = try UDPDNSClient.system()
/// let records = try await dns.txtRecords(for: "_atproto.alice.example.com")  // ["did=did:plc:..."]
/// ```
package struct UDPDNSClient: DNSTXTLookup {
    /// The servers asked, in order.
    package var nameservers: [DNSNameserver]
    /// How long one query to one server may wait for its answer.
    package var timeout: Duration
    /// How many rounds through the servers before giving up (at least 1).
    package var attempts: Int

    /// Where the blocking socket work runs.
    private static let queue = DispatchQueue(label: "AtprotoIdentityResolution.UDPDNSClient", attributes: .concurrent)

    /// A client asking `nameservers` in turn, for `attempts` rounds, each query waiting up to `timeout`.
    package init(nameservers: [DNSNameserver], timeout: Duration = .seconds(2), attempts: Int = 2) {
        self.nameservers = nameservers
        self.timeout = timeout
        self.attempts = attempts
    }

    /// The nameservers from /etc/resolv.conf (`nameserver` lines; IPv4 and IPv6), with a clear DNSError when none.
    ///
    /// The file's `options` (timeout, attempts, ndots) and `search` domains are not applied: names are
    /// asked as given, with `timeout` and `attempts`.
    package static func system(
        resolvConf path: String = "/etc/resolv.conf", timeout: Duration = .seconds(2), attempts: Int = 2
    ) throws -> UDPDNSClient {
        UDPDNSClient(nameservers: try DNSResolvConf.nameservers(atPath: path), timeout: timeout, attempts: attempts)
    }

    /// The TXT records of `name`, each record's character-strings joined; `[]` for NXDOMAIN or no records.
    ///
    /// `name` is checked (labels of 1 to 63 letters, digits, `-`, `_`; at most 253 bytes; one trailing
    /// dot allowed) and asked in lower case. Throws ``DNSError`` (the last server's failure when none
    /// answered) or `CancellationError`.
    package func txtRecords(for name: String) async throws -> [String] {
        let asked = try DNSName(validating: name)
        guard !nameservers.isEmpty else {
            throw DNSError(.noNameservers, name: asked.description, message: "no nameserver to ask")
        }
        var lastError = DNSError(.noNameservers, name: asked.description, message: "no nameserver answered")
        for _ in 0..<max(1, attempts) {
            for server in nameservers {
                try Task.checkCancellation()
                do {
                    switch try await exchange(asked, with: server) {
                    case .records(let records): return records
                    case .nonexistent: return []
                    case .failure(let rcode):
                        lastError = DNSError(
                            .serverFailure, name: asked.description, server: server, rcode: rcode,
                            message: "the server answered \(Self.rcodeName(rcode))")
                    case .truncated:
                        lastError = DNSError(
                            .malformedResponse, name: asked.description, server: server,
                            message: "the answer was truncated over TCP too")
                    }
                } catch let error as DNSError {
                    lastError = error
                }
            }
        }
        throw lastError
    }

    /// Runs one exchange on ``queue`` and waits for it without holding a cooperative thread.
    private func exchange(_ name: DNSName, with server: DNSNameserver) async throws -> DNSResponse {
        let exchange = DNSExchange(name: name, server: server, timeout: timeout, cancellation: DNSCancellation())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Self.queue.async {
                    continuation.resume(with: Result { try exchange.run() })
                }
            }
        } onCancel: {
            exchange.cancellation.cancel()
        }
    }

    private static func rcodeName(_ rcode: Int) -> String {
        switch rcode {
        case 1: "FORMERR (1)"
        case 2: "SERVFAIL (2)"
        case 4: "NOTIMP (4)"
        case 5: "REFUSED (5)"
        default: "RCODE \(rcode)"
        }
    }
}
