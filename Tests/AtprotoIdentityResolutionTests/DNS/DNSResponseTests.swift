import SeededRandom
import XCTest
import XRPCTesting

@testable import AtprotoIdentityResolution

/// ``DNSResponse/parse(_:for:allowTruncated:)`` on crafted and mangled packets.
final class DNSResponseTests: XCTestCase {
    private let query = DNSQuery(
        name: DNSName(labels: ["_atproto", "alice", "test"].map { Array($0.utf8) }), id: 0x1234)

    private var testQuery: DNSTestServer.Query {
        DNSTestServer.Query(id: 0x1234, flags: 0x0100, name: "_atproto.alice.test", type: 16, qclass: 1, overTCP: false)
    }

    private func parse(_ packet: [UInt8], allowTruncated: Bool = true) throws -> DNSResponse? {
        try DNSResponse.parse(packet, for: query, allowTruncated: allowTruncated)
    }

    func testReadsAnAnswer() throws {
        let packet = DNSTestMessage.answer(to: testQuery, answers: [DNSTestMessage.txt(["did=", "did:plc:x"])])
        XCTAssertEqual(try parse(packet), .records(["did=did:plc:x"]))
    }

    func testIgnoresWhatIsNoAnswerToTheQuery() throws {
        let answer = DNSTestMessage.answer(to: testQuery)
        XCTAssertNil(try parse([0x12]), "too short to carry the ID")
        XCTAssertNil(try parse(DNSTestMessage.answer(to: testQuery, id: 0x4321)), "another ID")
        var query = answer
        query[2] &= 0x7F
        XCTAssertNil(try parse(query), "QR clear: a query, not an answer")
        XCTAssertNil(try parse(DNSTestMessage.answer(to: testQuery, questionName: "_atproto.bob.test")))
        XCTAssertEqual(
            try parse(DNSTestMessage.answer(to: testQuery, questionName: "_ATPROTO.Alice.TEST")), .records([]),
            "the question compares case-insensitively")
    }

    func testRcodesAndTheTCBit() throws {
        XCTAssertEqual(try parse(DNSTestMessage.answer(to: testQuery, rcode: 3)), .nonexistent)
        XCTAssertEqual(try parse(DNSTestMessage.answer(to: testQuery, rcode: 2)), .failure(rcode: 2))
        XCTAssertEqual(try parse(DNSTestMessage.answer(to: testQuery, truncated: true)), .truncated)
        XCTAssertEqual(
            try parse(DNSTestMessage.answer(to: testQuery, truncated: true), allowTruncated: false), .records([]))
        // REFUSED without the question, as some servers send it.
        XCTAssertEqual(try parse([0x12, 0x34, 0x81, 0x85] + Array(repeating: 0, count: 8)), .failure(rcode: 5))
    }

    func testHeadersCutShortAreMalformed() {
        for length in 2..<12 {
            let packet = Array(DNSTestMessage.answer(to: testQuery)[0..<length])
            XCTAssertThrowsError(try parse(packet), "\(length) bytes")
        }
    }

    func testEveryPrefixOfAnAnswerIsMalformedNeverACrash() {
        let packet = DNSTestMessage.answer(
            to: testQuery, answers: [DNSTestMessage.cname(to: "x.test"), DNSTestMessage.txt(["abc", "def"])])
        for length in 2..<packet.count {
            XCTAssertThrowsError(try parse(Array(packet[0..<length])), "\(length) of \(packet.count) bytes")
        }
        XCTAssertNoThrow(try parse(packet))
    }

    func testReservedLabelTypesAndForwardPointersAreMalformed() {
        for owner: [UInt8] in [[0x40, 0x01], [0x80, 0x01], [0xC0, 0xFF], [0xFF, 0xFF], [0xC0]] {
            let packet = DNSTestMessage.answer(to: testQuery, answers: [DNSTestMessage.txt(owner: owner, ["x"])])
            XCTAssertThrowsError(try parse(packet), "owner \(owner)")
        }
    }

    func testAPointerChainGoingBackwardsIsRead() throws {
        // Answer 1's owner is "_atproto" + a pointer to "alice.test" inside the question (offset 21).
        let packet = DNSTestMessage.answer(
            to: testQuery,
            answers: [DNSTestMessage.txt(owner: [8] + Array("_atproto".utf8) + [0xC0, 21], ["one"])])
        XCTAssertEqual(try parse(packet), .records(["one"]))
    }

    func testACNAMELoopInTheAnswerEnds() throws {
        let packet = DNSTestMessage.answer(
            to: testQuery,
            answers: [
                DNSTestMessage.cname(to: "b.test"),
                DNSTestMessage.cname(owner: DNSTestMessage.wireName("b.test"), to: "_atproto.alice.test"),
                DNSTestMessage.txt(owner: DNSTestMessage.wireName("b.test"), ["via b"]),
                DNSTestMessage.txt(["direct"]),
            ])
        XCTAssertEqual(try parse(packet), .records(["via b", "direct"]))
    }

    func testAnAnswerOfAnotherClassIsSkipped() throws {
        let chaos = DNSTestMessage.record(type: 16, qclass: 3, data: [2, 104, 105])
        let packet = DNSTestMessage.answer(to: testQuery, answers: [chaos, DNSTestMessage.txt(["in"])])
        XCTAssertEqual(try parse(packet), .records(["in"]))
    }

    func testMangledAnswersNeverCrashOrHang() {
        var generator = SplitMix64(seed: 0x5EED)
        let base = DNSTestMessage.answer(
            to: testQuery,
            answers: [
                DNSTestMessage.cname(to: "hop.alice.test"), DNSTestMessage.txt(["did=did:plc:abc"]),
                DNSTestMessage.txt(owner: [3] + Array("hop".utf8) + [0xC0, 21], ["x", "y"]),
            ])
        for _ in 0..<20_000 {
            var packet = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 2..<packet.count, using: &generator)
                packet[index] = UInt8.random(in: .min ... .max, using: &generator)
            }
            if Bool.random(using: &generator) {
                packet.removeLast(Int.random(in: 0..<(packet.count - 2), using: &generator))
            }
            _ = try? parse(packet)
        }
    }
}
