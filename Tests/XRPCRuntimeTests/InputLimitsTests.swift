import Foundation
import XCTest

@testable import AtprotoData
@testable import XRPCCore
@testable import XRPCWebSockets

/// Every bound on hostile input, at its limit (accepted) and one past it (a typed error): nesting of
/// JSON and DAG-CBOR, CAR blocks and their size, WebSocket frames and messages.
final class InputLimitsTests: XCTestCase {
    private func nestedJSON(_ depth: Int) -> [UInt8] {
        Array(String(repeating: "[", count: depth).utf8) + Array(String(repeating: "]", count: depth).utf8)
    }

    /// `depth` arrays inside each other, the innermost empty.
    private func nestedCBOR(_ depth: Int) -> [UInt8] {
        [UInt8](repeating: 0x81, count: depth - 1) + [0x80]
    }

    func testJSONNestingAtTheDefaultLimitParsesAndOneMoreLevelIsAnError() throws {
        let limit = JSONValue.maximumParseDepth
        XCTAssertEqual(limit, 512)
        XCTAssertNoThrow(try JSONValue.parse(nestedJSON(limit)))
        XCTAssertThrowsError(try JSONValue.parse(nestedJSON(limit + 1))) { error in
            XCTAssertEqual((error as? JSONParseError)?.offset, limit, "the error points at the bracket too deep")
        }
    }

    func testJSONNestingLimitIsTheCallersChoice() throws {
        XCTAssertNoThrow(try JSONValue.parse(nestedJSON(3), maximumDepth: 3))
        XCTAssertThrowsError(try JSONValue.parse(nestedJSON(4), maximumDepth: 3)) { error in
            XCTAssertTrue("\(error)".contains("deeper than 3"), "\(error)")
        }
        XCTAssertNoThrow(try JSONValue.parse(nestedJSON(600), maximumDepth: 600))
        XCTAssertNoThrow(try JSONValue.parse(Array("{\"a\":{\"b\":1}}".utf8), maximumDepth: 2))
        XCTAssertThrowsError(try JSONValue.parse(Array("{\"a\":{\"b\":[]}}".utf8), maximumDepth: 2))
        // A deep document is refused quickly, before the rest is read.
        XCTAssertThrowsError(try JSONValue.parse(nestedJSON(1_000_000)))
    }

    func testDAGCBORNestingAtTheDefaultLimitDecodesAndOneMoreLevelIsTooDeep() throws {
        let limit = DAGCBOR.maximumDepth
        XCTAssertEqual(limit, 512)
        XCTAssertNoThrow(try DAGCBOR.decode(nestedCBOR(limit)))
        XCTAssertThrowsError(try DAGCBOR.decode(nestedCBOR(limit + 1))) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .tooDeep)
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.offset, limit)
        }
    }

    func testDAGCBORNestingLimitIsTheCallersChoice() throws {
        XCTAssertEqual(try DAGCBOR.decode(nestedCBOR(2), maximumDepth: 2), .array([.array([])]))
        XCTAssertThrowsError(try DAGCBOR.decode(nestedCBOR(3), maximumDepth: 2)) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .tooDeep)
        }
        XCTAssertNoThrow(try DAGCBOR.decode(nestedCBOR(700), maximumDepth: 700))
        // The other rules still hold.
        XCTAssertThrowsError(try DAGCBOR.decode([0x80, 0x00], maximumDepth: 2)) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .trailingBytes)
        }
    }

    private func carFile(blockSizes: [Int]) -> [UInt8] {
        let blocks = blockSizes.enumerated().map { index, size in
            let content = Data([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size))
            return CARBlock(cid: CID(sha256Of: content, codec: .raw), bytes: content)
        }
        return CARFile(roots: blocks.prefix(1).map(\.cid), blocks: blocks).encoded()
    }

    func testCARBlockCountAtTheLimitReadsAndOneMoreIsLimitExceeded() throws {
        let bytes = carFile(blockSizes: [10, 20, 30])
        XCTAssertEqual(try CARFile(reading: bytes, limits: .init(maximumBlocks: 3)).blocks.count, 3)
        XCTAssertThrowsError(try CARFile(reading: bytes, limits: .init(maximumBlocks: 2))) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("more than 2 blocks"), "\(error)")
        }
        XCTAssertEqual(CARFile.Limits.default.maximumBlocks, .max)
    }

    func testCARBlockSizeAtTheLimitReadsAndOneByteMoreIsLimitExceeded() throws {
        let bytes = carFile(blockSizes: [5, 100, 7])
        XCTAssertEqual(try CARFile(reading: bytes, limits: .init(maximumBlockSize: 100)).blocks.count, 3)
        XCTAssertThrowsError(try CARFile(reading: bytes, limits: .init(maximumBlockSize: 99))) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("block 1 has 100 bytes"), "\(error)")
        }
        // The default bound: 4 MiB.
        let big = carFile(blockSizes: [4 << 20])
        XCTAssertNoThrow(try CARFile(reading: big, verifyingHashes: false, limits: .default))
        XCTAssertThrowsError(try CARFile(reading: carFile(blockSizes: [(4 << 20) + 1]), limits: .default)) { error in
            XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .limitExceeded)
        }
    }

    func testWebSocketFrameAtTheLimitIsReadAndOneByteMoreIsMessageTooBig() throws {
        var parser = WebSocketFrameParser(maximumFrameSize: 200)
        parser.append([0x82, 0x7E, 0x00, 200] + [UInt8](repeating: 7, count: 200))
        XCTAssertEqual(try parser.next()?.payload.count, 200)
        parser = WebSocketFrameParser(maximumFrameSize: 200)
        // Refused from the header alone: the 201 bytes are never waited for.
        parser.append([0x82, 0x7E, 0x00, 201])
        XCTAssertThrowsError(try parser.next()) { error in
            XCTAssertEqual((error as? XRPCWebSocketError)?.code, .messageTooBig)
        }
    }

    func testWebSocketMessageAtTheLimitIsWholeAndOneByteMoreIsMessageTooBig() throws {
        func frame(_ opcode: WebSocketFrame.Opcode, _ fin: Bool, _ count: Int) -> WebSocketFrame {
            WebSocketFrame(fin: fin, opcode: opcode, payload: [UInt8](repeating: 0x41, count: count))
        }
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertNil(try assembler.add(frame(.binary, false, 6)))
        XCTAssertEqual(try assembler.add(frame(.continuation, true, 4)), .binary(Data(repeating: 0x41, count: 10)))
        assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertNil(try assembler.add(frame(.text, false, 6)))
        XCTAssertThrowsError(try assembler.add(frame(.continuation, true, 5))) { error in
            XCTAssertEqual((error as? XRPCWebSocketError)?.code, .messageTooBig)
        }
    }
}
