import Foundation
import SeededRandom
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import AtprotoVerification

final class MSTTreeTests: XCTestCase {
    let leaf = CID(sha256Of: [1, 2, 3])

    /// Any sequence of sets and removes gives the tree that building the final key set from scratch
    /// gives: the MST is canonical, whatever the history.
    func testRandomEditsEndInTheCanonicalTree() throws {
        var generator = SplitMix64(seed: 42)
        let universe = (0..<300).map { Array("app.bsky.feed.post/\(String($0 * 7919, radix: 36))".utf8) }
        for round in 0..<20 {
            var tree = MSTTree()
            var present: [[UInt8]: CID] = [:]
            for step in 0..<150 {
                let key = universe[Int.random(in: 0..<universe.count, using: &generator)]
                if Bool.random(using: &generator), present[key] != nil {
                    XCTAssertEqual(try tree.remove(key), present[key])
                    present[key] = nil
                } else {
                    let value = CID(sha256Of: [UInt8(round), UInt8(step % 256)])
                    try tree.set(key, value)
                    present[key] = value
                }
            }
            let rebuilt = try MSTTree.build(present.map { ($0.key, $0.value) })
            XCTAssertEqual(tree.write().root, rebuilt.write().root, "round \(round)")
            for (key, value) in present { XCTAssertEqual(try tree.value(for: key), value) }
        }
    }

    /// A tree written out and read back from its blocks answers the same, and proves absence.
    func testATreeReadBackFromBlocksAnswersTheSame() throws {
        let keys = (0..<500).map { Array("com.example.thing/k\($0)".utf8) }
        let written = try MSTTree.build(keys.map { ($0, leaf) }).write()
        var read = try MSTTree(root: written.root, blocks: written.blocks.mapValues { Data($0) })
        for key in keys.prefix(50) { XCTAssertEqual(try read.value(for: key), leaf) }
        XCTAssertNil(try read.value(for: Array("com.example.thing/absent".utf8)))
        XCTAssertEqual(read.write().root, written.root)
    }

    func testAMissingNodeIsABrokenProof() throws {
        let keys = (0..<200).map { Array("com.example.thing/k\($0)".utf8) }
        let written = try MSTTree.build(keys.map { ($0, leaf) }).write()
        var blocks = written.blocks.mapValues { Data($0) }
        // Keep the root only: any key below it needs a node that is not there.
        blocks = blocks.filter { $0.key == written.root }
        var partial = try MSTTree(root: written.root, blocks: blocks)
        var errors: [AtprotoVerificationError.Code] = []
        for key in keys {
            do { _ = try partial.value(for: key) } catch { errors.append(error.code) }
        }
        XCTAssertFalse(errors.isEmpty)
        XCTAssertTrue(errors.allSatisfy { $0 == .brokenProof })
    }

    func testNodesThatLieAreRefused() throws {
        // A node whose key sits at the wrong height for the node.
        let high = try XCTUnwrap((0..<10_000).lazy.map { Array("a/k\($0)".utf8) }.first { MSTKey.height(of: $0) >= 1 })
        let low = try XCTUnwrap((0..<10_000).lazy.map { Array("a/k\($0)".utf8) }.first { MSTKey.height(of: $0) == 0 })
        let liar = MSTNode(
            left: nil, entries: [.init(key: high, value: leaf, right: nil), .init(key: low, value: leaf, right: nil)])
        let bytes = liar.encoded { _ in self.leaf }
        let cid = CID(sha256Of: bytes)
        XCTAssertThrowsError(try MSTTree(root: cid, blocks: [cid: Data(bytes)])) {
            XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .brokenProof, "\($0)")
        }
        // Keys out of order at one height.
        let zeros = (0..<10_000).lazy.map { Array("a/k\($0)".utf8) }.filter { MSTKey.height(of: $0) == 0 }.prefix(2)
        let pair = Array(zeros).sorted { $0.lexicographicallyPrecedes($1) }
        let unordered = MSTNode(
            left: nil,
            entries: [.init(key: pair[1], value: leaf, right: nil), .init(key: pair[0], value: leaf, right: nil)])
        let unorderedBytes = unordered.encoded { _ in self.leaf }
        let unorderedCID = CID(sha256Of: unorderedBytes)
        XCTAssertThrowsError(try MSTTree(root: unorderedCID, blocks: [unorderedCID: Data(unorderedBytes)])) {
            XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .brokenProof, "\($0)")
        }
        // Bytes that do not hash to their CID are refused when the CAR is read, before the tree sees
        // them (RepositoryInputTests.testAnMSTNodeThatDoesNotHashToItsCIDIsRefused).
    }

    func testMalformedNodeBlocksAreTypedErrors() throws {
        for value: AtprotoDataModelValue in [
            .string("no"), .map(["e": .integer(1), "l": .null]), .map(["e": .array([]), "l": .integer(3)]),
            .map([
                "e": .array([.map(["p": .integer(2), "k": .bytes(Data()), "v": .link(leaf), "t": .null])]), "l": .null,
            ]),
            .map(["e": .array([]), "l": .null, "x": .null]),
        ] {
            let bytes = DAGCBOR.encode(value)
            let cid = CID(sha256Of: bytes)
            XCTAssertThrowsError(try MSTTree(root: cid, blocks: [cid: Data(bytes)]), "\(value)") {
                let kind = ($0 as? AtprotoVerificationError)?.code
                XCTAssertTrue(kind == .malformedData || kind == .brokenProof, "\($0)")
            }
        }
    }
}
