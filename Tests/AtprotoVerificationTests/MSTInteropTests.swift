import Foundation
import SeededRandom
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import AtprotoVerification

final class MSTInteropTests: XCTestCase {
    func testKeyHeightsMatchTheInteropFile() throws {
        let cases = try InteropFixtures.json("mst/key_heights.json").arrayItems
        XCTAssertFalse(cases.isEmpty)
        for item in cases {
            let key = try XCTUnwrap(item["key"]?.stringValue)
            XCTAssertEqual(MSTKey.height(of: Array(key.utf8)), item["height"]?.integer, key)
            // The public generic form (any collection) gives the same height as the array form.
            XCTAssertEqual(MSTKey.height(of: key.utf8), item["height"]?.integer, key)
        }
    }

    func testCommonPrefixesMatchTheInteropFile() throws {
        let cases = try InteropFixtures.json("mst/common_prefix.json").arrayItems
        XCTAssertFalse(cases.isEmpty)
        for item in cases {
            let left = Array(try XCTUnwrap(item["left"]?.stringValue).utf8)
            let right = Array(try XCTUnwrap(item["right"]?.stringValue).utf8)
            XCTAssertEqual(MSTKey.commonPrefixLength(left, right), item["len"]?.integer, "\(left) \(right)")
        }
    }

    /// Every case of the sync 1.1 commit-proof fixtures: the tree before and after has the stated
    /// roots; inverting the operations on a partial tree of only the proof's blocks gives the root
    /// before, reading no block outside the proof.
    func testCommitProofFixtures() throws {
        let cases = try InteropFixtures.json("firehose/commit-proof-fixtures.json").arrayItems
        XCTAssertEqual(cases.count, 6)
        for item in cases {
            let comment = item["comment"]?.stringValue ?? "?"
            let leaf = try CID(try XCTUnwrap(item["leafValue"]?.stringValue))
            let keys = item["keys"]?.arrayItems.compactMap(\.stringValue) ?? []
            let adds = item["adds"]?.arrayItems.compactMap(\.stringValue) ?? []
            let dels = item["dels"]?.arrayItems.compactMap(\.stringValue) ?? []
            let before = try CID(try XCTUnwrap(item["rootBeforeCommit"]?.stringValue))
            let after = try CID(try XCTUnwrap(item["rootAfterCommit"]?.stringValue))
            let proof = Set(
                try (item["blocksInProof"]?.arrayItems ?? []).map { try CID(try XCTUnwrap($0.stringValue)) })

            var tree = try MSTTree.build(keys.map { (Array($0.utf8), leaf) })
            XCTAssertEqual(tree.write().root, before, "\(comment): root before")
            for key in adds { try tree.set(Array(key.utf8), leaf) }
            for key in dels { XCTAssertEqual(try tree.remove(Array(key.utf8)), leaf, comment) }
            let written = tree.write()
            XCTAssertEqual(written.root, after, "\(comment): root after")

            // The partial tree: only the proof's blocks.
            var blocks: [CID: Data] = [:]
            for cid in proof {
                blocks[cid] = try XCTUnwrap(
                    written.blocks[cid].map { Data($0) }, "\(comment): \(cid) is not a node of the tree after")
            }
            var partial = try MSTTree(root: after, blocks: blocks)
            for key in adds { XCTAssertEqual(try partial.remove(Array(key.utf8)), leaf, comment) }
            for key in dels { try partial.set(Array(key.utf8), leaf) }
            XCTAssertEqual(partial.write().root, before, "\(comment): the inverted partial tree")
            // The root alone (what the firehose proof computes) is the same CID.
            XCTAssertEqual(partial.rootCID, before, "\(comment): the inverted partial tree's rootCID")
            XCTAssertTrue(partial.store.nodesRead.isSubset(of: proof), comment)
        }
    }

    func testTheExampleKeysBuildTheSameTreeInAnyOrder() throws {
        let keys = try InteropFixtures.text("mst/example_keys.txt").split(separator: "\n").map { Array($0.utf8) }
        XCTAssertGreaterThan(keys.count, 100)
        let leaf = try CID("bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454")
        let forward = try MSTTree.build(keys.map { ($0, leaf) }).write().root
        var generator = SplitMix64(seed: 7)
        let shuffled = try MSTTree.build(keys.shuffled(using: &generator).map { ($0, leaf) }).write().root
        XCTAssertEqual(forward, shuffled)
        XCTAssertEqual(try MSTTree.build(keys.map { ($0, leaf) }).rootCID, forward)
        // Removing every key in another order leaves the empty tree.
        var tree = try MSTTree.build(keys.map { ($0, leaf) })
        for key in keys.shuffled(using: &generator) { XCTAssertNotNil(try tree.remove(key)) }
        XCTAssertTrue(try tree.isEmpty)
        XCTAssertEqual(tree.height, 0)
        XCTAssertEqual(tree.write().root, MSTTree().write().root, "\(tree.root)")
    }
}
