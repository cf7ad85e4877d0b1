import AtprotoSyntax
import Foundation
import XRPCAgents
import XRPCCore

extension XRPCClient {
    /// A client whose calls go to the PDS of `identifier`, found by resolution: the place to read an
    /// account's repository (`com.atproto.repo.getRecord`, `com.atproto.sync.getRepo`) from its source.
    ///
    /// ```swift
    /// let pdsClient = try await client.forPDS(of: ATIdentifier(rawValue: "alice.example.com"), resolver: resolver)
    /// let record = try await pdsClient.com.atproto.repo.getRecord(repo: ..., collection: ..., rkey: ...)
    /// ```
    ///
    /// Calls and event streams go through this client's agent with the PDS as their service; a
    /// session adds its credentials (to calls and to stream upgrades) only if that PDS is its own.
    public func forPDS(of identifier: ATIdentifier, resolver: any IdentityResolver) async throws(IdentityError)
        -> XRPCClient
    {
        let identity = try await resolver.resolveIdentity(identifier)
        return routed(to: try identity.requirePDS())
    }
}
