import AtprotoCrypto
import AtprotoSyntax
import Foundation

/// An account's identity, resolved and checked: its DID, its handle (when the handle verified both
/// ways), its PDS, its signing key and the DID document they came from.
public struct AtprotoIdentity: Sendable, Hashable, Codable {
    /// Whether the handle checked out both ways.
    public enum HandleStatus: Sendable, Hashable, Codable {
        /// The handle resolves to the DID, and the DID's document claims the handle (lower-cased).
        case verified(ATHandle)
        /// The document claims no handle, or claims one that does not resolve back to this DID.
        /// `claimed` is the handle in the document, if any; `reason` says what failed.
        case invalid(claimed: ATHandle?, reason: String)
    }

    /// The account's DID: the identifier that does not change.
    public var did: DID
    /// The handle and whether it verified.
    public var handleStatus: HandleStatus
    /// The DID document, as resolved.
    public var document: DIDDocument

    /// Creates an identity from its parts; resolvers make these, tests and custom resolvers may too.
    public init(did: DID, handleStatus: HandleStatus, document: DIDDocument) {
        self.did = did
        self.handleStatus = handleStatus
        self.document = document
    }

    /// The verified handle, or `handle.invalid` (what servers show) when it did not verify.
    public var handle: ATHandle {
        if case .verified(let handle) = handleStatus { return handle }
        return ATHandle.invalid
    }

    /// The verified handle, or `nil`.
    public var verifiedHandle: ATHandle? {
        if case .verified(let handle) = handleStatus { return handle }
        return nil
    }

    /// The account's PDS (`#atproto_pds`), or `nil` when the document names none.
    public var pdsEndpoint: URL? { document.pdsEndpoint }

    /// The account's PDS.
    ///
    /// - Throws: ``IdentityError/Code/missingPDS`` when the document names none.
    public func requirePDS() throws(IdentityError) -> URL {
        guard let url = document.pdsEndpoint else {
            throw IdentityError(
                .missingPDS, identifier: did.rawValue, message: "the DID document names no #atproto_pds service")
        }
        return url
    }

    /// The key the account signs its repository with (`#atproto`).
    ///
    /// - Throws: ``IdentityError/Code/missingSigningKey`` when the document lists none or it cannot be
    ///   read (the message says why).
    public func signingKey() throws(IdentityError) -> AtprotoPublicKey {
        let key: AtprotoPublicKey?
        do {
            key = try document.signingKey()
        } catch {
            throw IdentityError(
                .missingSigningKey, identifier: did.rawValue, message: "the #atproto key is unusable: \(error)")
        }
        guard let key else {
            throw IdentityError(
                .missingSigningKey, identifier: did.rawValue, message: "the DID document lists no #atproto key")
        }
        return key
    }
}
