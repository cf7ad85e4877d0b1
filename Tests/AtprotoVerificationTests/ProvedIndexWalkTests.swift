import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// The walk over a CAR's bytes: the same index as the walk over decoded nodes for a sound tree, and
/// no answer for a tree that breaks any check (which then goes to the decoded walk and its error).
final class ProvedIndexWalkTests: XCTestCase {
    let record = Data([0xA1, 0x61, 0x61, 0x01])  // {"a": 1}
    var leaf: CID { CID(sha256Of: record) }

    /// `blocks` in a CAR, as CommitCAR reads a repository.
    func carMap(_ blocks: [CID: Data]) throws -> BlockMap {
        let list = blocks.map { CARBlock(cid: $0.key, bytes: $0.value) }
        let car = Data(CARFile(roots: [list[0].cid], blocks: list).encoded())
        var ranges: [(cid: Range<Int>, content: Range<Int>)] = []
        _ = try car.withUnsafeBytes { buffer in
            try CARFile.forEachBlock(in: buffer, verifyingHashes: true, limits: .default) { cid, content in
                ranges.append((content.lowerBound - cid.bytes.count..<content.lowerBound, content))
            }
        }
        return BlockMap(car: car, blocks: ranges)
    }

    /// The first key `prefix<n>` with key height `height`, from `n = after`.
    func key(height: Int, after: Int = 0, prefix: String = "app.bsky.feed.post/k") -> [UInt8] {
        var index = after
        while true {
            let key = Array("\(prefix)\(index)".utf8)
            if MSTKey.height(of: key) == height { return key }
            index += 1
        }
    }

    /// Writes `node` (its stored links as they are) into `blocks`; its CID.
    func store(_ node: MSTNode, _ blocks: inout [CID: Data]) -> CID {
        let bytes = node.encoded { pointer in
            if case .stored(let cid) = pointer { return cid }
            return self.leaf
        }
        let cid = CID(sha256Of: bytes)
        blocks[cid] = Data(bytes)
        return cid
    }

    func entry(_ key: [UInt8], _ right: CID? = nil, value: CID? = nil) -> MSTNode.Entry {
        MSTNode.Entry(key: key, value: value ?? leaf, right: right.map { .stored($0) })
    }

    func testASoundTreeGivesTheDecodedWalksIndex() throws {
        let keys = (0..<2000).map { Array("app.bsky.feed.like/3k\(String($0, radix: 7))".utf8) }
        let tree = try MSTTree.build(keys.map { ($0, leaf) })
        let written = tree.write()
        var blocks = written.blocks.mapValues { Data($0) }
        blocks[leaf] = record
        let walked = ProvedIndexWalk.index(root: written.root, height: tree.height, blocks: try carMap(blocks))
        let decoded = try VerifiedRepository.provedIndex(root: written.root, blocks: blocks)
        XCTAssertGreaterThan(tree.height, 1)
        XCTAssertEqual(walked?.map(\.path), decoded.map(\.path))
        XCTAssertEqual(walked?.map(\.cid), decoded.map(\.cid))
        XCTAssertEqual(walked?.count, keys.count)
    }

    /// Each broken tree: the walk over bytes gives no index, and proving it from a CAR is refused.
    func testEveryBrokenTreeIsLeftToTheDecodedWalkAndRefused() throws {
        let pair = [key(height: 0), key(height: 0, after: 1000)].sorted { $0.lexicographicallyPrecedes($1) }
        let (low, lowAfter) = (pair[0], pair[1])
        let high = key(height: 1, prefix: "app.bsky.feed.post/m")
        var cases: [(String, [CID: Data], CID, Int)] = []

        var blocks = [leaf: record]
        let child = store(MSTNode(left: nil, entries: [entry(low)]), &blocks)
        var root = store(MSTNode(left: .stored(child), entries: [entry(high, child)]), &blocks)
        cases.append(("a node linked twice", blocks, root, 1))

        blocks = [leaf: record]
        root = store(MSTNode(left: nil, entries: [entry(low), entry(high)]), &blocks)
        cases.append(("a key at the wrong height", blocks, root, 0))

        blocks = [leaf: record]
        root = store(MSTNode(left: nil, entries: [entry(lowAfter), entry(low)]), &blocks)
        cases.append(("keys out of order", blocks, root, 0))

        blocks = [:]
        root = store(MSTNode(left: nil, entries: [entry(low)]), &blocks)
        cases.append(("a record block missing", blocks, root, 0))

        blocks = [leaf: record]
        root = store(MSTNode(left: nil, entries: [entry(key(height: 0, prefix: "nopath"))]), &blocks)
        cases.append(("a key that is not a repository path", blocks, root, 0))

        blocks = [leaf: record]
        root = store(MSTNode(left: .stored(CID(sha256Of: [9])), entries: [entry(high)]), &blocks)
        cases.append(("a node missing", blocks, root, 1))

        blocks = [leaf: record]
        let below = store(MSTNode(left: nil, entries: [entry(lowAfter)]), &blocks)
        root = store(MSTNode(left: nil, entries: [entry(low, below)]), &blocks)
        cases.append(("a subtree below height 0", blocks, root, 0))

        blocks = [leaf: record]
        let empty = store(MSTNode.empty, &blocks)
        root = store(MSTNode(left: .stored(empty), entries: [entry(high)]), &blocks)
        cases.append(("an empty node inside", blocks, root, 1))

        for (name, blocks, root, height) in cases {
            let map = try carMap(blocks)
            XCTAssertNil(ProvedIndexWalk.index(root: root, height: height, blocks: map), name)
            XCTAssertThrowsError(try VerifiedRepository.provedIndex(root: root, blocks: map), name) { error in
                XCTAssertEqual((error as? AtprotoVerificationError)?.code, .brokenProof, "\(name): \(error)")
            }
        }
    }
}
