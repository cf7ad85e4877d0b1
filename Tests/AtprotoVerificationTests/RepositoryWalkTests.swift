import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// The whole-repository walk, which checks each node as it reads it and keeps none: every key
/// comes out in order, and a node linked twice (which a kept-node cache would have answered from
/// memory) is refused by the order of its repeated keys.
final class RepositoryWalkTests: XCTestCase {
    let record = Data([0xA1, 0x61, 0x61, 0x01])  // {"a": 1}
    var leaf: CID { CID(sha256Of: record) }

    /// The first repository path with key height `height`, after `after`.
    func key(height: Int, after: Int = 0) -> [UInt8] {
        var index = after
        while true {
            let key = Array("app.bsky.feed.post/k\(index)".utf8)
            if MSTKey.height(of: key) == height { return key }
            index += 1
        }
    }

    func testAWholeTreeGivesEveryKeyInOrder() throws {
        let keys = (0..<500).map { Array("app.bsky.feed.like/3k\(String($0, radix: 7))".utf8) }
        let written = try MSTTree.build(keys.map { ($0, leaf) }).write()
        var blocks = written.blocks.mapValues { Data($0) }
        blocks[leaf] = record
        let index = try VerifiedRepository.provedIndex(root: written.root, blocks: blocks)
        XCTAssertEqual(index.map(\.path), keys.map { String(decoding: $0, as: UTF8.self) }.sorted())
        XCTAssertTrue(index.allSatisfy { $0.cid == leaf })
    }

    func testANodeLinkedTwiceIsRefused() throws {
        let low = key(height: 0)
        let high = key(height: 1)
        let (first, second) = low.lexicographicallyPrecedes(high) ? (low, high) : (key(height: 0, after: 1000), high)
        XCTAssertTrue(first.lexicographicallyPrecedes(second) || second.lexicographicallyPrecedes(first))
        let child = MSTNode(left: nil, entries: [MSTNode.Entry(key: first, value: leaf, right: nil)])
        let childBytes = child.encoded { _ in leaf }
        let childCID = CID(sha256Of: childBytes)
        // The same child on both sides of the root's entry.
        let root = MSTNode(
            left: .stored(childCID), entries: [MSTNode.Entry(key: second, value: leaf, right: .stored(childCID))])
        let rootBytes = root.encoded { pointer in
            if case .stored(let cid) = pointer { return cid }
            return leaf
        }
        let rootCID = CID(sha256Of: rootBytes)
        let blocks = [childCID: Data(childBytes), rootCID: Data(rootBytes), leaf: record]
        XCTAssertThrowsError(try VerifiedRepository.provedIndex(root: rootCID, blocks: blocks)) { error in
            XCTAssertEqual((error as? AtprotoVerificationError)?.code, .brokenProof, "\(error)")
        }
    }
}
