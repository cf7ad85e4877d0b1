import AtprotoData
import Foundation

/// A Merkle Search Tree, whole or partial: nodes are read from blocks as they are needed, changed in
/// memory, and written back as canonical blocks.
///
/// A partial tree (the blocks of a proof) answers for the keys whose paths it holds; reaching a node
/// that is not among the blocks is ``AtprotoVerificationError/Code/brokenProof``.
struct MSTTree {
    private(set) var root: MSTPointer
    private(set) var height: Int
    let store: MSTBlockStore

    /// The tree whose root node is `root`, reading from `blocks`.
    init(root: CID, blocks: BlockMap) throws(AtprotoVerificationError) {
        store = MSTBlockStore(blocks)
        self.root = .stored(root)
        // A canonical root has entries (or is the empty tree); a root without entries over a subtree is
        // read as the filler chain it is, one level per node.
        var depth = 0
        var pointer = root
        var height = -1
        var rootNode: MSTNode?
        while height < 0 {
            guard depth <= 128 else {
                throw AtprotoVerificationError(.brokenProof, message: "MST root \(root): a chain of empty nodes")
            }
            guard let bytes = blocks[pointer] else {
                throw AtprotoVerificationError(.brokenProof, message: "MST node \(pointer) is not among the blocks")
            }
            let node = try MSTNode(block: bytes, cid: pointer)
            if depth == 0 { rootNode = node }
            if let first = node.entries.first {
                height = MSTKey.height(of: first.key) + depth
            } else if case .stored(let next)? = node.left {
                pointer = next
                depth += 1
            } else if node.left == nil, depth == 0 {
                height = 0
            } else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST node \(pointer): an empty node inside the tree")
            }
        }
        self.height = height
        _ = try store.node(root, height: height, isRoot: true, decoded: rootNode)
    }

    /// The CID of the empty tree's root node.
    static let emptyRoot = MSTTree().rootCID

    /// An empty tree.
    init() {
        store = MSTBlockStore(BlockMap([:]))
        root = .loaded(.empty)
        height = 0
    }

    // MARK: Reading

    /// The value stored under `key`, or `nil` when the tree proves there is none.
    mutating func value(for key: [UInt8]) throws(AtprotoVerificationError) -> CID? {
        var pointer: MSTPointer? = root
        var level = height
        while let current = pointer {
            let node = try load(current, height: level, isRoot: level == height)
            let index = node.lowerBound(key)
            if index < node.entries.count, node.entries[index].key == key { return node.entries[index].value }
            pointer = index == 0 ? node.left : node.entries[index - 1].right
            level -= 1
        }
        return nil
    }

    func load(_ pointer: MSTPointer, height: Int, isRoot: Bool = false) throws(AtprotoVerificationError) -> MSTNode {
        switch pointer {
        case .loaded(let node): return node
        case .stored(let cid): return try store.node(cid, height: height, isRoot: isRoot)
        }
    }

    // MARK: Writing

    /// Sets `key` to `value` (an insert, or an update when the key is there).
    mutating func set(_ key: [UInt8], _ value: CID) throws(AtprotoVerificationError) {
        let keyHeight = MSTKey.height(of: key)
        if try isEmpty {
            root = .loaded(Self.chain(key, keyHeight, value, from: keyHeight))
            height = keyHeight
            return
        }
        if keyHeight > height {
            var (left, right) = try split(root, height: height, at: key)
            var level = height
            while level + 1 < keyHeight {
                left = left.map { .loaded(MSTNode(left: $0, entries: [])) }
                right = right.map { .loaded(MSTNode(left: $0, entries: [])) }
                level += 1
            }
            root = .loaded(MSTNode(left: left, entries: [MSTNode.Entry(key: key, value: value, right: right)]))
            height = keyHeight
            return
        }
        root = try insert(into: root, height: height, key, keyHeight, value)
    }

    /// Removes `key`; returns the value it had, or `nil` when it was not there.
    @discardableResult
    mutating func remove(_ key: [UInt8]) throws(AtprotoVerificationError) -> CID? {
        guard let previous = try value(for: key) else { return nil }
        var newRoot = try remove(from: root, height: height, key, MSTKey.height(of: key))
        var level = height
        // Trim the top: a root without entries gives way to its left subtree.
        while let current = newRoot, level > 0 {
            let node = try load(current, height: level)
            guard node.entries.isEmpty else { break }
            newRoot = node.left
            level -= 1
        }
        root = newRoot ?? .loaded(.empty)
        height = newRoot == nil ? 0 : level
        return previous
    }

    var isEmpty: Bool {
        get throws(AtprotoVerificationError) {
            let node = try load(root, height: height, isRoot: true)
            return node.entries.isEmpty && node.left == nil
        }
    }

    private static func chain(_ key: [UInt8], _ keyHeight: Int, _ value: CID, from level: Int) -> MSTNode {
        if level == keyHeight {
            return MSTNode(left: nil, entries: [MSTNode.Entry(key: key, value: value, right: nil)])
        }
        return MSTNode(left: .loaded(chain(key, keyHeight, value, from: level - 1)), entries: [])
    }

    private func insert(
        into pointer: MSTPointer?, height level: Int, _ key: [UInt8], _ keyHeight: Int, _ value: CID
    ) throws(AtprotoVerificationError) -> MSTPointer {
        guard let pointer else { return .loaded(Self.chain(key, keyHeight, value, from: level)) }
        var node = try load(pointer, height: level, isRoot: level == height)
        let index = node.lowerBound(key)
        if index < node.entries.count, node.entries[index].key == key {
            node.entries[index].value = value
            return .loaded(node)
        }
        let covering = index == 0 ? node.left : node.entries[index - 1].right
        if keyHeight == level {
            let (left, right) = try split(covering, height: level - 1, at: key)
            node.setPointer(before: index, left)
            node.entries.insert(MSTNode.Entry(key: key, value: value, right: right), at: index)
        } else {
            node.setPointer(before: index, try insert(into: covering, height: level - 1, key, keyHeight, value))
        }
        return .loaded(node)
    }

    /// The subtree cut at `key` (which it does not hold) into the part before and the part after.
    private func split(_ pointer: MSTPointer?, height level: Int, at key: [UInt8]) throws(AtprotoVerificationError)
        -> (MSTPointer?, MSTPointer?)
    {
        guard let pointer, level >= 0 else { return (nil, nil) }
        let node = try load(pointer, height: level, isRoot: level == height)
        let index = node.upperBound(key)
        if index > 0, node.entries[index - 1].key == key {
            throw AtprotoVerificationError(
                .brokenProof, message: "MST: cannot split at \(MSTBlockStore.show(key)), which is present")
        }
        let covering = index == 0 ? node.left : node.entries[index - 1].right
        let (coveringLeft, coveringRight) = try split(covering, height: level - 1, at: key)
        var left = MSTNode(left: node.left, entries: Array(node.entries[..<index]))
        left.setPointer(before: index, coveringLeft)
        let right = MSTNode(left: coveringRight, entries: Array(node.entries[index...]))
        return (left.normalized, right.normalized)
    }

    private func remove(from pointer: MSTPointer?, height level: Int, _ key: [UInt8], _ keyHeight: Int)
        throws(AtprotoVerificationError) -> MSTPointer?
    {
        guard let pointer else {
            throw AtprotoVerificationError(.brokenProof, message: "MST: \(MSTBlockStore.show(key)) is not present")
        }
        var node = try load(pointer, height: level, isRoot: level == height)
        if keyHeight == level {
            let index = node.lowerBound(key)
            guard index < node.entries.count, node.entries[index].key == key else {
                throw AtprotoVerificationError(.brokenProof, message: "MST: \(MSTBlockStore.show(key)) is not present")
            }
            let before = index == 0 ? node.left : node.entries[index - 1].right
            let merged = try merge(before, node.entries[index].right, height: level - 1)
            node.entries.remove(at: index)
            node.setPointer(before: index, merged)
        } else {
            let index = node.upperBound(key)
            let covering = index == 0 ? node.left : node.entries[index - 1].right
            node.setPointer(before: index, try remove(from: covering, height: level - 1, key, keyHeight))
        }
        return node.normalized
    }

    /// Two adjacent subtrees (every key of `left` before every key of `right`) joined into one.
    private func merge(_ left: MSTPointer?, _ right: MSTPointer?, height level: Int) throws(AtprotoVerificationError)
        -> MSTPointer?
    {
        guard let left else { return right }
        guard let right else { return left }
        var first = try load(left, height: level)
        let second = try load(right, height: level)
        let lastOfFirst = first.entries.isEmpty ? first.left : first.entries[first.entries.count - 1].right
        let junction = try merge(lastOfFirst, second.left, height: level - 1)
        first.setPointer(before: first.entries.count, junction)
        first.entries += second.entries
        return first.normalized
    }

    // MARK: Writing out

    /// The root's CID and the blocks of every node held in memory (changed or built here).
    func write() -> (root: CID, blocks: [CID: [UInt8]]) {
        var blocks: [CID: [UInt8]] = [:]
        let root = Self.cid(of: root) { blocks[$0] = $1 }
        return (root, blocks)
    }

    /// The root's CID alone: the nodes held in memory encoded and hashed, their blocks not kept.
    var rootCID: CID { Self.cid(of: root) { _, _ in } }

    /// The CID of the subtree at `pointer`, handing each node written (its CID and bytes) to `keep`.
    private static func cid(of pointer: MSTPointer, _ keep: (CID, [UInt8]) -> Void) -> CID {
        switch pointer {
        case .stored(let cid): return cid
        case .loaded(let node):
            let bytes = node.encoded { cid(of: $0, keep) }
            let id = CID(sha256Of: bytes, codec: .dagCBOR)
            keep(id, bytes)
            return id
        }
    }

    /// The tree of `pairs` (any order; keys must differ), built in memory.
    static func build(_ pairs: [([UInt8], CID)]) throws(AtprotoVerificationError) -> MSTTree {
        var tree = MSTTree()
        for (key, value) in pairs { try tree.set(key, value) }
        return tree
    }
}

extension MSTNode {
    /// Sets the subtree just before entry `index` (the left subtree for 0).
    mutating func setPointer(before index: Int, _ pointer: MSTPointer?) {
        if index == 0 { left = pointer } else { entries[index - 1].right = pointer }
    }

    /// The node, or `nil` when it holds nothing.
    var normalized: MSTPointer? {
        entries.isEmpty && left == nil ? nil : .loaded(self)
    }
}
