import Foundation

extension XRPCClient {
    /// Subscribes to an event stream: `GET /xrpc/<nsid>?<parameters>` upgraded to a WebSocket on
    /// the service of ``eventStreams``, or else the agent's (``XRPCAgent/defaultServiceURL()``: a
    /// transport's service, a session's PDS), read as the subscription's messages.
    ///
    /// Before each connection the agent may add credentials to the upgrade request
    /// (``XRPCAgent/eventStreamHeaders(for:rejection:)``): a session does so for its own hosts, so
    /// authenticated subscriptions work through it. Nothing connects until the returned sequence is
    /// iterated. Generated code calls this behind `client.com.atproto.sync.subscribeRepos(cursor:)`.
    public func subscribe<E: XRPCSubscription>(_ endpoint: E.Type, parameters: E.Parameters) -> XRPCEventStream<E> {
        let queryItems = parameters.queryItems
        // A service known now gives the URL now; otherwise the agent names it at the first connection.
        let service = eventStreams.serviceURL ?? (agent as? any XRPCFixedServiceAgent)?.serviceURL
        return XRPCEventStream(
            url: service.flatMap { Self.eventStreamURL(service: $0, nsid: E.nsid, queryItems: queryItems) },
            options: eventStreams, agent: agent, queryItems: service == nil ? queryItems : nil)
    }

    /// `<service>/xrpc/<nsid>?<query>` with the scheme made a WebSocket one (`https` -> `wss`,
    /// `http` -> `ws`); `nil` for a URL that has no host or another scheme.
    static func eventStreamURL(service: URL, nsid: NSID, queryItems: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: service, resolvingAgainstBaseURL: true), components.host != nil
        else { return nil }
        switch components.scheme?.lowercased() {
        case "https", "wss": components.scheme = "wss"
        case "http", "ws": components.scheme = "ws"
        default: return nil
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + "/xrpc/" + nsid.rawValue
        components.queryItems = queryItems.isEmpty ? nil : queryItems
        return components.url
    }
}
