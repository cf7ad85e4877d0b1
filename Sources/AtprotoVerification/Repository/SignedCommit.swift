import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation

/// A repository commit: the signed object at the top of every repository, naming its MST root.
public struct SignedCommit: Sendable, Hashable {
    /// The CID of the commit block.
    public var cid: CID
    /// The account whose repository this is.
    public var did: DID
    /// The repository format version (3; 2 is read too).
    public var version: Int
    /// The root of the MST of records.
    public var data: CID
    /// The revision: a TID, increasing with every commit.
    public var rev: String
    /// The previous commit, if the writer named it (usually `nil` in version 3).
    public var prev: CID?
    /// The signature: 64 bytes, compact `r || s`.
    public var signature: [UInt8]
    /// The bytes that were signed: the commit without `sig`, as canonical DAG-CBOR.
    public var unsignedBytes: [UInt8]

    /// Reads a commit block.
    ///
    /// - Throws: ``AtprotoVerificationError`` (``AtprotoVerificationError/Code/malformedData``) naming the field.
    public init(block bytes: Data, cid: CID) throws(AtprotoVerificationError) {
        let value: AtprotoDataModelValue
        do {
            value = try DAGCBOR.decode(bytes)
        } catch {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): not DAG-CBOR: \(error)")
        }
        guard case .map(var fields) = value else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): not a map")
        }
        guard case .string(let did)? = fields["did"], DID.syntaxError(in: did) == nil else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): did is missing or not a DID")
        }
        guard case .integer(let version)? = fields["version"], version == 3 || version == 2 else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): version must be 3 (or 2)")
        }
        guard case .link(let data)? = fields["data"] else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): data is missing or not a link")
        }
        guard case .string(let rev)? = fields["rev"] else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): rev is missing or not a string")
        }
        guard case .bytes(let signature)? = fields.removeValue(forKey: "sig") else {
            throw AtprotoVerificationError(.malformedData, message: "commit \(cid): sig is missing or not bytes")
        }
        switch fields["prev"] {
        case nil, .null?: prev = nil
        case .link(let link)?: prev = link
        default: throw AtprotoVerificationError(.malformedData, message: "commit \(cid): prev must be a link or null")
        }
        self.cid = cid
        self.did = DID(rawValue: did)
        self.version = version
        self.data = data
        self.rev = rev
        self.signature = Array(signature)
        // The decoder took only canonical DAG-CBOR, which is what encoding `fields` writes: the
        // signed bytes are the block's own with the `sig` entry cut out (`fields` re-encoded only if
        // the block cannot be cut, which a block the decoder took never is).
        self.unsignedBytes = bytes.withUnsafeBytes { Self.cuttingSignature(from: $0) } ?? DAGCBOR.encode(.map(fields))
    }

    /// The canonical DAG-CBOR map in `block` without its top-level `sig` entry: the map's header
    /// with one entry fewer, then the entries around `sig` as they are. Nil when `block` is not one
    /// map with one `sig` key. `block` must be DAG-CBOR that `DAGCBOR.decode` took, whose entries
    /// are canonical already; only lengths are read here.
    static func cuttingSignature(from block: UnsafeRawBufferPointer) -> [UInt8]? {
        var reader = CBORSkipper(block)
        guard let (major, count) = reader.header(), major == 5, count > 0 else { return nil }
        let entriesStart = reader.offset
        var signature: Range<Int>?
        for _ in 0..<count {
            let keyStart = reader.offset
            guard let (keyMajor, keyLength) = reader.header(), keyMajor == 3, keyLength <= reader.remaining else {
                return nil
            }
            let isSignature =
                keyLength == 3 && block[reader.offset] == 0x73 && block[reader.offset + 1] == 0x69
                && block[reader.offset + 2] == 0x67
            reader.offset += Int(keyLength)
            guard reader.skipValue() else { return nil }
            if isSignature {
                guard signature == nil else { return nil }
                signature = keyStart..<reader.offset
            }
        }
        guard let signature, reader.offset == block.count else { return nil }
        var unsigned: [UInt8] = []
        unsigned.reserveCapacity(block.count - signature.count)
        CBORSkipper.appendHeader(major: 5, count - 1, to: &unsigned)
        unsigned.append(contentsOf: block[entriesStart..<signature.lowerBound])
        unsigned.append(contentsOf: block[signature.upperBound...])
        return unsigned
    }

    /// Checks the signature with `key`: 64-byte compact `r || s`, low-S, SHA-256 of ``unsignedBytes``.
    public func isSigned(by key: AtprotoPublicKey) -> Bool {
        signature.count == 64 && key.isValidSignature(signature, for: unsignedBytes)
    }

    /// Throws ``AtprotoVerificationError/Code/badSignature`` unless ``isSigned(by:)``.
    public func checkSignature(by key: AtprotoPublicKey) throws(AtprotoVerificationError) {
        guard signature.count == 64 else {
            throw AtprotoVerificationError(
                .badSignature, message: "commit \(cid): the signature is \(signature.count) bytes, not 64")
        }
        guard key.isValidSignature(signature, for: unsignedBytes) else {
            throw AtprotoVerificationError(
                .badSignature, message: "commit \(cid) of \(did.rawValue) is not signed by \(key.didKey)")
        }
    }
}
