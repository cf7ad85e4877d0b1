import Foundation
import SeededRandom
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import AtprotoVerification

/// The proof on the nodes' bytes against the proof on the whole tree: on random repositories and
/// random commits (creates at the end of a collection as TIDs make them, creates anywhere, updates,
/// deletes: merges, splits and new chains included), whatever the spliced proof accepts the tree
/// accepts, every valid commit is accepted, and nearly all without the tree.
final class SplicedInversionTests: XCTestCase {
    typealias Operation = CommitEvent.Operation

    struct Commit {
        var operations: [Operation]
        var prevData: CID
        var data: CID
        var blocks: [CID: [UInt8]]
    }

    /// A random repository of a few hundred records in three collections, and a commit of one to three
    /// operations on distinct keys over it.
    func randomCommit(_ generator: inout SplitMix64) throws -> Commit {
        let collections = ["app.bsky.feed.like", "app.bsky.feed.post", "app.bsky.graph.follow"]
        var counters = [Int](repeating: 0, count: collections.count)
        func key(appending: Bool) -> [UInt8] {
            let collection = Int.random(in: 0..<collections.count, using: &generator)
            // Appended keys grow like TIDs; others fall anywhere in the collection.
            counters[collection] += Int.random(in: 1...1_000, using: &generator)
            let number = appending ? 1 << 40 + counters[collection] : Int.random(in: 0..<(1 << 40), using: &generator)
            let rkey = String(number, radix: 32)
            return Array("\(collections[collection])/\(String(repeating: "2", count: 13 - rkey.count))\(rkey)".utf8)
        }
        func value() -> CID {
            CID(sha256Of: (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }

        var records: [[UInt8]: CID] = [:]
        for _ in 0..<Int.random(in: 1...400, using: &generator) {
            records[key(appending: Bool.random(using: &generator))] = value()
        }
        let prevData = try MSTTree.build(records.map { ($0.key, $0.value) }).rootCID
        var touched: Set<[UInt8]> = []
        var operations: [Operation] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let roll = Int.random(in: 0..<10, using: &generator)
            let existing = records.keys.filter { !touched.contains($0) }
            if roll < 7 || existing.isEmpty {
                let path = key(appending: roll < 5)
                guard records[path] == nil else { continue }
                let cid = value()
                records[path] = cid
                touched.insert(path)
                operations.append(Operation(action: "create", path: String(decoding: path, as: UTF8.self), cid: cid))
            } else {
                let path = existing.sorted { $0.lexicographicallyPrecedes($1) }[
                    Int.random(in: 0..<existing.count, using: &generator)]
                let prev = records[path]
                let cid = roll < 9 ? nil : value()
                records[path] = cid
                touched.insert(path)
                operations.append(
                    Operation(
                        action: cid == nil ? "delete" : "update", path: String(decoding: path, as: UTF8.self), cid: cid,
                        prev: prev))
            }
        }
        let after = try MSTTree.build(records.map { ($0.key, $0.value) }).write()
        return Commit(operations: operations, prevData: prevData, data: after.root, blocks: after.blocks)
    }

    /// Whether the whole tree proves the commit.
    func treeProves(_ commit: Commit, blocks: BlockMap) -> Bool {
        do {
            try CommitInversion.checkWithTree(
                commit.operations, data: commit.data, blocks: blocks, prevData: commit.prevData)
            return true
        } catch {
            return false
        }
    }

    func testProvesWhatTheTreeProvesAndNothingElse() throws {
        var generator = SplitMix64(seed: 27)
        var spliced = 0
        let rounds = 300
        for round in 0..<rounds {
            let commit = try randomCommit(&generator)
            let blocks = BlockMap(commit.blocks.mapValues { Data($0) })
            XCTAssertTrue(treeProves(commit, blocks: blocks), "round \(round): a valid commit")
            if SplicedInversion.proves(commit.operations, data: commit.data, blocks: blocks, prevData: commit.prevData)
            {
                spliced += 1
            }

            // Variants that are not valid (or not all blocks there): whatever the spliced proof
            // accepts, the tree accepts too.
            var variants: [(String, Commit, BlockMap)] = []
            var wrongRoot = commit
            wrongRoot.prevData = CID(sha256Of: [UInt8(round & 0xFF)])
            variants.append(("another prevData", wrongRoot, blocks))
            let index = Int.random(in: 0..<commit.operations.count, using: &generator)
            var wrongValue = commit
            wrongValue.operations[index].cid = CID(sha256Of: [1, UInt8(round & 0xFF)])
            variants.append(("another cid", wrongValue, blocks))
            var wrongPrev = commit
            wrongPrev.operations[index].prev = commit.operations[index].prev.map { _ in CID(sha256Of: [2]) }
            variants.append(("another prev", wrongPrev, blocks))
            var wrongAction = commit
            wrongAction.operations[index].action = ["create", "update", "delete"][round % 3]
            variants.append(("another action", wrongAction, blocks))
            var dropped = commit.blocks
            if let victim = dropped.keys.filter({ $0 != commit.data }).randomElement(using: &generator) {
                dropped[victim] = nil
            }
            variants.append(("a block missing", commit, BlockMap(dropped.mapValues { Data($0) })))
            for (name, variant, variantBlocks) in variants
            where SplicedInversion.proves(
                variant.operations, data: variant.data, blocks: variantBlocks, prevData: variant.prevData)
            {
                XCTAssertTrue(
                    treeProves(variant, blocks: variantBlocks), "round \(round), \(name): proved by splicing only")
            }
        }
        // Nearly every valid commit needs no tree: only a tree that changes height (a root emptied, a
        // key above the root) is left to it.
        XCTAssertGreaterThan(spliced, rounds * 9 / 10, "\(spliced) of \(rounds) proved by splicing")
    }

    /// A node whose key sits at the wrong height, on the path of a create: the tree refuses it, and
    /// so does the spliced proof.
    func testANodeWithAKeyAtTheWrongHeightIsNotProved() throws {
        let keys = (0..<10_000).lazy.map { Array("a.b.c/k\($0)".utf8) }
        let low = Array(keys.filter { MSTKey.height(of: $0) == 0 }.prefix(2))
        let high = try XCTUnwrap(keys.first { MSTKey.height(of: $0) == 1 && $0.lexicographicallyPrecedes(low[0]) })
        let value = CID(sha256Of: [1])
        // A leaf (height 0 by its first key) holding a height-1 key too, then a created key.
        let liar = MSTNode(
            left: nil,
            entries: [high, low[0], low[1]].sorted { $0.lexicographicallyPrecedes($1) }.map {
                MSTNode.Entry(key: $0, value: value, right: nil)
            })
        let bytes = liar.encoded { _ in value }
        let data = CID(sha256Of: bytes)
        let without = MSTNode(
            left: nil,
            entries: [high, low[0]].sorted { $0.lexicographicallyPrecedes($1) }.map {
                MSTNode.Entry(key: $0, value: value, right: nil)
            })
        let prevData = CID(sha256Of: without.encoded { _ in value })
        let create = Operation(action: "create", path: String(decoding: low[1], as: UTF8.self), cid: value)
        let blocks = BlockMap([data: Data(bytes)])
        XCTAssertFalse(SplicedInversion.proves([create], data: data, blocks: blocks, prevData: prevData))
        XCTAssertThrowsError(try CommitInversion.check([create], data: data, blocks: blocks, prevData: prevData)) {
            XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .brokenProof, "\($0)")
        }
    }
}
