import AtprotoSyntax
import Foundation

/// Resolves handles to DIDs.
public protocol HandleResolver: Sendable {
    /// The DID the handle names, as published (not yet checked against the DID's document).
    ///
    /// - Throws: ``IdentityError`` (``IdentityError/Code/handleNotFound`` when nothing is published).
    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID
}

/// Resolves DIDs to their documents.
public protocol DIDResolver: Sendable {
    /// The DID's document; its `id` is checked to be `did`.
    ///
    /// - Throws: ``IdentityError`` (``IdentityError/Code/unsupportedDIDMethod``,
    ///   ``IdentityError/Code/didNotFound``, ``IdentityError/Code/documentMismatch``, ...).
    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument
}

/// Resolves atproto identities: handle -> DID, DID -> document, and both checked together.
///
/// The shape of `XRPCAgent`: one protocol, several implementations, and the app's own wherever it
/// wants. ``StandardIdentityResolver`` resolves on the device (DNS, HTTPS, a PLC directory, did:web);
/// ``MiniDocIdentityResolver`` asks a caching identity service; ``CachingIdentityResolver`` wraps
/// either.
///
/// ```swift
/// let resolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
/// let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: "alice.example.com"))
/// identity.did, identity.handle, identity.pdsEndpoint, try identity.signingKey()
/// ```
public protocol IdentityResolver: HandleResolver, DIDResolver {
    /// The identity of a handle or DID, with the handle checked both ways.
    ///
    /// - For a handle: its DID's document must claim the handle back, else
    ///   ``IdentityError/Code/handleMismatch``.
    /// - For a DID: the handle its document claims is resolved; when it does not name this DID, the
    ///   identity comes back with ``AtprotoIdentity/HandleStatus/invalid(claimed:reason:)`` rather than
    ///   an error, since the DID itself is sound.
    func resolveIdentity(_ identifier: ATIdentifier) async throws(IdentityError) -> AtprotoIdentity

    /// Forgets whatever this resolver holds about `did` (its document, its identity, handles that
    /// named it), so the next resolution asks again: called when a key may have rotated (a commit
    /// whose signature no longer checks) or the firehose announces an `#identity` event.
    ///
    /// No default: a resolver that keeps nothing says so with an empty implementation, and one that
    /// wraps another forgets its own answers and forwards the call, so a cache below a wrapper is
    /// never left stale.
    func invalidate(did: DID) async
}

extension IdentityResolver {
    /// Resolves the identity from ``resolveHandle(_:)`` and ``resolveDID(_:)``, checking the handle
    /// both ways; see ``IdentityResolver/resolveIdentity(_:)``.
    public func resolveIdentity(_ identifier: ATIdentifier) async throws(IdentityError) -> AtprotoIdentity {
        try await IdentityCheck.resolve(identifier, with: self)
    }
}

/// The two-way handle check, shared by every resolver that resolves its parts itself.
enum IdentityCheck {
    static func resolve(_ identifier: ATIdentifier, with resolver: some IdentityResolver) async throws(IdentityError)
        -> AtprotoIdentity
    {
        if let problem = ATIdentifier.syntaxError(in: identifier.rawValue) {
            throw IdentityError(.invalidIdentifier, identifier: identifier.rawValue, message: problem)
        }
        if let did = identifier.did {
            let document = try await resolver.resolveDID(did)
            let status = try await handleStatus(of: document, with: resolver)
            return AtprotoIdentity(did: did, handleStatus: status, document: document)
        }
        let handle = ATHandle(rawValue: identifier.rawValue).normalized
        let did = try await resolver.resolveHandle(handle)
        let document = try await resolver.resolveDID(did)
        guard let claimed = document.handle, claimed == handle else {
            let claim = document.handle.map { "claims \($0.rawValue)" } ?? "claims no handle"
            throw IdentityError(
                .handleMismatch, identifier: handle.rawValue,
                message: "the handle names \(did.rawValue), whose DID document \(claim)")
        }
        return AtprotoIdentity(did: did, handleStatus: .verified(handle), document: document)
    }

    /// Whether the handle the document claims resolves back to the document's DID.
    ///
    /// Only cancellation is thrown: any other failure makes the handle invalid, not the identity.
    static func handleStatus(of document: DIDDocument, with resolver: some HandleResolver) async throws(IdentityError)
        -> AtprotoIdentity.HandleStatus
    {
        guard let claimed = document.handle else {
            return .invalid(claimed: nil, reason: "the DID document claims no handle")
        }
        do {
            let back = try await resolver.resolveHandle(claimed)
            guard back == document.id else {
                return .invalid(claimed: claimed, reason: "\(claimed.rawValue) names \(back.rawValue), not this DID")
            }
            return .verified(claimed)
        } catch {
            if error.code == .cancelled { throw error }
            return .invalid(claimed: claimed, reason: "\(claimed.rawValue) did not resolve: \(error.message)")
        }
    }
}
