import AtprotoData
import Foundation
import SHA2

/// Sync 1.1's inversion worked on the nodes' bytes, for the shapes nearly every commit has: a created
/// key taken out of a node that keeps other entries and has no subtree beside the key, an updated key
/// given its old value, a deleted key put back into the node at its height where no subtree covers
/// it. The node that changes is spliced (the entries around the key copied as they are, the next
/// key's prefix written anew); each node above it gets the new CID of its child written over the old
/// one; each is hashed once. No node is decoded into entries, keys or CIDs beyond what the splice
/// needs.
///
/// It only ever proves: it answers `true` when the operations, undone, give `prevData`, and `false`
/// for anything else (another shape, a node off the canonical form, a check that fails, another
/// root). ``CommitInversion`` then decides with the whole ``MSTTree``, whose errors say what is
/// wrong. Every node read here is checked as `MSTBlockStore` checks it (keys at the node's height and
/// in order, no subtree below height 0, no empty node under the root, one height per node), and the
/// result is the canonical tree the ``MSTTree`` would write, so the two agree
/// (`SplicedInversionTests` compares them on random trees and commits).
struct SplicedInversion {
    /// A node's bytes, where their parts lie, and its keys written out whole. A class: paths and the
    /// cache share one copy, which is never changed.
    final class Node {
        let bytes: [UInt8]
        let layout: CanonicalNodeLayout
        /// Every entry's whole key, one after the other, and where each ends.
        let keys: [UInt8]
        let keyEnds: [Int]
        let height: Int

        init(bytes: [UInt8], layout: CanonicalNodeLayout, keys: [UInt8], keyEnds: [Int], height: Int) {
            self.bytes = bytes
            self.layout = layout
            self.keys = keys
            self.keyEnds = keyEnds
            self.height = height
        }

        var count: Int { keyEnds.count }

        func keyRange(_ index: Int) -> Range<Int> { (index == 0 ? 0 : keyEnds[index - 1])..<keyEnds[index] }

        /// Where the CID of the subtree before entry `index` lies in `bytes` (the left subtree for 0).
        func pointerRange(before index: Int) -> Range<Int>? {
            index == 0 ? layout.left : layout.entries[index - 1].right
        }

        func cid(_ range: Range<Int>) -> CID? {
            bytes.withUnsafeBytes { try? CID(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
        }

        /// The first entry whose key is not before `key`, and whether it is `key`.
        func lowerBound(_ key: [UInt8]) -> (index: Int, found: Bool) {
            keys.withUnsafeBytes { all in
                key.withUnsafeBytes { wanted in
                    for index in 0..<count {
                        let order = compare(UnsafeRawBufferPointer(rebasing: all[keyRange(index)]), wanted)
                        if order >= 0 { return (index, order == 0) }
                    }
                    return (count, false)
                }
            }
        }
    }

    /// One node of a key's path, and where the key falls in it.
    struct Step {
        var node: Node
        var index: Int
        var found: Bool
    }

    private let blocks: BlockMap
    /// Nodes read from the blocks and checked, by CID.
    private var read: [(cid: CID, node: Node)] = []
    /// Nodes written here (canonical, made of checked nodes), by CID.
    private var written: [(cid: CID, bytes: [UInt8], height: Int)] = []

    private init(blocks: BlockMap) {
        self.blocks = blocks
    }

    /// Whether undoing `operations` on the tree whose root is `data` gives `prevData`; `false` when
    /// it does not or when the shapes are not those handled here (see the type's description).
    static func proves(
        _ operations: [CommitEvent.Operation], data: CID, blocks: BlockMap, prevData: CID
    ) -> Bool {
        guard !operations.isEmpty else { return false }
        var inversion = SplicedInversion(blocks: blocks)
        var keys: [[UInt8]] = []
        var paths: [[Step]] = []
        for op in operations {
            let key = Array(op.path.utf8)
            guard MSTKey.isRepositoryPath(key), let path = inversion.path(to: key, root: data), let last = path.last
            else { return false }
            let present = last.found ? last.node.cid(last.node.layout.entries[last.index].value) : nil
            switch op.action {
            case "create": guard let cid = op.cid, present == cid else { return false }
            case "update": guard let cid = op.cid, present == cid, op.prev != nil else { return false }
            case "delete": guard present == nil, op.prev != nil else { return false }
            default: return false
            }
            keys.append(key)
            paths.append(path)
        }
        var root = data
        for position in operations.indices.reversed() {
            // The paths found above hold until a node is rewritten.
            let key = keys[position]
            guard let path = root == data ? paths[position] : inversion.path(to: key, root: root),
                let (undone, changed) = inversion.undo(operations[position], key, on: path)
            else { return false }
            var cid: CID?
            if case .node(let bytes) = undone { cid = inversion.store(bytes, height: path[changed].node.height) }
            for step in path[..<changed].reversed() {
                guard let range = step.node.pointerRange(before: step.index) else { return false }
                let parent: [UInt8]?
                if let cid {
                    parent = Self.replacing(range, of: step.node, with: cid)
                } else {
                    // The node below is gone: its parent keeps its entries and points to nothing there.
                    parent = step.node.count > 0 ? Self.nulling(range, of: step.node) : nil
                }
                guard let parent else { return false }
                cid = inversion.store(parent, height: step.node.height)
            }
            guard let cid else { return false }
            root = cid
        }
        return root == prevData
    }

    /// What undoing an operation leaves of the node it changes.
    enum Undone {
        /// The node's new bytes.
        case node([UInt8])
        /// Nothing: it held only the key taken out.
        case gone
    }

    /// `op` undone on `path`: what is left of the node it changes, and that node's place in `path`;
    /// nil when the shape is not one handled here.
    private mutating func undo(_ op: CommitEvent.Operation, _ key: [UInt8], on path: [Step]) -> (Undone, Int)? {
        guard let last = path.last else { return nil }
        let node = last.node
        let isRoot = path.count == 1
        if op.action == "create" {
            guard last.found else { return nil }
            let before = node.pointerRange(before: last.index)
            if node.layout.entries[last.index].right == nil {
                // Nothing to merge: the subtree before the key (if any) stays where it is.
                if node.count >= 2 || (before != nil && !isRoot) {
                    return (.node(Self.removing(last.index, from: node)), path.count - 1)
                }
                // The only key of a node with no subtree: the node goes (a root going is left to the tree).
                return node.count == 1 && before == nil && !isRoot ? (.gone, path.count - 1) : nil
            }
            guard node.count >= 2 || !isRoot, let bytes = removingWithMerge(last) else { return nil }
            return (.node(bytes), path.count - 1)
        }
        guard let prev = op.prev else { return nil }
        if last.found {
            return Self.replacing(node.layout.entries[last.index].value, of: node, with: prev).map {
                (.node($0), path.count - 1)
            }
        }
        let keyHeight = MSTKey.height(of: key)
        if node.height == keyHeight, node.pointerRange(before: last.index) == nil {
            return (.node(Self.inserting(key, prev, at: last.index, into: node)), path.count - 1)
        }
        // The node at the key's height (on the path, above its end) splits the subtree covering the
        // key; below the end of the path, a chain of new nodes leads down to the key.
        let place = (path.first?.node.height ?? 0) - keyHeight
        guard place >= 0, let bytes = insertingWithReshape(key, prev, keyHeight: keyHeight, on: path, at: place)
        else { return nil }
        return (.node(bytes), min(place, path.count - 1))
    }

    mutating func store(_ bytes: [UInt8], height: Int) -> CID {
        let cid = CID(sha256Of: bytes)
        written.append((cid, bytes, height))
        return cid
    }

    // MARK: Reading

    /// The nodes from `root` down to the one that holds `key` or the last one that would; nil when a
    /// node is missing, off the canonical form or fails a check, or the root has no entries.
    private mutating func path(to key: [UInt8], root: CID) -> [Step]? {
        var steps: [Step] = []
        var cid = root
        var height: Int?
        while true {
            guard let node = node(cid, height: height) else { return nil }
            let (index, found) = node.lowerBound(key)
            steps.append(Step(node: node, index: index, found: found))
            guard !found, let range = node.pointerRange(before: index) else { return steps }
            guard let next = node.cid(range) else { return nil }
            cid = next
            height = node.height - 1
        }
    }

    /// The node `cid` at `height` (nil: the root, whose height its keys give), written here or read
    /// from the blocks and checked.
    mutating func node(_ cid: CID, height: Int?) -> Node? {
        if let known = written.last(where: { $0.cid == cid }) {
            return Self.parse(known.bytes, height: known.height, checking: false)
        }
        if let known = read.first(where: { $0.cid == cid }) {
            return height == nil || known.node.height == height ? known.node : nil
        }
        // Copied from the CAR's bytes at once (an array made from the `Data` itself goes through its iterator).
        guard let data = blocks[cid],
            let node = Self.parse(data.withUnsafeBytes { [UInt8]($0) }, height: height, checking: true)
        else {
            return nil
        }
        read.append((cid, node))
        return node
    }

    /// The node in `bytes`; with `checking`, nil unless it passes MSTBlockStore's checks.
    private static func parse(_ bytes: [UInt8], height: Int?, checking: Bool) -> Node? {
        var layout = CanonicalNodeLayout()
        guard bytes.withUnsafeBytes({ layout.read($0, 0..<$0.count) }) else { return nil }
        // The keys written out whole, each after the one before it: its prefix copied from there, then
        // its suffix from the block. (The layout checked that no prefix is longer than the key before.)
        let total = layout.entries.reduce(0) { $0 + $1.prefix + $1.suffix.count }
        guard total > 0 || layout.entries.isEmpty else { return nil }  // empty keys: left to the tree
        var keyEnds: [Int] = []
        keyEnds.reserveCapacity(layout.entries.count)
        let keys = bytes.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
                initialized = 0
                guard let base = out.baseAddress, let block = source.baseAddress else { return }
                var previousStart = 0
                var position = 0
                for entry in layout.entries {
                    (base + position).initialize(from: base + previousStart, count: entry.prefix)
                    UnsafeMutableRawPointer(base + position + entry.prefix).copyMemory(
                        from: block + entry.suffix.lowerBound, byteCount: entry.suffix.count)
                    previousStart = position
                    position += entry.prefix + entry.suffix.count
                    keyEnds.append(position)
                }
                initialized = position
            }
        }
        guard !keyEnds.isEmpty || height != nil else { return nil }  // a root without entries
        let nodeHeight =
            height ?? keys.withUnsafeBytes { Self.height(of: UnsafeRawBufferPointer(rebasing: $0[0..<keyEnds[0]])) }
        let node = Node(bytes: bytes, layout: layout, keys: keys, keyEnds: keyEnds, height: nodeHeight)
        guard !checking || check(node, isRoot: height == nil) else { return nil }
        return node
    }

    /// MSTBlockStore's checks: keys at the node's height and in order, no subtree below height 0, no
    /// empty node but the root.
    private static func check(_ node: Node, isRoot: Bool) -> Bool {
        guard isRoot || node.count > 0 || node.layout.left != nil else { return false }
        if node.height == 0, node.layout.left != nil || node.layout.entries.contains(where: { $0.right != nil }) {
            return false
        }
        return node.keys.withUnsafeBytes { all -> Bool in
            for index in 0..<node.count {
                let key = UnsafeRawBufferPointer(rebasing: all[node.keyRange(index)])
                guard height(of: key) == node.height else { return false }
                if index > 0, compare(UnsafeRawBufferPointer(rebasing: all[node.keyRange(index - 1)]), key) >= 0 {
                    return false
                }
            }
            return true
        }
    }

    private static func height(of key: UnsafeRawBufferPointer) -> Int {
        SHA256.digest(of: key).leadingZeroBitCount / 2
    }

    // MARK: Writing

    /// The node with the CID at `range` (a subtree or a value) replaced by `cid`: the same bytes with
    /// the new CID written over the old, or nil when the two differ in length.
    static func replacing(_ range: Range<Int>, of node: Node, with cid: CID) -> [UInt8]? {
        var bytes = node.bytes
        let fits = cid.withUnsafeBytes { new -> Bool in
            guard new.count == range.count else { return false }
            bytes.replaceSubrange(range, with: new)
            return true
        }
        return fits ? bytes : nil
    }

    /// The node with the link whose CID lies at `range` made null, or nil when the link is not a
    /// 36-byte CID's (tag 42, a two-byte head for 37 bytes, 0x00).
    static func nulling(_ range: Range<Int>, of node: Node) -> [UInt8]? {
        let start = range.lowerBound - 5
        guard range.count == 36, start >= 0, node.bytes[start..<range.lowerBound] == [0xD8, 0x2A, 0x58, 0x25, 0x00]
        else { return nil }
        var bytes = node.bytes
        bytes.replaceSubrange(start..<range.upperBound, with: [0xF6])
        return bytes
    }

    /// The node without entry `index`, which has no subtree after it: the subtree before it (if any)
    /// stays where it is, before the entry that now follows.
    static func removing(_ index: Int, from node: Node) -> [UInt8] {
        let entries = node.layout.entries
        var out = header(node, count: node.count - 1)
        out.append(contentsOf: node.bytes[node.layout.entriesStart..<entries[index].start])
        if index + 1 < node.count {
            let next = entries[index + 1]
            let before = index > 0 ? node.keyRange(index - 1) : 0..<0
            entryHead(node.keys, node.keyRange(index + 1), after: node.keys, before, into: &out)
            out.append(contentsOf: node.bytes[next.fieldT..<node.layout.fieldL])
        }
        out.append(contentsOf: node.bytes[node.layout.fieldL...])
        return out
    }

    /// The node with `key` (at the node's height, no subtree covering it) put in at `index`.
    static func inserting(_ key: [UInt8], _ value: CID, at index: Int, into node: Node) -> [UInt8] {
        let entries = node.layout.entries
        var out = header(node, count: node.count + 1)
        let end = index < node.count ? entries[index].start : node.layout.fieldL
        out.append(contentsOf: node.bytes[node.layout.entriesStart..<end])
        let before = index > 0 ? node.keyRange(index - 1) : 0..<0
        entryHead(key, 0..<key.count, after: node.keys, before, into: &out)
        MSTNode.fieldName(UInt8(ascii: "t"), into: &out)
        MSTNode.link(nil, into: &out)
        MSTNode.fieldName(UInt8(ascii: "v"), into: &out)
        MSTNode.link(value, into: &out)
        if index < node.count {
            entryHead(node.keys, node.keyRange(index), after: key, 0..<key.count, into: &out)
            out.append(contentsOf: node.bytes[entries[index].fieldT..<node.layout.fieldL])
        }
        out.append(contentsOf: node.bytes[node.layout.fieldL...])
        return out
    }

    /// `{"e": [` with room for the node's bytes and a little more.
    private static func header(_ node: Node, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(node.bytes.count + 128)
        out.append(0xA2)
        MSTNode.fieldName(UInt8(ascii: "e"), into: &out)
        MSTNode.head(4, UInt64(count), into: &out)
        return out
    }

    /// An entry's map head, its key (`range` of `keys`) compressed against the key before it
    /// (`previous` of `previousKeys`, empty for the first entry), and its prefix length: everything up
    /// to its `t` field.
    private static func entryHead(
        _ keys: [UInt8], _ range: Range<Int>, after previousKeys: [UInt8], _ previous: Range<Int>,
        into out: inout [UInt8]
    ) {
        var prefix = 0
        while prefix < range.count, prefix < previous.count,
            keys[range.lowerBound + prefix] == previousKeys[previous.lowerBound + prefix]
        {
            prefix += 1
        }
        out.append(0xA4)
        MSTNode.fieldName(UInt8(ascii: "k"), into: &out)
        MSTNode.head(2, UInt64(range.count - prefix), into: &out)
        out.append(contentsOf: keys[(range.lowerBound + prefix)..<range.upperBound])
        MSTNode.fieldName(UInt8(ascii: "p"), into: &out)
        MSTNode.head(0, UInt64(prefix), into: &out)
    }
}

/// Bytewise order of two keys: negative, zero or positive.
private func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
    let common = min(left.count, right.count)
    if common > 0, let a = left.baseAddress, let b = right.baseAddress {
        let order = memcmp(a, b, common)
        if order != 0 { return Int(order) }
    }
    return left.count - right.count
}
