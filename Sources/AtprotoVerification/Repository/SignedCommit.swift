import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation

/// A repository commit: the signed object at the top of every repository, naming its MST root.
public struct SignedCommit: Sendable, Hashable {
    /// The CID of the commit block.
    public var cid: ContentID
    /// The account whose repository this is.
    public var did: DID
    /// The repository format version (3; 2 is read too).
    public var version: Int
    /// The root of the MST of records.
    public var data: ContentID
    /// The revision: a TID, increasing with every commit.
    public var rev: String
    /// The previous commit, if the writer named it (usually `nil` in version 3).
    public var prev: ContentID?
    /// The signature: 64 bytes, compact `r || s`.
    public var signature: [UInt8]
    /// The bytes that were signed: the commit without `sig`, as canonical DAG-CBOR.
    public var unsignedBytes: [UInt8]

    /// Reads a commit block.
    ///
    /// - Throws: ``VerificationError`` (``VerificationError/Code/malformedData``) naming the field.
    public init(block bytes: Data, cid: ContentID) throws(VerificationError) {
        let value: DataModelValue
        do {
            value = try DAGCBOR.decode(bytes)
        } catch {
            throw VerificationError(.malformedData, message: "commit \(cid): not DAG-CBOR: \(error)")
        }
        guard case .map(var fields) = value else {
            throw VerificationError(.malformedData, message: "commit \(cid): not a map")
        }
        guard case .string(let did)? = fields["did"], DID.syntaxError(in: did) == nil else {
            throw VerificationError(.malformedData, message: "commit \(cid): did is missing or not a DID")
        }
        guard case .integer(let version)? = fields["version"], version == 3 || version == 2 else {
            throw VerificationError(.malformedData, message: "commit \(cid): version must be 3 (or 2)")
        }
        guard case .link(let data)? = fields["data"] else {
            throw VerificationError(.malformedData, message: "commit \(cid): data is missing or not a link")
        }
        guard case .string(let rev)? = fields["rev"] else {
            throw VerificationError(.malformedData, message: "commit \(cid): rev is missing or not a string")
        }
        guard case .bytes(let signature)? = fields.removeValue(forKey: "sig") else {
            throw VerificationError(.malformedData, message: "commit \(cid): sig is missing or not bytes")
        }
        switch fields["prev"] {
        case nil, .null?: prev = nil
        case .link(let link)?: prev = link
        default: throw VerificationError(.malformedData, message: "commit \(cid): prev must be a link or null")
        }
        self.cid = cid
        self.did = DID(rawValue: did)
        self.version = version
        self.data = data
        self.rev = rev
        self.signature = Array(signature)
        self.unsignedBytes = DAGCBOR.encode(.map(fields))
    }

    /// Checks the signature with `key`: 64-byte compact `r || s`, low-S, SHA-256 of ``unsignedBytes``.
    public func isSigned(by key: PublicKey) -> Bool {
        signature.count == 64 && key.isValidSignature(signature, for: unsignedBytes)
    }

    /// Throws ``VerificationError/Code/badSignature`` unless ``isSigned(by:)``.
    public func checkSignature(by key: PublicKey) throws(VerificationError) {
        guard signature.count == 64 else {
            throw VerificationError(
                .badSignature, message: "commit \(cid): the signature is \(signature.count) bytes, not 64")
        }
        guard key.isValidSignature(signature, for: unsignedBytes) else {
            throw VerificationError(
                .badSignature, message: "commit \(cid) of \(did.rawValue) is not signed by \(key.didKey)")
        }
    }
}
