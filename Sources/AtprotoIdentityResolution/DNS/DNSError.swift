/// Why a DNS lookup failed: a ``Kind`` to switch on and a message naming the name asked and the server.
public struct DNSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// No answer came from the server within the timeout.
        case timedOut
        /// The server answered with an error code other than NXDOMAIN (2 SERVFAIL, 5 REFUSED, ...).
        case serverFailure(rcode: Int)
        /// The answer could not be read: cut short, a bad name compression pointer, a wrong question.
        case malformedResponse
        /// There is no server to ask (an empty list, or no `nameserver` line in resolv.conf).
        case noNameservers
        /// The name asked is no valid DNS name.
        case invalidName
        /// A nameserver's host is no IPv4 or IPv6 address literal.
        case invalidNameserver
        /// A socket call failed with this `errno` (for example, the server refused the connection).
        case socket(errno: Int32)
    }

    /// The kind of failure.
    public var kind: Kind
    /// The name asked, when there was one.
    public var name: String?
    /// The server asked, when there was one.
    public var server: DNSNameserver?
    /// What went wrong, for people: names the name asked and the server.
    public var message: String

    /// An error of `kind`; the message is `detail` followed by the name and the server when given.
    public init(_ kind: Kind, _ detail: String, name: String? = nil, server: DNSNameserver? = nil) {
        self.kind = kind
        self.name = name
        self.server = server
        switch (name, server) {
        case (let name?, let server?): self.message = "\(detail) (TXT \(name) from \(server))"
        case (let name?, nil): self.message = "\(detail) (TXT \(name))"
        case (nil, let server?): self.message = "\(detail) (server \(server))"
        case (nil, nil): self.message = detail
        }
    }

    /// The message.
    public var description: String { "DNSError: \(message)" }
}
