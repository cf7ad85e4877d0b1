import AtprotoIdentityResolution
import Foundation

/// Fetches the documents of some hosts from a local server instead, with the host asked in the
/// `Host` header (the loopback server or the shared PDS answers by it), and every other URL as asked:
/// how the benchmarks resolve `alice.test` handles through the public `HTTPFetcher` seam.
public struct LocalHostFetcher: HTTPFetcher {
    /// Base URLs by lower-cased host name.
    public var servers: [String: URL]
    /// What fetches, the rewritten URLs too.
    public var network: any HTTPFetcher

    /// Sends requests for each host of `servers` to its base URL, through `network`.
    public init(_ servers: [String: URL], network: any HTTPFetcher = URLSessionFetcher()) {
        self.servers = Dictionary(servers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.network = network
    }

    /// Fetches `request`, its URL rewritten when its host is one of ``servers``.
    public func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse {
        guard let host = request.url.host?.lowercased(), let base = servers[host] else {
            return try await network.fetch(request)
        }
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        var rewritten = request
        rewritten.url = URL(string: text + request.url.path) ?? request.url
        rewritten.headers["Host"] = host
        return try await network.fetch(rewritten)
    }
}
