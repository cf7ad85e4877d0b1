import AtprotoSyntax
import Foundation
import XRPCCore

/// An agent for calls to a service that wants service auth (a feed generator's endpoints, a video
/// service): each call gets a fresh token from the user's PDS, bound to the call's method, and goes to
/// the service through `transport`.
///
/// ```swift
/// let feeds = XRPCClient(agent: ServiceAuthAgent(
///     session: session, audience: "did:web:feeds.example.com",
///     agent: URLSessionAgent(serviceURL: URL(string: "https://feeds.example.com")!)))
/// let page = try await feeds.app.bsky.feed.getFeedSkeleton(feed: feedURI)
/// ```
///
/// The session's own credentials never go to the service: only the token minted for it. Tokens are
/// not logged (requests show `Authorization` as `<redacted>`).
public struct ServiceAuthAgent: XRPCAgent {
    /// Where tokens come from.
    public let tokens: ServiceAuthTokens
    /// The service's DID (`did:web:...`), or `did#service`: each token's `aud`.
    public let audience: String
    /// What sends the calls to the service.
    public let transport: any XRPCAgent

    /// An agent that asks `session`'s PDS for tokens for `audience` and sends through `transport`.
    public init(session: any XRPCAgent, audience: String, transport: any XRPCAgent) {
        self.tokens = ServiceAuthTokens(agent: session)
        self.audience = audience
        self.transport = transport
    }

    /// Sends `request` with a token bound to its method.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        var request = request
        let token = try await tokens.token(for: audience, method: request.nsid)
        request.setHeader("Authorization", "Bearer " + token)
        return try await transport.send(request)
    }

    /// The transport's service.
    public func defaultServiceURL() async -> URL? {
        await transport.defaultServiceURL()
    }

    /// The transport's headers, with a token bound to the subscription's method (the last segment
    /// of `/xrpc/<nsid>`); a new token for each connection.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> [String: String] {
        var headers = try await transport.eventStreamHeaders(for: url, rejection: rejection)
        let method = NSID(rawValue: url.lastPathComponent)
        headers["Authorization"] = "Bearer " + (try await tokens.token(for: audience, method: method))
        return headers
    }
}
