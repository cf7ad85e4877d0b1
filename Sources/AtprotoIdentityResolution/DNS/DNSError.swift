import AtprotoSyntax

/// Why a DNS lookup failed: a ``code`` to act on and a message naming the name asked and the server.
public struct DNSError: AtprotoError, Hashable {
    /// The kind of failure. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No answer came from the server within the timeout.
        public static let timedOut: Code = "timedOut"
        /// The server answered with an error code other than NXDOMAIN (2 SERVFAIL, 5 REFUSED, ...):
        /// ``DNSError/rcode`` holds it.
        public static let serverFailure: Code = "serverFailure"
        /// The answer could not be read: cut short, a bad name compression pointer, a wrong question.
        public static let malformedResponse: Code = "malformedResponse"
        /// There is no server to ask (an empty list, or no `nameserver` line in resolv.conf).
        public static let noNameservers: Code = "noNameservers"
        /// The name asked is no valid DNS name.
        public static let invalidName: Code = "invalidName"
        /// A nameserver's host is no IPv4 or IPv6 address literal.
        public static let invalidNameserver: Code = "invalidNameserver"
        /// A socket call failed (for example, the server refused the connection): ``DNSError/errno``
        /// holds the system's error number.
        public static let socket: Code = "socket"
    }

    /// The kind of failure.
    public var code: Code
    /// The name asked, when there was one.
    public var name: String?
    /// The server asked, when there was one.
    public var server: DNSNameserver?
    /// The response code of a ``Code/serverFailure`` answer.
    public var rcode: Int?
    /// The `errno` of a failed ``Code/socket`` call.
    public var errno: Int32?
    /// What went wrong, for people: names the name asked and the server.
    public var message: String

    /// An error of `code`; its ``message`` is `message` followed by the name and the server when given.
    public init(
        _ code: Code, name: String? = nil, server: DNSNameserver? = nil, rcode: Int? = nil, errno: Int32? = nil,
        message: String
    ) {
        self.code = code
        self.name = name
        self.server = server
        self.rcode = rcode
        self.errno = errno
        switch (name, server) {
        case (let name?, let server?): self.message = "\(message) (TXT \(name) from \(server))"
        case (let name?, nil): self.message = "\(message) (TXT \(name))"
        case (nil, let server?): self.message = "\(message) (server \(server))"
        case (nil, nil): self.message = message
        }
    }

    /// The message.
    public var description: String { "DNSError: \(message)" }
}
