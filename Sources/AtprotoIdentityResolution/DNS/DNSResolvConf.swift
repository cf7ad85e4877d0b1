import Foundation
import SocketAddresses

/// Reads the nameservers of a resolv.conf(5) file.
enum DNSResolvConf {
    /// The servers of the `nameserver` lines of `text`, in order and without repeats.
    ///
    /// Lines starting with `#` or `;` are comments, and so is the rest of a line from either; keywords
    /// other than `nameserver` (`search`, `domain`, `options`, `sortlist`) are ignored, and so are
    /// addresses that are no IPv4 or IPv6 literal. Every server is asked on port 53.
    static func nameservers(in text: String) -> [DNSNameserver] {
        var servers: [DNSNameserver] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.prefix { $0 != "#" && $0 != ";" }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0] == "nameserver" else { continue }
            let host = String(fields[1])
            let server = DNSNameserver(host: host)
            guard SocketAddress.isLiteral(host), !servers.contains(server) else { continue }
            servers.append(server)
        }
        return servers
    }

    /// The servers of the file at `path`; throws ``DNSError/Code/noNameservers`` when it cannot be
    /// read or names none.
    static func nameservers(atPath path: String) throws(DNSError) -> [DNSNameserver] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DNSError(.noNameservers, message: "cannot read \(path), so there is no nameserver to ask")
        }
        let servers = nameservers(in: String(decoding: data, as: UTF8.self))
        guard !servers.isEmpty else {
            throw DNSError(.noNameservers, message: "\(path) has no usable `nameserver` line (IPv4 or IPv6 address)")
        }
        return servers
    }
}
