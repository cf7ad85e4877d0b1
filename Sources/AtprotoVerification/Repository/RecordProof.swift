import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation

/// What a `com.atproto.sync.getRecord` CAR proves about one record path.
public struct RecordProof: Sendable, Hashable {
    /// The signed commit the proof starts from.
    public var commit: SignedCommit
    /// The record path proved: `collection/rkey`.
    public var path: String
    /// The record's CID and value when the repository holds it, `nil` when the proof shows it does not.
    public var record: (cid: CID, value: AtprotoDataModelValue)? {
        recordCID.flatMap { cid in recordValue.map { (cid, $0) } }
    }

    var recordCID: CID?
    var recordValue: AtprotoDataModelValue?

    /// Checks a getRecord CAR against the account's DID and key: the root is a commit by `did`,
    /// signed by `key`; the MST path from its `data` to `path` is complete (the record's CID, or a
    /// proof that there is none); the record block hashes to that CID.
    ///
    /// - Throws: ``AtprotoVerificationError``: `malformedData` (not a CAR, no commit root), `hashMismatch`,
    ///   `wrongDID`, `badSignature`, `brokenProof`, `limitExceeded`.
    public static func verify(
        car bytes: Data,
        did: DID,
        path: String,
        key: AtprotoPublicKey,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    ) throws(AtprotoVerificationError) -> RecordProof {
        let (commit, blocks) = try CommitCAR.read(bytes, limits: limits)
        guard commit.did == did else {
            throw AtprotoVerificationError(
                .wrongDID, message: "the commit is by \(commit.did.rawValue), not \(did.rawValue)")
        }
        try commit.checkSignature(by: key)
        return try proof(of: path, under: commit, blocks: blocks)
    }

    /// The proof of `path` under an already checked commit, in `blocks` whose hashes are checked
    /// (CommitCAR read them).
    static func proof(of path: String, under commit: SignedCommit, blocks: BlockMap) throws(AtprotoVerificationError)
        -> RecordProof
    {
        var tree = try MSTTree(root: commit.data, blocks: blocks)
        guard let cid = try tree.value(for: Array(path.utf8)) else {
            return RecordProof(commit: commit, path: path, recordCID: nil, recordValue: nil)
        }
        guard let recordBytes = blocks[cid] else {
            throw AtprotoVerificationError(
                .brokenProof, message: "the record block \(cid) of \(path) is not in the CAR")
        }
        do {
            return RecordProof(commit: commit, path: path, recordCID: cid, recordValue: try DAGCBOR.decode(recordBytes))
        } catch {
            throw AtprotoVerificationError(.malformedData, message: "the record \(path) is not DAG-CBOR: \(error)")
        }
    }

    public static func == (left: RecordProof, right: RecordProof) -> Bool {
        left.commit == right.commit && left.path == right.path && left.recordCID == right.recordCID
            && left.recordValue == right.recordValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(commit)
        hasher.combine(path)
        hasher.combine(recordCID)
    }
}

/// Bounds on what a verifier reads: hostile input costs little.
public struct AtprotoVerificationLimits: Sendable, Hashable {
    /// The largest CAR read, in bytes. Default 1 GiB (a whole repository); a record proof is far smaller.
    public var maximumCARSize: Int
    /// The most blocks a CAR may hold. Default 10 million. Reading stops at the first block past it.
    public var maximumBlocks: Int
    /// The most bytes one block may hold (its CID not counted). Default 4 MiB, as `CARFile.Limits`.
    public var maximumBlockSize: Int

    /// Creates limits.
    public init(maximumCARSize: Int = 1 << 30, maximumBlocks: Int = 10_000_000, maximumBlockSize: Int = 4 << 20) {
        self.maximumCARSize = maximumCARSize
        self.maximumBlocks = maximumBlocks
        self.maximumBlockSize = maximumBlockSize
    }
}

/// Reading a CAR whose root is a commit.
enum CommitCAR {
    /// The commit (the CAR's single root, or `root` when given, which the CAR's root must equal) and
    /// every block.
    static func read(_ bytes: Data, root expected: CID? = nil, limits: AtprotoVerificationLimits)
        throws(AtprotoVerificationError)
        -> (SignedCommit, BlockMap)
    {
        guard bytes.count <= limits.maximumCARSize else {
            throw AtprotoVerificationError(
                .limitExceeded, message: "the CAR is \(bytes.count) bytes, over \(limits.maximumCARSize)")
        }
        // Each block stays in `bytes`, found by CID through the map's table.
        var ranges: [(cid: Range<Int>, content: Range<Int>)] = []
        ranges.reserveCapacity(min(limits.maximumBlocks, bytes.count / 64))
        let roots: [CID]
        do {
            roots = try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in
                try CARFile.forEachBlock(
                    in: buffer, verifyingHashes: true,
                    limits: CARFile.Limits(
                        maximumBlocks: limits.maximumBlocks, maximumBlockSize: limits.maximumBlockSize)
                ) { cid, content in
                    // The CID's bytes come just before the content's.
                    ranges.append((content.lowerBound - cid.withUnsafeBytes(\.count)..<content.lowerBound, content))
                }
            }
        } catch {
            let kind: AtprotoVerificationError.Code =
                switch error.code {
                case .hashMismatch: .hashMismatch
                case .limitExceeded: .limitExceeded
                default: .malformedData
                }
            throw AtprotoVerificationError(kind, message: "the CAR: \(error)")
        }
        guard roots.count == 1, let root = roots.first else {
            throw AtprotoVerificationError(.malformedData, message: "the CAR has \(roots.count) roots, not one commit")
        }
        if let expected, expected != root {
            throw AtprotoVerificationError(
                .malformedData, message: "the CAR's root \(root) is not the commit \(expected)")
        }
        let blocks = BlockMap(car: bytes, blocks: ranges)
        guard let commitBytes = blocks[root] else {
            throw AtprotoVerificationError(.brokenProof, message: "the commit block \(root) is not in the CAR")
        }
        return (try SignedCommit(block: commitBytes, cid: root), blocks)
    }
}
