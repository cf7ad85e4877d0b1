import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation
import HTTPTransport
import OAuthCore

extension OAuthError.Code {
    /// The account's identity could not be resolved (handle, DID document, PDS).
    public static let identity = OAuthError.Code(rawValue: "identity")
}

/// Where a sign-in goes: the authorization server (checked metadata) and, when the flow started from
/// a handle or DID, the account and its PDS.
public struct OAuthAuthorizationTarget: Sendable, Hashable {
    /// The account, when the flow started from a handle or DID.
    public var identity: AtprotoIdentity?
    /// The account's PDS, or the PDS / entryway the flow started from.
    public var resource: URL
    /// The authorization server's issuer.
    public var issuer: String
    /// Its metadata, checked against the atproto profile.
    public var metadata: AuthorizationServerMetadata

    /// Creates a target.
    public init(identity: AtprotoIdentity?, resource: URL, issuer: String, metadata: AuthorizationServerMetadata) {
        self.identity = identity
        self.resource = resource
        self.issuer = issuer
        self.metadata = metadata
    }
}

/// Finds and checks authorization servers: identity -> PDS -> protected resource metadata ->
/// authorization server -> its metadata; and the binding of a token's `sub` to an issuer.
struct OAuthDiscovery: Sendable {
    var resolver: any IdentityResolver
    var http: any HTTPTransport

    /// The target for a handle or DID.
    func target(for identifier: String) async throws(OAuthError) -> OAuthAuthorizationTarget {
        let identity = try await resolve(ATIdentifier(rawValue: identifier), identifier)
        let pds = try requirePDS(identity)
        let (issuer, metadata) = try await authorizationServer(of: pds)
        return OAuthAuthorizationTarget(identity: identity, resource: pds, issuer: issuer, metadata: metadata)
    }

    /// The target for a PDS or entryway URL: its resource metadata's authorization server, or, when it
    /// publishes no resource metadata, the URL itself as an authorization server (an entryway). Once a
    /// resource names its server, that server it is: a failure there is not retried elsewhere.
    func target(forServer url: URL) async throws(OAuthError) -> OAuthAuthorizationTarget {
        _ = try SecureURL.require(url, "the server")
        let resource: ProtectedResourceMetadata
        do {
            resource = try await ProtectedResourceMetadata.fetch(resource: url, using: http)
        } catch  where error.code == .invalidMetadata {
            let issuer = SecureURL.origin(of: url)
            let metadata = try await AuthorizationServerMetadata.fetch(issuer: issuer, using: http)
            return OAuthAuthorizationTarget(identity: nil, resource: url, issuer: issuer, metadata: metadata)
        }
        guard let issuer = resource.authorizationServer else {
            throw OAuthError(.invalidMetadata, message: "\(url.absoluteString) names no authorization server")
        }
        let metadata = try await AuthorizationServerMetadata.fetch(issuer: issuer, using: http)
        return OAuthAuthorizationTarget(identity: nil, resource: url, issuer: issuer, metadata: metadata)
    }

    /// The issuer a PDS names and that issuer's checked metadata.
    func authorizationServer(of pds: URL) async throws(OAuthError) -> (String, AuthorizationServerMetadata) {
        let resource = try await ProtectedResourceMetadata.fetch(resource: pds, using: http)
        guard let issuer = resource.authorizationServer else {
            throw OAuthError(.invalidMetadata, message: "\(pds.absoluteString) names no authorization server")
        }
        return (issuer, try await AuthorizationServerMetadata.fetch(issuer: issuer, using: http))
    }

    /// The check that keeps a hostile server from claiming someone else's account: `did` resolves to
    /// a PDS whose resource metadata names `issuer`. Returns the identity and its PDS.
    func verifyBinding(did: DID, issuer: String) async throws(OAuthError) -> (AtprotoIdentity, URL) {
        let identity = try await resolve(ATIdentifier(did), did.rawValue)
        let pds = try requirePDS(identity)
        let resource = try await ProtectedResourceMetadata.fetch(resource: pds, using: http)
        guard resource.authorizationServer == issuer else {
            throw OAuthError(
                .bindingMismatch,
                message: "the PDS of \(did.rawValue), \(pds.absoluteString), names the authorization server "
                    + "\(resource.authorizationServer ?? "none"), not \(issuer)")
        }
        return (identity, pds)
    }

    private func resolve(_ identifier: ATIdentifier, _ text: String) async throws(OAuthError) -> AtprotoIdentity {
        do {
            return try await resolver.resolveIdentity(identifier)
        } catch {
            let kind: OAuthError.Code =
                switch error.code {
                case .cancelled: .cancelled
                case .timedOut: .timedOut
                case .unreachable: .transport
                default: .identity
                }
            throw OAuthError(kind, message: "could not resolve \(text.prefix(300)): \(error.message)")
        }
    }

    private func requirePDS(_ identity: AtprotoIdentity) throws(OAuthError) -> URL {
        guard let pds = identity.pdsEndpoint else {
            throw OAuthError(.identity, message: "the DID document of \(identity.did.rawValue) names no PDS")
        }
        return try SecureURL.require(pds, "the PDS of \(identity.did.rawValue)")
    }
}
