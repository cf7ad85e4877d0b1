import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// The CAR-backed block map: every block found by its CID with its exact bytes, absent CIDs not
/// found, CIDs whose bytes anybody chooses (identity hashes) spread over the table all the same.
final class BlockMapTests: XCTestCase {
    /// The map of `blocks` written as a CAR and read back as CommitCAR reads it.
    func map(_ blocks: [CARBlock]) throws -> (BlockMap, Data) {
        let car = Data(CARFile(roots: [blocks[0].cid], blocks: blocks).encoded())
        var ranges: [(cid: Range<Int>, content: Range<Int>)] = []
        _ = try car.withUnsafeBytes { buffer in
            try CARFile.forEachBlock(in: buffer, verifyingHashes: true, limits: .default) { cid, content in
                ranges.append((content.lowerBound - cid.bytes.count..<content.lowerBound, content))
            }
        }
        return (BlockMap(car: car, blocks: ranges), car)
    }

    func testEveryBlockIsFoundWithItsBytesAndNoOtherIs() throws {
        let blocks = (0..<3000).map { CARBlock(encoding: .map(["n": .integer($0)])) }
        let (map, _) = try map(blocks + [blocks[5]])
        XCTAssertEqual(map.count, 3000, "a repeated block is counted once")
        for block in blocks {
            XCTAssertEqual(map[block.cid], block.bytes)
            XCTAssertTrue(map.contains(block.cid))
        }
        let absent = CID(sha256Of: [1, 2, 3])
        XCTAssertNil(map[absent])
        XCTAssertFalse(map.contains(absent))
        // Same digest, another codec: another CID.
        let raw = CID(sha256Of: blocks[0].bytes, codec: .raw)
        XCTAssertFalse(map.contains(raw))
    }

    func testIdentityCIDsSharingTheirLastBytesAreAllFound() throws {
        // Identity CIDs whose content (and so whose last 8 bytes) differ only at the front.
        let blocks = try (0..<2000).map { index -> CARBlock in
            let content = [UInt8(index & 0xFF), UInt8(index >> 8)] + Array(repeating: 7, count: 30)
            let cid = try CID(bytes: [0x01, 0x55, 0x00, UInt8(content.count)] + content)
            return CARBlock(cid: cid, bytes: Data(content))
        }
        let (map, _) = try map(blocks)
        XCTAssertEqual(map.count, blocks.count)
        for block in blocks { XCTAssertEqual(map[block.cid], block.bytes) }
    }

    func testAGivenMapAnswersLikeItsDictionary() {
        let block = CARBlock(encoding: .string("x"))
        let map = BlockMap([block.cid: block.bytes])
        XCTAssertEqual(map[block.cid], block.bytes)
        XCTAssertTrue(map.contains(block.cid))
        XCTAssertFalse(map.contains(CID(sha256Of: [0])))
        XCTAssertEqual(map.count, 1)
    }
}

// The tests build trees from dictionaries of blocks.
extension MSTTree {
    init(root: CID, blocks: [CID: Data]) throws(AtprotoVerificationError) {
        try self.init(root: root, blocks: BlockMap(blocks))
    }
}

extension VerifiedRepository {
    static func provedIndex(root: CID, blocks: [CID: Data]) throws(AtprotoVerificationError)
        -> [(path: String, cid: CID)]
    {
        try provedIndex(root: root, blocks: BlockMap(blocks))
    }
}
