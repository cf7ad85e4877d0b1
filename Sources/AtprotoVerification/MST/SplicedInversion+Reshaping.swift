import AtprotoData
import Foundation

/// The undos that change the tree's shape, not just one node: a created key taken out from between
/// two subtrees (which merge), a deleted key put back where a subtree covers it (which splits) or
/// below the end of its path (a chain of new nodes). The nodes they touch are rebuilt as ``MSTNode``s
/// and written with its encoder, as ``MSTTree`` does; the nodes they read are checked like the rest.
extension SplicedInversion {
    /// A shape this proof leaves to the tree: a node missing, off the canonical form or failing a check.
    struct Unsupported: Error {}

    /// The node of `step` without its key, the subtrees on the key's two sides merged.
    mutating func removingWithMerge(_ step: Step) -> [UInt8]? {
        guard var node = Self.draft(of: step.node) else { return nil }
        let index = step.index
        let before = index == 0 ? node.left : node.entries[index - 1].right
        do {
            let merged = try merge(
                Self.stored(before), Self.stored(node.entries[index].right), height: step.node.height - 1)
            node.entries.remove(at: index)
            node.setPointer(before: index, merged.map(MSTPointer.stored))
        } catch {
            return nil
        }
        return node.encoded(childCID: Self.cid(of:))
    }

    /// The node at the key's height (`path[place]`) with the key put in, the subtree covering it split;
    /// or, when the path ends above that height, its last node pointing to a new chain down to the key.
    mutating func insertingWithReshape(
        _ key: [UInt8], _ value: CID, keyHeight: Int, on path: [Step], at place: Int
    ) -> [UInt8]? {
        do {
            if place < path.count {
                let step = path[place]
                guard var node = Self.draft(of: step.node) else { return nil }
                let covering = step.index == 0 ? node.left : node.entries[step.index - 1].right
                let (left, right) = try split(Self.stored(covering), at: key, height: keyHeight - 1)
                node.setPointer(before: step.index, left.map(MSTPointer.stored))
                node.entries.insert(
                    MSTNode.Entry(key: key, value: value, right: right.map(MSTPointer.stored)), at: step.index)
                return node.encoded(childCID: Self.cid(of:))
            }
            guard let last = path.last, last.node.pointerRange(before: last.index) == nil,
                var node = Self.draft(of: last.node)
            else { return nil }
            var chain = write(
                MSTNode(left: nil, entries: [MSTNode.Entry(key: key, value: value, right: nil)]), height: keyHeight)
            for height in stride(from: keyHeight + 1, to: last.node.height, by: 1) {
                chain = write(MSTNode(left: chain.map(MSTPointer.stored), entries: []), height: height)
            }
            node.setPointer(before: last.index, chain.map(MSTPointer.stored))
            return node.encoded(childCID: Self.cid(of:))
        } catch {
            return nil
        }
    }

    /// Two adjacent subtrees at `height` joined into one, as ``MSTTree`` merges them.
    private mutating func merge(_ left: CID?, _ right: CID?, height: Int) throws(Unsupported)
        -> CID?
    {
        guard let left else { return right }
        guard let right else { return left }
        guard height >= 0, let first = node(left, height: height), let second = node(right, height: height),
            var joined = Self.draft(of: first), let after = Self.draft(of: second)
        else { throw Unsupported() }
        let last = joined.entries.last.map(\.right) ?? joined.left
        let junction = try merge(Self.stored(last), Self.stored(after.left), height: height - 1)
        joined.setPointer(before: joined.entries.count, junction.map(MSTPointer.stored))
        joined.entries += after.entries
        return write(joined, height: height)
    }

    /// The subtree at `height` cut at `key` (which it does not hold), as ``MSTTree`` splits it.
    private mutating func split(_ subtree: CID?, at key: [UInt8], height: Int) throws(Unsupported)
        -> (CID?, CID?)
    {
        guard let subtree else { return (nil, nil) }
        guard height >= 0, let read = node(subtree, height: height), let whole = Self.draft(of: read) else {
            throw Unsupported()
        }
        let (index, found) = read.lowerBound(key)
        guard !found else { throw Unsupported() }
        let covering = index == 0 ? whole.left : whole.entries[index - 1].right
        let (coveringLeft, coveringRight) = try split(Self.stored(covering), at: key, height: height - 1)
        var left = MSTNode(left: whole.left, entries: Array(whole.entries[..<index]))
        left.setPointer(before: index, coveringLeft.map(MSTPointer.stored))
        let right = MSTNode(left: coveringRight.map(MSTPointer.stored), entries: Array(whole.entries[index...]))
        return (write(left, height: height), write(right, height: height))
    }

    /// Writes `node` (nil when it holds nothing) and returns its CID.
    private mutating func write(_ node: MSTNode, height: Int) -> CID? {
        guard !node.entries.isEmpty || node.left != nil else { return nil }
        return store(node.encoded(childCID: Self.cid(of:)), height: height)
    }

    /// The node as an ``MSTNode`` whose subtrees are all stored CIDs; nil when a CID does not read.
    static func draft(of node: Node) -> MSTNode? {
        var entries: [MSTNode.Entry] = []
        entries.reserveCapacity(node.count)
        for (index, entry) in node.layout.entries.enumerated() {
            guard let value = node.cid(entry.value) else { return nil }
            var right: MSTPointer?
            if let range = entry.right {
                guard let cid = node.cid(range) else { return nil }
                right = .stored(cid)
            }
            entries.append(MSTNode.Entry(key: Array(node.keys[node.keyRange(index)]), value: value, right: right))
        }
        var left: MSTPointer?
        if let range = node.layout.left {
            guard let cid = node.cid(range) else { return nil }
            left = .stored(cid)
        }
        return MSTNode(left: left, entries: entries)
    }

    /// The CID a pointer names: stored, or the hash of the node in memory written canonically.
    static func cid(of pointer: MSTPointer) -> CID {
        switch pointer {
        case .stored(let cid): return cid
        case .loaded(let node): return CID(sha256Of: node.encoded(childCID: cid(of:)))
        }
    }

    private static func stored(_ pointer: MSTPointer?) -> CID? {
        pointer.map(cid(of:))
    }
}
