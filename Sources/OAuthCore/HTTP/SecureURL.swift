import Foundation

/// The transport rule of OAuth: https everywhere, plain http only on loopback hosts (development).
package enum SecureURL {
    /// Whether `url` is https, or http on `localhost`, `127.0.0.0/8` or `[::1]`; never with user
    /// info.
    package static func isAllowed(_ url: URL) -> Bool {
        guard url.user == nil, url.password == nil, let host = url.host, !host.isEmpty else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return isLoopback(host: host)
        default: return false
        }
    }

    /// Whether `host` is a loopback name or address.
    package static func isLoopback(host: String) -> Bool {
        let lowered = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if lowered == "localhost" || lowered == "::1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `url`, or ``OAuthError/Code/insecureURL`` naming `what`.
    package static func require(_ url: URL, _ what: String) throws(OAuthError) -> URL {
        guard isAllowed(url) else {
            throw OAuthError(
                .insecureURL, message: "\(what) \(url.absoluteString) is not https (http only on loopback)")
        }
        return url
    }

    /// `scheme://host[:port]` in lower case, the key of per-origin state such as DPoP nonces.
    package static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        var text = scheme + "://" + (url.host?.lowercased() ?? "")
        if let port = url.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            text += ":\(port)"
        }
        return text
    }
}
