import AtprotoSyntax
import Foundation
import XRPCAgents
import XRPCCore

extension PasswordSession {
    /// Creates a session logged in by handle or DID on the account's own PDS, found by resolving the
    /// identifier.
    ///
    /// The handle is checked both ways first; the server must answer for the DID resolved, and any
    /// PDS it names must be the one in the DID document (the session keeps checking that after each
    /// refresh). Calls then go to that PDS.
    ///
    /// ```swift
    /// let resolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
    /// let session = try await PasswordSession(
    ///     loggingIn: ATIdentifier(rawValue: "alice.example.com"), password: appPassword, resolver: resolver)
    /// let client = XRPCClient(agent: session)
    /// ```
    ///
    /// - Throws: ``IdentityError`` when the identifier does not resolve to an account with a PDS, or
    ///   the server answered for another account (``IdentityError/Code/serviceMismatch``);
    ///   `PasswordSessionError` when the server refused the login.
    public init(
        loggingIn identifier: ATIdentifier,
        password: String,
        authFactorToken: String? = nil,
        resolver: any IdentityResolver,
        agent: (any XRPCAgent)? = nil,
        credentialsProvider: CredentialsProvider? = nil
    ) async throws {
        let identity = try await resolver.resolveIdentity(identifier)
        let pds = try identity.requirePDS()
        self.init(
            service: pds, agent: agent, credentialsProvider: credentialsProvider,
            accountCheck: resolver.accountCheck(expecting: identity.did))
        try await login(ATIdentifier(identity.did), password: password, authFactorToken: authFactorToken)
    }
}

extension IdentityResolver {
    /// A `PasswordSession.AccountCheck` that checks each session state against the account's DID
    /// document: the PDS the server names (if any) must be the document's, and calls are routed to the
    /// document's PDS. Use it when logging in through an entryway:
    ///
    /// ```swift
    /// let session = PasswordSession(service: entryway, accountCheck: resolver.accountCheck())
    /// ```
    ///
    /// - Parameter expected: The DID the session must be for, when known before login.
    public func accountCheck(expecting expected: DID? = nil) -> PasswordSession.AccountCheck {
        { archive in
            if let expected, archive.did != expected {
                throw IdentityError(
                    .serviceMismatch, identifier: expected.rawValue,
                    message: "the server logged in \(archive.did.rawValue), not the account resolved")
            }
            let document = try await self.resolveDID(archive.did)
            guard let pds = document.pdsEndpoint else {
                throw IdentityError(
                    .missingPDS, identifier: archive.did.rawValue, message: "the DID document names no #atproto_pds")
            }
            if let claimed = archive.pdsEndpoint, ServiceOrigin(claimed) != ServiceOrigin(pds) {
                throw IdentityError(
                    .serviceMismatch, identifier: archive.did.rawValue,
                    message: "the server named PDS \(claimed.absoluteString), the DID document \(pds.absoluteString)")
            }
            var checked = archive
            checked.pdsEndpoint = pds
            return checked
        }
    }
}
