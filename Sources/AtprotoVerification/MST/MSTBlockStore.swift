import AtprotoData
import Foundation

/// The blocks a tree reads its nodes from.
///
/// Every block's hash was checked when its CAR was read (CommitCAR reads with `verifyingHashes`), so
/// a node is not hashed a second time here.
final class MSTBlockStore {
    let blocks: BlockMap
    /// Nodes already read and checked, with the height they were checked at.
    private var checked: [CID: (node: MSTNode, height: Int, isRoot: Bool)] = [:]

    /// The nodes read so far.
    var nodesRead: Set<CID> { Set(checked.keys) }

    init(_ blocks: BlockMap) {
        self.blocks = blocks
    }

    /// The node `cid` points to, checked: every key at `height`, keys in order, no subtree below
    /// height 0, no empty node other than the root. `decoded` is the node already read from `cid`'s
    /// block, when the caller has it. `keep: false` checks a node without keeping it, for a walk that
    /// reads each node once (a node linked twice repeats its keys, which the walk refuses).
    func node(
        _ cid: CID, height: Int, isRoot: Bool = false, decoded: MSTNode? = nil, keep: Bool = true
    ) throws(AtprotoVerificationError) -> MSTNode {
        if let known = checked[cid] {
            guard known.height == height else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST node \(cid) is linked at heights \(known.height) and \(height)")
            }
            guard isRoot || known.isRoot == isRoot || !(known.node.entries.isEmpty && known.node.left == nil) else {
                throw AtprotoVerificationError(.brokenProof, message: "MST node \(cid): an empty node inside the tree")
            }
            return known.node
        }
        guard let bytes = blocks[cid] else {
            throw AtprotoVerificationError(.brokenProof, message: "MST node \(cid) is not among the blocks")
        }
        let node: MSTNode
        if let decoded { node = decoded } else { node = try MSTNode(block: bytes, cid: cid) }
        var previous: [UInt8]?
        for entry in node.entries {
            let keyHeight = MSTKey.height(of: entry.key)
            guard keyHeight == height else {
                throw AtprotoVerificationError(
                    .brokenProof,
                    message:
                        "MST node \(cid): key \(Self.show(entry.key)) belongs at height \(keyHeight), found at \(height)"
                )
            }
            if let previous, MSTKey.compare(previous, entry.key) >= 0 {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST node \(cid): key \(Self.show(entry.key)) is out of order or repeated")
            }
            if height == 0, entry.right != nil {
                throw AtprotoVerificationError(.brokenProof, message: "MST node \(cid): a subtree below height 0")
            }
            previous = entry.key
        }
        if height == 0, node.left != nil {
            throw AtprotoVerificationError(.brokenProof, message: "MST node \(cid): a subtree below height 0")
        }
        if !isRoot, node.entries.isEmpty, node.left == nil {
            throw AtprotoVerificationError(.brokenProof, message: "MST node \(cid): an empty node inside the tree")
        }
        if keep { checked[cid] = (node, height, isRoot) }
        return node
    }

    static func show(_ key: [UInt8]) -> String {
        String(decoding: key.prefix(80), as: UTF8.self).debugDescription
    }
}
