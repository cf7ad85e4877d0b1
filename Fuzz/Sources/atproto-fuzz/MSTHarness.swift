import Foundation
import FuzzDriver
import XRPCRuntime

@testable import AtprotoVerification

/// Turns a fuzzed CAR into blocks whose links hold: the fuzzer cannot compute SHA-256, so block `i`
/// is re-encoded with each link pointing at a later block (the block the link named, when it is a
/// later one; otherwise one picked by the link's last byte) and stored under its real CID. Block 0
/// is the root.
enum RehashedBlocks {
    static func make(_ bytes: [UInt8]) -> (root: CID, blocks: [CID: Data], keys: [String])? {
        guard let car = try? CARFile(reading: bytes, verifyingHashes: false), !car.blocks.isEmpty else { return nil }
        let given = Array(car.blocks.prefix(64))
        var index: [CID: Int] = [:]
        for (position, block) in given.enumerated() where index[block.cid] == nil { index[block.cid] = position }
        var real = [CID?](repeating: nil, count: given.count)
        var blocks: [CID: Data] = [:]
        var keys: [String] = []
        for position in given.indices.reversed() {
            var encoded = [UInt8](given[position].bytes)
            if let value = try? DAGCBOR.decode(given[position].bytes) {
                let relinked = relink(value, from: position, index: index, real: real)
                encoded = DAGCBOR.encode(relinked)
                collectKeys(relinked, into: &keys)
            }
            let cid = CID(sha256Of: encoded)
            real[position] = cid
            blocks[cid] = Data(encoded)
        }
        guard let root = real[0] else { return nil }
        return (root, blocks, keys)
    }

    private static func relink(
        _ value: AtprotoDataModelValue, from position: Int, index: [CID: Int], real: [CID?]
    ) -> AtprotoDataModelValue {
        switch value {
        case .link(let cid):
            let later = real.count - position - 1
            guard later > 0 else { return value }
            var target = index[cid] ?? -1
            if target <= position { target = position + 1 + Int(cid.digest.last ?? 0) % later }
            return real[target].map(AtprotoDataModelValue.link) ?? value
        case .array(let items):
            return .array(items.map { relink($0, from: position, index: index, real: real) })
        case .map(let fields):
            return .map(fields.mapValues { relink($0, from: position, index: index, real: real) })
        default:
            return value
        }
    }

    /// Key suffixes (`k`) of MST entries, as paths to look up.
    private static func collectKeys(_ value: AtprotoDataModelValue, into keys: inout [String]) {
        guard keys.count < 16 else { return }
        switch value {
        case .map(let fields):
            if case .bytes(let key)? = fields["k"] { keys.append(String(decoding: key, as: UTF8.self)) }
            for field in fields.values { collectKeys(field, into: &keys) }
        case .array(let items):
            for item in items { collectKeys(item, into: &keys) }
        default:
            break
        }
    }
}

/// Applies fuzzed set and remove operations to an ``MSTTree`` and to a dictionary; the tree must
/// answer like the dictionary, and the blocks it writes must read back as the same tree, whose root
/// does not depend on the order of the edits.
enum MSTModelCheck {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        var tree = MSTTree()
        var model: [[UInt8]: CID] = [:]
        let collections = ["app.bsky.feed.post", "app.bsky.feed.like", "com.example.record"]
        var operations = 0
        while !input.isEmpty, operations < 256 {
            operations += 1
            let op = input.byte()
            let collection = collections[Int(op >> 2) % collections.count]
            let rkeyBytes = input.take(Int(input.byte() % 16) + 1).map { rkeyAlphabet[Int($0 % 32)] }
            let key = Array((collection + "/" + String(decoding: rkeyBytes, as: UTF8.self)).utf8)
            let value = CID(sha256Of: [op, input.byte()])
            do {
                if op & 3 == 3 {
                    let removed = try tree.remove(key)
                    fuzzCheck(removed == model.removeValue(forKey: key), "remove answered unlike the model")
                } else {
                    try tree.set(key, value)
                    model[key] = value
                }
            } catch {
                fuzzCheck(false, "an edit of an in-memory tree failed: \(error)")
            }
        }
        for (key, value) in model {
            fuzzCheck((try? tree.value(for: key)) == value, "the tree lost a key it was given")
        }
        let written = tree.write()
        var blocks: [CID: Data] = [:]
        for (cid, bytes) in written.blocks { blocks[cid] = Data(bytes) }
        do {
            var reread = try MSTTree(root: written.root, blocks: BlockMap(blocks))
            for (key, value) in model {
                fuzzCheck(try reread.value(for: key) == value, "a written tree reads back another value")
            }
            let rebuilt = try MSTTree.build(model.sorted { $0.key.lexicographicallyPrecedes($1.key) })
            fuzzCheck(rebuilt.write().root == written.root, "the root depends on the order of the edits")
        } catch {
            fuzzCheck(false, "a written tree does not read back: \(error)")
        }
    }
}

private let rkeyAlphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
