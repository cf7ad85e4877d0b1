import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation
import XRPCCore

/// A `resolveMiniDoc` answer, checked field by field.
struct MiniDocAnswer {
    var did: DID
    var handle: ATHandle
    var pds: URL
    var signingKey: AtprotoPublicKey

    /// Reads the answer to a question about `asked`; an unknown identifier is `handleNotFound` when
    /// `asked` is a handle and `didNotFound` when it is a DID.
    init(_ response: XRPCResponse, nsid: NSID, service: URL, asked: ATIdentifier, maximumSize: Int)
        throws(IdentityError)
    {
        let place = "\(nsid) on \(service.absoluteString)"
        let notFound: IdentityError.Code = asked.did == nil ? .handleNotFound : .didNotFound
        let asked = asked.handle?.normalized.rawValue ?? asked.rawValue
        guard response.isSuccess else {
            let error = XRPCError.fromResponse(response, nsid: nsid)
            let kind = error.name == "NotFound" || response.status == 404 ? notFound : .unexpectedStatus
            throw IdentityError(kind, identifier: asked, message: "\(place): \(error)")
        }
        guard response.body.count <= maximumSize else {
            throw IdentityError(
                .answerTooLarge, identifier: asked,
                message: "\(place): \(response.body.count) bytes, over \(maximumSize)")
        }
        let fields: [String: JSONValue]
        do {
            guard let object = try JSONValue.parse(response.body).objectValue else {
                throw IdentityError(
                    .malformedAnswer, identifier: asked, message: "\(place): the answer is not a JSON object")
            }
            fields = object
        } catch let error as IdentityError {
            throw error
        } catch {
            throw IdentityError(.malformedAnswer, identifier: asked, message: "\(place): not JSON: \(error)")
        }
        func text(_ key: String) throws(IdentityError) -> String {
            guard let value = fields[key]?.stringValue else {
                throw IdentityError(
                    .malformedAnswer, identifier: asked, message: "\(place): $.\(key) is missing or not a string")
            }
            return value
        }
        let didText = try text("did")
        let handleText = try text("handle").lowercased()
        let pdsText = try text("pds")
        let keyText = try text("signing_key")
        guard DID.syntaxError(in: didText) == nil, ATHandle.syntaxError(in: handleText) == nil else {
            throw IdentityError(
                .malformedAnswer, identifier: asked, message: "\(place): $.did or $.handle is not valid syntax")
        }
        let service = DIDDocument.Service(id: "#atproto_pds", type: "AtprotoPersonalDataServer", endpoint: pdsText)
        guard let pds = service.endpointURL else {
            throw IdentityError(.malformedAnswer, identifier: asked, message: "\(place): $.pds is not an http(s) URL")
        }
        do {
            signingKey =
                keyText.hasPrefix("did:key:")
                ? try AtprotoPublicKey(didKey: keyText) : try AtprotoPublicKey(multikey: keyText)
        } catch {
            throw IdentityError(.malformedAnswer, identifier: asked, message: "\(place): $.signing_key: \(error)")
        }
        self.did = DID(rawValue: didText)
        self.handle = ATHandle(rawValue: handleText)
        self.pds = pds
    }

    /// The minimal DID document the answer stands for.
    var document: DIDDocument {
        DIDDocument(
            id: did,
            alsoKnownAs: handle == ATHandle.invalid ? [] : ["at://" + handle.rawValue],
            verificationMethods: [
                DIDDocument.VerificationMethod(
                    id: did.rawValue + "#atproto", type: "Multikey", controller: did.rawValue,
                    publicKeyMultibase: signingKey.multikey)
            ],
            services: [
                DIDDocument.Service(id: "#atproto_pds", type: "AtprotoPersonalDataServer", endpoint: pds.absoluteString)
            ]
        )
    }
}
