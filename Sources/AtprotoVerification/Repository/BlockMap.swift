import AtprotoData
import Foundation

/// The blocks of a CAR by CID, read in place: each block is a range of the CAR's bytes, found
/// through an open-addressing table of block numbers.
///
/// A `[CID: Data]` of a whole repository made a CID array and a dictionary entry per block,
/// and every look-up followed the key's pointer to compare it: past a few thousand blocks those
/// cache misses grew faster than the repository. Here a look-up probes a flat array and compares
/// the CID with the bytes in the CAR itself.
///
/// The table hashes a SHA-256 CID by the last 8 bytes of its digest (the blocks' digests were
/// checked when the CAR was read, so nobody chooses them); any other CID (identity hashes, whose
/// bytes anybody chooses) by a seeded hash of all its bytes, so no input makes the probes long.
struct BlockMap: Sendable {
    /// One block: where its CID starts, where its content starts and ends, in `car`.
    private struct Block {
        var cidStart: Int
        var contentStart: Int
        var end: Int
    }

    private let car: Data
    private var blocks: [Block] = []
    /// Block numbers + 1 (0 for an empty slot); the count is a power of two, at least twice the blocks.
    private var slots: [Int] = []
    /// Blocks given by CID rather than read from a CAR (tests, small trees).
    private var given: [CID: Data] = [:]

    /// The blocks of `car`, given as each block's CID range and content range in it (`ranges` from
    /// `CARFile.forEachBlock`, whose hash checks have passed). A CID given twice keeps its first block.
    init(car: Data, blocks ranges: [(cid: Range<Int>, content: Range<Int>)]) {
        self.car = car
        blocks.reserveCapacity(ranges.count)
        var capacity = 16
        while capacity < ranges.count * 2 { capacity *= 2 }
        slots = Array(repeating: 0, count: capacity)
        for (cid, content) in ranges {
            let block = Block(cidStart: cid.lowerBound, contentStart: content.lowerBound, end: content.upperBound)
            let found = car.withUnsafeBytes { buffer in
                probe(UnsafeRawBufferPointer(rebasing: buffer[block.cidStart..<block.contentStart]), in: buffer)
            }
            guard case .empty(let slot) = found else { continue }
            blocks.append(block)
            slots[slot] = blocks.count
        }
    }

    /// Blocks given by CID.
    init(_ given: [CID: Data]) {
        car = Data()
        self.given = given
    }

    /// The number of distinct blocks.
    var count: Int { blocks.count + given.count }

    /// The content of the block `cid`, a slice of the CAR's bytes (no copy), or nil.
    subscript(cid: CID) -> Data? {
        if !given.isEmpty { return given[cid] }
        guard case .found(let index) = find(cid) else { return nil }
        let block = blocks[index]
        return car[car.startIndex + block.contentStart..<car.startIndex + block.end]
    }

    /// Whether the block `cid` is here.
    func contains(_ cid: CID) -> Bool {
        if !given.isEmpty { return given[cid] != nil }
        if case .found = find(cid) { return true }
        return false
    }

    /// Calls `body` with the CAR's bytes, in which ``contentRange(ofCID:in:)`` finds blocks; nil
    /// (and `body` not called) when the blocks were given by CID.
    func withCARBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard given.isEmpty, !slots.isEmpty else { return nil }
        return car.withUnsafeBytes(body)
    }

    /// The range in `buffer` (the CAR's bytes, from ``withCARBytes(_:)``) of the content of the block
    /// whose CID's bytes are `key`, or nil.
    func contentRange(ofCID key: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer) -> Range<Int>? {
        guard !slots.isEmpty, case .found(let index) = probe(key, in: buffer) else { return nil }
        return blocks[index].contentStart..<blocks[index].end
    }

    private enum Probe {
        case found(Int)
        case empty(Int)
    }

    private func find(_ cid: CID) -> Probe {
        guard !slots.isEmpty else { return .empty(0) }
        return cid.withUnsafeBytes { key in car.withUnsafeBytes { buffer in probe(key, in: buffer) } }
    }

    /// The block whose CID is `key`, or the empty slot where it would go.
    private func probe(_ key: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer) -> Probe {
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .empty(slot) }
            let block = blocks[entry - 1]
            if block.contentStart - block.cidStart == key.count,
                let base = buffer.baseAddress, let keyBase = key.baseAddress,
                memcmp(base + block.cidStart, keyBase, key.count) == 0
            {
                return .found(entry - 1)
            }
            slot = (slot + 1) & mask
        }
    }

    /// The table's hash of a CID's bytes: see the type's description.
    private static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        // A CIDv1 of sha2-256 with a one-byte codec: 0x01, codec, 0x12, 0x20, then 32 digest bytes.
        if key.count == 36, key[0] == 0x01, key[2] == 0x12, key[3] == 0x20 {
            return Int(truncatingIfNeeded: key.loadUnaligned(fromByteOffset: 28, as: UInt64.self))
        }
        var hasher = Hasher()
        hasher.combine(bytes: key)
        return hasher.finalize()
    }
}
