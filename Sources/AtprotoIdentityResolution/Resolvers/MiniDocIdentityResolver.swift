import AtprotoSyntax
import Foundation
import XRPCAgents
import XRPCCore

/// Resolves identities through a caching identity service (slingshot) and its
/// `com.bad-example.identity.resolveMiniDoc`: one HTTPS call, no DNS on the device.
///
/// The service checks the handle both ways itself and answers `{did, handle, pds, signing_key}`; a
/// handle that failed its check comes back as `handle.invalid`. This resolver trusts the service for
/// that, and checks what it can: the syntax of every field, that the DID is the one asked for, that the
/// handle is the one asked for, and that the key parses. ``resolveDID(_:)`` returns a document built
/// from the mini-doc (`id`, `alsoKnownAs`, `#atproto`, `#atproto_pds`); use a ``DIDResolver`` when you
/// need the full document.
public struct MiniDocIdentityResolver: IdentityResolver {
    /// The method's NSID; newer services also answer it as `blue.microcosm.identity.resolveMiniDoc`.
    public var nsid: NSID
    /// The service asked.
    public var service: URL
    /// Sends the XRPC calls.
    public var agent: any XRPCAgent
    /// The longest one call may take.
    public var timeout: Duration
    /// The largest answer read.
    public var maximumAnswerSize: Int

    /// The NSID slingshot has always answered.
    public static let badExampleNSID: NSID = "com.bad-example.identity.resolveMiniDoc"
    /// The newer name of the same method.
    public static let microcosmNSID: NSID = "blue.microcosm.identity.resolveMiniDoc"

    /// Creates a resolver that asks `service` (for example `https://slingshot.microcosm.blue`).
    public init(
        service: URL,
        agent: (any XRPCAgent)? = nil,
        nsid: NSID = MiniDocIdentityResolver.badExampleNSID,
        timeout: Duration = .seconds(10),
        maximumAnswerSize: Int = 64 * 1024
    ) {
        self.service = service
        self.agent = agent ?? URLSessionAgent(serviceURL: service)
        self.nsid = nsid
        self.timeout = timeout
        self.maximumAnswerSize = maximumAnswerSize
    }

    /// The DID of `handle`, checked both ways by the service.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        try await resolveIdentity(ATIdentifier(handle)).did
    }

    /// A document built from the DID's mini-doc; see the type's description.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        try await resolveIdentity(ATIdentifier(did)).document
    }

    /// Nothing to forget here: this resolver keeps no answers and asks the service every time (the
    /// service's own cache is its own to refresh).
    public func invalidate(did: DID) async {}

    /// The identity of `identifier` as the service resolved it.
    ///
    /// Asked by handle, a handle the service could not verify is ``IdentityError/Code/handleMismatch``;
    /// asked by DID, it comes back as ``AtprotoIdentity/HandleStatus/invalid(claimed:reason:)``.
    public func resolveIdentity(_ identifier: ATIdentifier) async throws(IdentityError) -> AtprotoIdentity {
        if let problem = ATIdentifier.syntaxError(in: identifier.rawValue) {
            throw IdentityError(.invalidIdentifier, identifier: identifier.rawValue, message: problem)
        }
        let asked = identifier.handle?.normalized.rawValue ?? identifier.rawValue
        let request = XRPCRequest(
            method: .get, nsid: nsid, queryItems: [URLQueryItem(name: "identifier", value: asked)],
            headers: ["Accept": "application/json"], serviceURL: service, timeout: timeout)
        let response: XRPCResponse
        do {
            response = try await agent.send(request)
        } catch let error as XRPCTransportError {
            let kind: IdentityError.Code =
                error.code == .timedOut ? .timedOut : error.code == .cancelled ? .cancelled : .unreachable
            throw IdentityError(kind, identifier: asked, message: error.description)
        } catch {
            throw IdentityError(
                .unreachable, identifier: asked, message: "\(nsid) on \(service.absoluteString): \(error)")
        }
        let answer = try MiniDocAnswer(
            response, nsid: nsid, service: service, asked: identifier, maximumSize: maximumAnswerSize)
        if let did = identifier.did, answer.did != did {
            throw IdentityError(
                .documentMismatch, identifier: asked,
                message: "\(nsid) answered for \(answer.did.rawValue), not the DID asked")
        }
        let document = answer.document
        if let handle = identifier.handle?.normalized {
            guard answer.handle == handle else {
                throw IdentityError(
                    .handleMismatch, identifier: asked,
                    message: "\(nsid) answered handle \(answer.handle.rawValue) for \(answer.did.rawValue)")
            }
            return AtprotoIdentity(did: answer.did, handleStatus: .verified(handle), document: document)
        }
        let status: AtprotoIdentity.HandleStatus =
            answer.handle == ATHandle.invalid
            ? .invalid(claimed: nil, reason: "the identity service could not verify the handle")
            : .verified(answer.handle)
        return AtprotoIdentity(did: answer.did, handleStatus: status, document: document)
    }
}
