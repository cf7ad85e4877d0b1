import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// The direct reader of canonical node blocks reads what the encoder writes, and gives up (so the
/// data-model path decides) on anything else.
final class MSTNodeDecodingTests: XCTestCase {
    /// Every node of a tree of 2,000 keys of mixed lengths (long shared prefixes, heads past 23 and 255
    /// bytes) reads back to a node that encodes to the same bytes.
    func testCanonicalBlocksReadBackToTheSameBytes() throws {
        let long = String(repeating: "x", count: 300)
        let keys = (0..<2000).map { index in
            Array("app.bsky.feed.\(index % 3 == 0 ? long : "like")/\(String(index * 7919, radix: 36))".utf8)
        }
        let written = try MSTTree.build(keys.map { ($0, CID(sha256Of: $0)) }).write()
        XCTAssertGreaterThan(written.blocks.count, 10)
        for (cid, bytes) in written.blocks {
            let node = try XCTUnwrap(MSTNode.readCanonical(Data(bytes)), "\(cid)")
            let again = node.encoded { pointer in
                guard case .stored(let child) = pointer else { return cid }
                return child
            }
            XCTAssertEqual(again, bytes, "\(cid)")
            XCTAssertEqual(try MSTNode(block: Data(bytes), cid: cid), node)
        }
    }

    /// Every strict prefix of a block, and the block with a byte after it, is not canonical: nil, not a
    /// crash or a read past the end.
    func testCutOrExtendedBlocksAreNotCanonical() throws {
        let keys = (0..<40).map { Array("app.bsky.feed.post/\($0)".utf8) }
        let written = try MSTTree.build(keys.map { ($0, CID(sha256Of: $0)) }).write()
        let bytes = try XCTUnwrap(written.blocks[written.root])
        for cut in 0..<bytes.count {
            XCTAssertNil(MSTNode.readCanonical(Data(bytes.prefix(cut))), "cut at \(cut)")
        }
        XCTAssertNil(MSTNode.readCanonical(Data(bytes + [0])))
    }

    /// A head not in its shortest form is left to the data-model path, which refuses it.
    func testANonShortestHeadIsLeftToTheDataModelPath() throws {
        let node = MSTNode(
            left: nil, entries: [.init(key: Array("a.b/c".utf8), value: CID(sha256Of: [1]), right: nil)])
        var bytes = node.encoded { _ in CID(sha256Of: [2]) }
        // "p": 0 written as 0x18 0x00 (one-byte argument) instead of 0x00.
        let marker: [UInt8] = [0x61, UInt8(ascii: "p"), 0x00]
        let at = try XCTUnwrap(
            (0...(bytes.count - marker.count)).first { Array(bytes[$0..<$0 + marker.count]) == marker })
        bytes.replaceSubrange(at + 2..<at + 3, with: [0x18, 0x00])
        XCTAssertNil(MSTNode.readCanonical(Data(bytes)))
        let cid = CID(sha256Of: bytes)
        XCTAssertThrowsError(try MSTNode(block: Data(bytes), cid: cid)) {
            XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .malformedData, "\($0)")
        }
    }
}
