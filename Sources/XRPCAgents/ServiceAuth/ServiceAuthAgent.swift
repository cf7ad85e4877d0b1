import AtprotoSyntax
import Foundation
import XRPCCore

/// An agent for calls to a service that wants service auth (a feed generator's endpoints, a video
/// service): each call gets a fresh token from the user's PDS, bound to the call's method, and goes to
/// the service through `agent`.
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
    /// The service's DID (`did:web:...`): each token's `aud`, with ``serviceID`` after a `#` when set.
    public let audience: DID
    /// The service's entry in its DID document (`atproto_labeler` for `did#atproto_labeler`), when the
    /// service wants tokens addressed to it rather than to the DID alone.
    public let serviceID: String?
    /// What sends the calls to the service.
    public let agent: any XRPCAgent

    /// An agent that asks `session`'s PDS for tokens for `audience` (and `serviceID`, when given) and
    /// sends through `agent`.
    public init(session: any XRPCAgent, audience: DID, serviceID: String? = nil, agent: any XRPCAgent) {
        self.tokens = ServiceAuthTokens(agent: session)
        self.audience = audience
        self.serviceID = serviceID
        self.agent = agent
    }

    /// Sends `request` with a token bound to its method.
    public func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        var request = request
        let token = try await tokens.token(for: audience, serviceID: serviceID, method: request.nsid)
        request.setHeader("Authorization", "Bearer " + token)
        return try await agent.send(request)
    }

    /// The service of the agent it sends through.
    public func defaultServiceURL() async -> URL? {
        await agent.defaultServiceURL()
    }

    /// The headers of the agent it sends through, with a token bound to the subscription's method (the last segment
    /// of `/xrpc/<nsid>`); a new token for each connection.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        var headers = try await agent.eventStreamHeaders(for: url, rejection: rejection)
        let method = NSID(rawValue: url.lastPathComponent)
        headers["Authorization"] =
            "Bearer " + (try await tokens.token(for: audience, serviceID: serviceID, method: method))
        return headers
    }
}
