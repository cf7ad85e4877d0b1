import AtprotoData
import Foundation

/// The in-order walk of a whole repository's MST read straight from the CAR's bytes: each node's
/// entries are key suffixes and CIDs located in its block (``CanonicalNodeLayout``), so no node,
/// key array or subtree CID is built, and a subtree's block is found by its link's bytes in place.
///
/// It makes every check of ``VerifiedRepository``'s walk over ``MSTNode`` values (each node present
/// and canonical, every key at the node's height, keys in strictly increasing order across the whole
/// walk, which holds within each node too, nothing below height 0, no empty node inside, every key a
/// repository path, every record block present) and answers nil at the first that fails, or at a
/// node outside the canonical form: the caller then runs that walk, whose error says what and where.
struct ProvedIndexWalk {
    private let car: UnsafeRawBufferPointer
    private let blocks: BlockMap
    /// One layout and one key buffer per depth, reused by every node at that depth.
    private var layouts: [CanonicalNodeLayout] = []
    private var keys: [[UInt8]] = []
    /// The last key visited.
    private var previous: [UInt8] = []
    private(set) var index: [(path: String, cid: CID)] = []

    /// The index of the tree whose root is `root` at `height`, or nil (see the type's description).
    static func index(root: CID, height: Int, blocks: BlockMap) -> [(path: String, cid: CID)]? {
        let result = blocks.withCARBytes { car -> [(path: String, cid: CID)]? in
            var walk = ProvedIndexWalk(car: car, blocks: blocks)
            walk.index.reserveCapacity(blocks.count)
            let content = root.withUnsafeBytes { blocks.contentRange(ofCID: $0, in: car) }
            guard let content, walk.node(content, height: height, depth: 0) else { return nil }
            return walk.index
        }
        return result ?? nil
    }

    private init(car: UnsafeRawBufferPointer, blocks: BlockMap) {
        self.car = car
        self.blocks = blocks
        previous.reserveCapacity(MSTKey.maximumLength)
    }

    /// Walks the node whose block is `content`, at `height`, `depth` levels below the root.
    private mutating func node(_ content: Range<Int>, height: Int, depth: Int) -> Bool {
        guard height >= 0, depth <= 128 else { return false }
        if layouts.count == depth {
            layouts.append(CanonicalNodeLayout())
            keys.append([])
            keys[depth].reserveCapacity(MSTKey.maximumLength)
        }
        guard layouts[depth].read(car, content) else { return false }
        let layout = layouts[depth]
        // Only the root may be empty; below height 0 there is no subtree.
        if depth > 0, layout.entries.isEmpty, layout.left == nil { return false }
        if height == 0, layout.left != nil { return false }
        if let left = layout.left, !subtree(left, height: height - 1, depth: depth + 1) { return false }
        for entry in layout.entries {
            guard let base = car.baseAddress else { return false }
            keys[depth].removeSubrange(entry.prefix...)
            keys[depth].append(
                contentsOf: UnsafeBufferPointer(
                    start: base.assumingMemoryBound(to: UInt8.self) + entry.suffix.lowerBound,
                    count: entry.suffix.count))
            guard visit(depth: depth, height: height, value: entry.value) else { return false }
            if let right = entry.right {
                guard height > 0, subtree(right, height: height - 1, depth: depth + 1) else { return false }
            }
        }
        return true
    }

    /// Walks the subtree whose CID's bytes are `link`, when its block is in the CAR.
    private mutating func subtree(_ link: Range<Int>, height: Int, depth: Int) -> Bool {
        let cid = UnsafeRawBufferPointer(rebasing: car[link])
        // The blocks' CIDs were read as CIDs, so bytes equal to one are one; a node links CIDv1 only.
        guard cid.first != 0x12, let content = blocks.contentRange(ofCID: cid, in: car) else { return false }
        return node(content, height: height, depth: depth)
    }

    /// Checks the key in `keys[depth]` (height, order after the previous key, a repository path) and its
    /// record's CID, then adds both to the index.
    private mutating func visit(depth: Int, height: Int, value: Range<Int>) -> Bool {
        let key = keys[depth]
        guard MSTKey.height(of: key) == height, MSTKey.compare(previous, key) < 0 || index.isEmpty,
            MSTKey.isRepositoryPath(key)
        else { return false }
        let bytes = UnsafeRawBufferPointer(rebasing: car[value])
        guard let cid = try? CID(bytes: bytes), cid.version == 1,
            blocks.contentRange(ofCID: bytes, in: car) != nil
        else { return false }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: key)
        index.append((String(decoding: key, as: UTF8.self), cid))
        return true
    }
}
