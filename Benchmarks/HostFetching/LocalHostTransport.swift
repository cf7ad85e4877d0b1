import AtprotoIdentityResolution
import Foundation

/// Sends the requests for some hosts to a local server instead, with the host asked in the `Host`
/// header (the loopback server or the shared PDS answers by it), and every other request as asked:
/// how the benchmarks resolve `alice.test` handles through the public `HTTPTransport` seam.
public struct LocalHostTransport: HTTPTransport {
    /// Base URLs by lower-cased host name.
    public var servers: [String: URL]
    /// What sends, the rewritten requests too.
    public var network: any HTTPTransport

    /// Sends requests for each host of `servers` to its base URL, through `network`.
    public init(
        _ servers: [String: URL], network: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30))
    ) {
        self.servers = Dictionary(servers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.network = network
    }

    /// Sends `request`, its URL rewritten when its host is one of ``servers``.
    public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        guard let host = request.url.host?.lowercased(), let base = servers[host] else {
            return try await network.send(request)
        }
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        var rewritten = request
        rewritten.url = URL(string: text + request.url.path) ?? request.url
        rewritten.headers["Host"] = host
        return try await network.send(rewritten)
    }
}
