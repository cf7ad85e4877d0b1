import Foundation
import XCTest

@testable import AtprotoData
@testable import XRPCCore

/// A small CAR: a commit-like root and two records it links.
private func sampleCAR() -> CARFile {
    let first = CARBlock(encoding: .map(["$type": .string("app.bsky.feed.post"), "text": .string("one")]))
    let second = CARBlock(encoding: .map(["$type": .string("app.bsky.feed.post"), "text": .string("two")]))
    let root = CARBlock(
        encoding: .map(["did": .string("did:plc:abc"), "data": .array([.link(first.cid), .link(second.cid)])]))
    return CARFile(roots: [root.cid], blocks: [root, first, second])
}

/// The size of a block in a CAR file: its varint length, CID and bytes.
private func encodedSize(_ block: CARBlock) -> Int {
    let length = block.cid.bytes.count + block.bytes.count
    return length + (length < 128 ? 1 : 2)
}

/// The error reading `bytes` gives.
private func readError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
    -> AtprotoBinaryDecodingError?
{
    binaryError({ () throws(AtprotoBinaryDecodingError) in try CARFile(reading: bytes) }, file: file, line: line)
}

final class CARFileTests: XCTestCase {
    func testRoundTrips() throws {
        let car = sampleCAR()
        let bytes = car.encoded()
        let read = try CARFile(reading: bytes)
        XCTAssertEqual(read, car)
        XCTAssertEqual(read.encoded(), bytes)
        XCTAssertEqual(read.block(for: car.blocks[2].cid), car.blocks[2].bytes)
        XCTAssertEqual(read.blocksByCID.count, 3)
        XCTAssertEqual(try DAGCBOR.decode(read.blocks[1].bytes)["text"], .string("one"))
    }

    func testHeaderIsCanonicalDAGCBOR() throws {
        let bytes = sampleCAR().encoded()
        // Varint length, then {roots: [...], version: 1}: "roots" (5 bytes) sorts before "version" (7).
        XCTAssertEqual(Int(bytes[0]), 1 + 6 + 1 + 41 + 8 + 1)
        XCTAssertEqual(Array(bytes[1...7]), [0xA2, 0x65] + Array("roots".utf8))
    }

    /// Cutting the file anywhere gives an error, except right after a block, where what is left is
    /// a valid CAR with the blocks before the cut.
    func testTruncationAtEveryByteIsAnErrorOrAShorterFile() throws {
        let car = sampleCAR()
        let bytes = car.encoded()
        var boundaries: Set<Int> = []
        var end = bytes.count
        for block in car.blocks.reversed() {
            boundaries.insert(end)
            end -= encodedSize(block)
        }
        boundaries.insert(end)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            if boundaries.contains(length) {
                let read = try CARFile(reading: prefix)
                XCTAssertEqual(read.blocks, Array(car.blocks.prefix(read.blocks.count)), "cut at \(length)")
            } else {
                let error = readError(prefix)
                XCTAssertEqual(error?.code, .truncated, "cut at \(length): \(error?.description ?? "")")
                XCTAssertLessThanOrEqual(error?.offset ?? .max, length, "cut at \(length)")
            }
        }
    }

    func testReportsABlockWhoseBytesDoNotMatchItsCID() throws {
        var car = sampleCAR()
        car.blocks[1].bytes = Data(DAGCBOR.encode(.map(["text": .string("forged")])))
        let bytes = car.encoded()
        let error = readError(bytes)
        XCTAssertEqual(error?.code, .hashMismatch)
        let secondBlockStart = bytes.count - encodedSize(car.blocks[2]) - encodedSize(car.blocks[1])
        XCTAssertEqual(error?.offset, secondBlockStart)
        XCTAssertTrue(error?.message.contains("block 1") ?? false, error?.message ?? "")
        XCTAssertEqual(try CARFile(reading: bytes, verifyingHashes: false).blocks.count, 3)
    }

    func testRejectsBadHeaders() {
        func car(header: AtprotoDataModelValue) -> [UInt8] {
            let encoded = DAGCBOR.encode(header)
            return [UInt8(encoded.count)] + encoded
        }
        let cid = CID(sha256Of: [UInt8]())
        let cases: [(AtprotoDataModelValue, String)] = [
            (.array([]), "not a map"),
            (.map(["roots": .array([.link(cid)])]), "no version"),
            (.map(["version": .integer(2), "roots": .array([.link(cid)])]), "version 2"),
            (.map(["version": .integer(1)]), "no roots"),
            (.map(["version": .integer(1), "roots": .array([.string("x")])]), "root not a link"),
        ]
        for (header, note) in cases {
            let error = readError(car(header: header))
            XCTAssertEqual(error?.code, .invalidCARHeader, note)
            XCTAssertEqual(error?.offset, 1, note)
        }
        // Header bytes that are not DAG-CBOR: the offset points into the file.
        let float = readError([0x03, 0xF9, 0x3C, 0x00])
        XCTAssertEqual(float?.code, .float)
        XCTAssertEqual(float?.offset, 1)
        XCTAssertEqual(readError([0x00])?.code, .malformed)
        let notCanonical = readError([0x03, 0x81, 0x18, 0x01])
        XCTAssertEqual(notCanonical?.code, .nonCanonical)
        XCTAssertEqual(notCanonical?.offset, 2)
    }

    func testReportsAMalformedBlockCIDAtItsByte() {
        let car = sampleCAR()
        var bytes = car.encoded()
        // The first block's CID version byte, after the block's varint length, becomes 3.
        let versionOffset = Int(bytes[0]) + 1 + encodedSize(car.blocks[0]) - car.blocks[0].bytes.count - 36
        XCTAssertEqual(bytes[versionOffset], 0x01)
        bytes[versionOffset] = 0x03
        let error = readError(bytes)
        XCTAssertEqual(error?.code, .invalidCID)
        XCTAssertEqual(error?.offset, versionOffset)
    }
}
