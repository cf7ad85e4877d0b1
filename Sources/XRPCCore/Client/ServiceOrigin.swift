import Foundation

/// The origin of a URL (scheme, host and port, compared without regard to case): where credentials
/// belong.
package struct ServiceOrigin: Sendable, Hashable, CustomStringConvertible {
    package private(set) var scheme: String
    package let host: String
    package let port: Int

    /// The origin of `url`, or `nil` when it has no scheme or host.
    package init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        if let port = url.port {
            self.port = port
        } else {
            switch scheme {
            case "https", "wss": self.port = 443
            case "http", "ws": self.port = 80
            default: self.port = -1
            }
        }
    }

    /// The origin of `url` with a WebSocket scheme read as its HTTP one (`wss` as `https`, `ws` as
    /// `http`): an event stream's URL compared with the services an agent holds credentials for.
    package static func httpEquivalent(of url: URL) -> ServiceOrigin? {
        guard var origin = ServiceOrigin(url) else { return nil }
        switch origin.scheme {
        case "wss": origin.scheme = "https"
        case "ws": origin.scheme = "http"
        default: break
        }
        return origin
    }

    package var description: String {
        let standard = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return standard ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}
