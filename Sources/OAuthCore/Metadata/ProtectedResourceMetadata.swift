import Foundation
import HTTPTransport

/// Protected resource metadata (RFC 9728): which authorization servers a resource server (an
/// atproto PDS) trusts.
public struct ProtectedResourceMetadata: Sendable, Hashable, Codable {
    /// The resource: the URL the document was fetched for.
    public var resource: String
    /// The issuers of the authorization servers the resource accepts tokens from.
    public var authorizationServers: [String]?
    /// Scopes the resource knows.
    public var scopesSupported: [String]?

    private enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
    }

    /// The checks: `resource` is exactly `resource` (the URL fetched for, compared without a trailing
    /// `/`), and at least one authorization server is named.
    public func validate(fetchedFor resource: String) throws(OAuthError) {
        func trimmed(_ text: String) -> String {
            var text = text
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        guard trimmed(self.resource) == trimmed(resource) else {
            throw OAuthError(
                .invalidMetadata,
                message: "the resource metadata of \(resource) names another resource, \(self.resource.prefix(200))")
        }
        guard let first = authorizationServers?.first, !first.isEmpty else {
            throw OAuthError(
                .invalidMetadata, message: "the resource metadata of \(resource) names no authorization server")
        }
    }

    /// The authorization server the atproto profile uses: the first one named.
    public var authorizationServer: String? { authorizationServers?.first }

    /// Fetches `<resource>/.well-known/oauth-protected-resource` and checks it.
    public static func fetch(resource: URL, using transport: any HTTPTransport) async throws(OAuthError)
        -> ProtectedResourceMetadata
    {
        _ = try SecureURL.require(resource, "the resource server")
        let url = try MetadataDocument.wellKnownURL(resource, "oauth-protected-resource")
        let metadata: ProtectedResourceMetadata = try await MetadataDocument.get(url, using: transport)
        try metadata.validate(fetchedFor: SecureURL.origin(of: resource))
        return metadata
    }
}
