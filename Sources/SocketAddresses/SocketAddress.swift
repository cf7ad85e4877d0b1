#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 socket address as the socket calls take it, for the package's own POSIX sockets
/// (the WebSocket client, DNS, the OAuth loopback redirect, the loopback test server).
/// Package-visible: no public API.
package struct SocketAddress: Sendable {
    private var storage: sockaddr_storage
    /// The length of the address in ``storage``.
    package let length: socklen_t

    private init(copying address: UnsafePointer<sockaddr>, length: socklen_t) {
        var storage = sockaddr_storage()
        let size = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: size))
        }
        self.storage = storage
        self.length = socklen_t(size)
    }

    private init<Address>(_ address: Address) {
        var address = address
        let length = socklen_t(MemoryLayout<Address>.size)
        self = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress(copying: $0, length: length) }
        }
    }

    /// The address of `host`, an IPv4 or IPv6 literal (brackets allowed around IPv6, and a zone:
    /// `fe80::1%eth0`), at `port`; nil for anything else, host names included.
    package init?(literal host: String, port: UInt16) {
        var literal = Substring(host)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        var ipv4 = sockaddr_in()
        if !literal.contains(":"), inet_pton(AF_INET, String(literal), &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            #if canImport(Darwin)
                ipv4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            self.init(ipv4)
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
        self.init(ipv6)
    }

    /// `127.0.0.1` at `port` (0: any free port, when binding).
    package static func loopback(port: UInt16) -> SocketAddress {
        // A literal this type always accepts.
        SocketAddress(literal: "127.0.0.1", port: port) ?? SocketAddress(sockaddr_in())
    }

    /// Whether `host` is an IPv4 or IPv6 literal ``init(literal:port:)`` accepts.
    package static func isLiteral(_ host: String) -> Bool {
        SocketAddress(literal: host, port: 0) != nil
    }

    /// The address family, `AF_INET` or `AF_INET6`.
    package var family: Int32 { Int32(storage.ss_family) }

    /// The port (`sin_port` and `sin6_port` sit at the same offset, right after the family).
    package var port: UInt16 {
        withUnsafeBytes(of: storage) { UInt16(bigEndian: $0.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) }
    }

    /// The address as a numeric literal (`192.0.2.1`, `2001:db8::1`), or nil when it has none.
    package var numericHost: String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withSockaddr { address, length in
            getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        }
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = self.storage
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The socket type for a stream (TCP) or datagram (UDP) socket, as `socket` takes it here.
    package static func socketType(stream: Bool) -> Int32 {
        #if canImport(Glibc)
            Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)  // an enum in Glibc
        #else
            stream ? SOCK_STREAM : SOCK_DGRAM  // an Int32 in Darwin and Musl
        #endif
    }

    /// The addresses of `host` (a name or a literal) for stream or datagram sockets, in the system
    /// resolver's order (a blocking call); the failure is the resolver's reason.
    package static func resolve(
        host: String, port: Int, stream: Bool
    ) -> Result<[SocketAddress], SocketAddressLookupFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = socketType(stream: stream)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(SocketAddressLookupFailure(reason: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            let family = current.pointee.ai_family
            guard family == AF_INET || family == AF_INET6 else { continue }
            addresses.append(SocketAddress(copying: address, length: current.pointee.ai_addrlen))
        }
        return .success(addresses)
    }

    /// A new socket of this address's family bound to it, and the address it got (the port the
    /// system chose for port 0); nil when `socket`, `bind` or `getsockname` fails (the descriptor is
    /// closed then). `SO_REUSEADDR` is set, so a test server's port can be bound again at once.
    package func bound(stream: Bool) -> (descriptor: Int32, address: SocketAddress)? {
        let descriptor = socket(family, Self.socketType(stream: stream), 0)
        guard descriptor >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var got = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok =
            withSockaddr { bind(descriptor, $0, $1) } == 0
            && withUnsafeMutablePointer(to: &got) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
            } == 0
        guard ok else {
            close(descriptor)
            return nil
        }
        let address = withUnsafePointer(to: &got) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress(copying: $0, length: size) }
        }
        return (descriptor, address)
    }
}

/// Why ``SocketAddress/resolve(host:port:stream:)`` found no address: the system resolver's reason.
package struct SocketAddressLookupFailure: Error, Sendable {
    /// What `gai_strerror` said.
    package var reason: String
}
