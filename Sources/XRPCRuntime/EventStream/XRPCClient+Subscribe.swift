import Foundation

extension XRPCClient {
    /// Subscribes to an event stream: `GET /xrpc/<nsid>?<parameters>` upgraded to a WebSocket on
    /// the service of ``eventStreams``, read as the subscription's messages.
    ///
    /// Nothing connects until the returned sequence is iterated. Generated code calls this behind
    /// `client.com.atproto.sync.subscribeRepos(cursor:)`.
    public func subscribe<E: XRPCSubscription>(_ endpoint: E.Type, parameters: E.Parameters) -> XRPCEventStream<E> {
        let service = eventStreams.serviceURL ?? (agent as? URLSessionAgent)?.serviceURL
        return XRPCEventStream(
            url: service.flatMap { Self.eventStreamURL(service: $0, nsid: E.nsid, queryItems: parameters.queryItems) },
            options: eventStreams)
    }

    /// `<service>/xrpc/<nsid>?<query>` with the scheme made a WebSocket one (`https` -> `wss`,
    /// `http` -> `ws`); `nil` for a URL that has no host or another scheme.
    static func eventStreamURL(service: URL, nsid: String, queryItems: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: service, resolvingAgainstBaseURL: true), components.host != nil
        else { return nil }
        switch components.scheme?.lowercased() {
        case "https", "wss": components.scheme = "wss"
        case "http", "ws": components.scheme = "ws"
        default: return nil
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + "/xrpc/" + nsid
        components.queryItems = queryItems.isEmpty ? nil : queryItems
        return components.url
    }
}
