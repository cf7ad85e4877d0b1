import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation
import XRPCCore

/// A whole repository (a `com.atproto.sync.getRepo` CAR), proved: every block hashes to its CID, the
/// commit is the account's and signed by its key, and the MST is well formed (every key a repository
/// path, at the height its hash gives, in strictly increasing order, no node missing or empty inside,
/// nothing below height 0). Then its records can be read in key order.
///
/// ```swift
/// let repository = try VerifiedRepository(car: bytes, did: did, key: try identity.signingKey())
/// for try await record in repository.records(decoding: .bluesky) {
///     if let post = record.record.as(AppBskyFeedPost.self) { ... }
/// }
/// ```
///
/// Memory: the CAR's blocks are held once (the repository's size), plus the list of record paths.
public struct VerifiedRepository: Sendable {
    /// One record of the repository.
    public struct Entry: Sendable {
        /// The record's path: `collection/rkey`.
        public var path: String
        /// The record's CID.
        public var cid: CID
        /// The record, typed when its collection is among the types given, else as JSON.
        public var record: DecodedRecord

        /// The collection NSID.
        public var collection: NSID { NSID(rawValue: String(path.prefix { $0 != "/" })) }
        /// The record key.
        public var recordKey: String { String(path.drop { $0 != "/" }.dropFirst()) }
    }

    /// The signed commit.
    public let commit: SignedCommit
    /// Every record path with its CID, in key order.
    public let index: [(path: String, cid: CID)]
    /// The size of the CAR, in bytes.
    public let byteCount: Int
    private let blocks: BlockMap

    /// Proves the repository in `car`; see the type's description.
    ///
    /// - Throws: ``AtprotoVerificationError``: `malformedData`, `hashMismatch`, `wrongDID`, `badSignature`,
    ///   `brokenProof` (naming the node and key), `limitExceeded`.
    public init(
        car bytes: Data, did: DID, key: AtprotoPublicKey,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    )
        throws(AtprotoVerificationError)
    {
        let (commit, blocks) = try CommitCAR.read(bytes, limits: limits)
        guard commit.did == did else {
            throw AtprotoVerificationError(
                .wrongDID, message: "the commit is by \(commit.did.rawValue), not \(did.rawValue)")
        }
        try commit.checkSignature(by: key)
        self.commit = commit
        self.index = try Self.provedIndex(root: commit.data, blocks: blocks)
        self.blocks = blocks
        self.byteCount = bytes.count
    }

    /// Every record path with its CID, in key order, from the MST whose root is `root`, proved whole:
    /// every node checked as it is read (heights, order, no empty node inside), keys in strictly
    /// increasing order across nodes (so no node is reached twice), every key a repository path, every
    /// record block present.
    static func provedIndex(root: CID, blocks: BlockMap) throws(AtprotoVerificationError)
        -> [(path: String, cid: CID)]
    {
        let tree = try MSTTree(root: root, blocks: blocks)
        if case .stored(let root) = tree.root {
            let node = try tree.store.node(root, height: tree.height, isRoot: true)
            if node.entries.isEmpty, node.left != nil {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST root \(root): a root without entries over a subtree (not trimmed)")
            }
        }
        // The walk over the CAR's bytes answers for a canonical tree that passes every check; any other
        // tree goes through the walk over decoded nodes, which says what is wrong and where.
        if let index = ProvedIndexWalk.index(root: root, height: tree.height, blocks: blocks) {
            return index
        }
        var index: [(path: String, cid: CID)] = []
        index.reserveCapacity(blocks.count)
        var previous: [UInt8]?
        try Self.walk(tree.root, height: tree.height, isRoot: true, tree: tree) {
            key, value throws(AtprotoVerificationError) in
            if let previous, MSTKey.compare(previous, key) >= 0 {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST key \(MSTBlockStore.show(key)) is out of order across nodes")
            }
            guard MSTKey.isRepositoryPath(key) else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST key \(MSTBlockStore.show(key)) is not a repository path")
            }
            guard blocks.contains(value) else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "the record block \(value) of \(MSTBlockStore.show(key)) is not in the CAR")
            }
            previous = key
            index.append((String(decoding: key, as: UTF8.self), value))
        }
        return index
    }

    /// In-order walk of the subtree at `pointer`, each node checked as it is read.
    private static func walk(
        _ pointer: MSTPointer?, height: Int, isRoot: Bool, tree: MSTTree,
        _ visit: ([UInt8], CID) throws(AtprotoVerificationError) -> Void
    ) throws(AtprotoVerificationError) {
        guard let pointer else { return }
        guard height >= 0 else { throw AtprotoVerificationError(.brokenProof, message: "the MST goes below height 0") }
        let node: MSTNode
        switch pointer {
        case .loaded(let loaded): node = loaded
        case .stored(let cid): node = try tree.store.node(cid, height: height, isRoot: isRoot, keep: false)
        }
        try walk(node.left, height: height - 1, isRoot: false, tree: tree, visit)
        for entry in node.entries {
            try visit(entry.key, entry.value)
            try walk(entry.right, height: height - 1, isRoot: false, tree: tree, visit)
        }
    }

    /// The number of records.
    public var count: Int { index.count }

    /// The records in key order, decoded as they are read; typed where `types` knows the collection.
    /// A record block that is not DAG-CBOR ends the sequence with ``AtprotoVerificationError/Code/malformedData``.
    public func records(decoding types: LexiconRecordTypes = LexiconRecordTypes()) -> Records {
        Records(index: index, blocks: blocks, types: types)
    }

    /// The records of a ``VerifiedRepository``, in key order.
    public struct Records: AsyncSequence, Sendable {
        public typealias Element = Entry
        public typealias Failure = AtprotoVerificationError

        let index: [(path: String, cid: CID)]
        let blocks: BlockMap
        let types: LexiconRecordTypes

        public func makeAsyncIterator() -> Iterator {
            Iterator(blocks: RecordBlocks(index: index, blocks: blocks), types: types)
        }

        /// Reads one record per step.
        public struct Iterator: AsyncIteratorProtocol {
            var blocks: RecordBlocks
            let types: LexiconRecordTypes

            public mutating func next() async throws(AtprotoVerificationError) -> Entry? {
                try nextRecord()
            }

            public mutating func next(isolation actor: isolated (any Actor)?) async throws(AtprotoVerificationError)
                -> Entry?
            {
                try nextRecord()
            }

            private mutating func nextRecord() throws(AtprotoVerificationError) -> Entry? {
                guard let (path, cid, bytes) = try blocks.next() else { return nil }
                do {
                    let value = try DAGCBOR.decode(bytes)
                    let collection = NSID(rawValue: String(path.prefix { $0 != "/" }))
                    return Entry(path: path, cid: cid, record: types.record(value, collection: collection))
                } catch {
                    throw AtprotoVerificationError(
                        .malformedData, message: "the record \(path) is not DAG-CBOR: \(error)")
                }
            }
        }
    }
}

extension VerifiedRepository {
    /// The record at `path` (`collection/rkey`) with its CID, or `nil` when the repository has none.
    ///
    /// - Throws: ``AtprotoVerificationError`` (`malformedData`) when the record block is not DAG-CBOR.
    public func record(atPath path: String) throws(AtprotoVerificationError) -> (
        cid: CID, value: AtprotoDataModelValue
    )? {
        let key = Array(path.utf8)
        var low = 0
        var high = index.count
        while low < high {
            let middle = (low + high) / 2
            if Array(index[middle].path.utf8).lexicographicallyPrecedes(key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < index.count, index[low].path == path, let bytes = blocks[index[low].cid] else { return nil }
        do {
            return (index[low].cid, try DAGCBOR.decode(bytes))
        } catch {
            throw AtprotoVerificationError(.malformedData, message: "the record \(path) is not DAG-CBOR: \(error)")
        }
    }
}

extension VerifiedRepository {
    /// Every record's block in key order, not decoded: for a reader that decodes only some records,
    /// or decodes them on another task (AtprotoBackfill decodes on the app's task, so a record is
    /// made and freed on one thread).
    package var recordBlocks: RecordBlocks { RecordBlocks(index: index, blocks: blocks) }

    /// The record blocks of a ``VerifiedRepository``, in key order (``Records`` decodes each as it
    /// reads it from these).
    package struct RecordBlocks: Sendable {
        let index: [(path: String, cid: CID)]
        let blocks: BlockMap
        var position = 0

        /// The next record's path, CID and block (a slice of the CAR, no copy); `nil` at the end or
        /// when the task is cancelled.
        ///
        /// - Throws: ``AtprotoVerificationError`` (`brokenProof`) when a record's block is not in the CAR.
        package mutating func next() throws(AtprotoVerificationError) -> (path: String, cid: CID, block: Data)? {
            guard position < index.count, !Task.isCancelled else { return nil }
            let (path, cid) = index[position]
            position += 1
            guard let block = blocks[cid] else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "the record block \(cid) of \(path) is not in the CAR")
            }
            return (path, cid, block)
        }
    }
}
