import AtprotoLexicons
import Foundation
import SeededRandom
import XCTest
@_spi(Generated) import XRPCCore
import XRPCServer

/// The server's event-stream frames written straight from the typed messages give the bytes the
/// JSON path gives (`XRPCEventFrameEncoder.message(value.lexiconJSON, nsid:)`): the header's short
/// `t`, the body in canonical DAG-CBOR with its `$type` taken out, blocks and links binary. Over
/// seeded random `com.atproto.sync.subscribeRepos` messages of every kind, links as text and as
/// CIDs, unknown fields (a `$type` among them), unknown members, and messages that cannot be frames.
final class FrameWritingDifferentialTests: XCTestCase {
    static let nsid = NSID(rawValue: "com.atproto.sync.subscribeRepos")
    typealias Stream = ComAtprotoSyncSubscribeRepos

    /// Writes `message` both ways, in both framings, and compares; whether it made a frame.
    @discardableResult
    func assertFramesAgree(
        _ message: Stream.Message, _ label: @autoclosure () -> String, file: StaticString = #filePath,
        line: UInt = #line
    ) -> Bool {
        let throughJSON = try? XRPCEventFrameEncoder.message(message.lexiconJSON, nsid: Self.nsid)
        let typed = try? XRPCEventFrameEncoder.message(message, nsid: Self.nsid)
        XCTAssertEqual(typed, throughJSON, "\(label()): DAG-CBOR frame", file: file, line: line)
        let textThroughJSON = try? XRPCEventFrameEncoder.jsonMessage(message.lexiconJSON)
        let text = try? XRPCEventFrameEncoder.jsonMessage(message)
        XCTAssertEqual(text == nil, textThroughJSON == nil, "\(label()): JSON frame", file: file, line: line)
        if let text, let textThroughJSON {
            XCTAssertEqual(
                try JSONValue.parse(text), try JSONValue.parse(textThroughJSON), "\(label()): JSON frame",
                file: file, line: line)
        }
        return typed != nil
    }

    func testRandomMessagesWriteTheSameFrames() {
        var framed = 0
        var refused = 0
        for seed in 0..<UInt64(400) {
            var random = RandomMessage(seed: seed)
            let message = random.message()
            if assertFramesAgree(message, "seed \(seed)") { framed += 1 } else { refused += 1 }
        }
        // Both kinds occur: most messages are frames, a few carry a float or a bad link.
        XCTAssertGreaterThan(framed, 300)
        XCTAssertGreaterThan(refused, 5)
    }

    func testAFrameCarriesTheBinaryFormsAndTheShortType() throws {
        let cid = CID(sha256Of: Array("block".utf8))
        let blocks = Data((0..<300).map { UInt8($0 % 251) })
        let commit = Stream.Commit(
            seq: 7, rebase: false, tooBig: false, repo: "did:plc:abc", commit: cid.link, rev: "3l2pq", since: nil,
            blocks: LexiconBytes(blocks),
            ops: [.init(action: "create", path: "app.bsky.feed.post/1", cid: cid.link)], blobs: [],
            time: "2024-01-01T00:00:00Z")
        let frame = try XRPCEventFrameEncoder.message(
            Stream.Message.comAtprotoSyncSubscribeReposCommit(commit), nsid: Self.nsid)
        let decoded = try XRPCEventFrame(decoding: frame)
        guard case .message(let type, let body) = decoded else { return XCTFail("not a message frame: \(decoded)") }
        XCTAssertEqual(type, "#commit")
        XCTAssertNil(body["$type"])
        XCTAssertEqual(body["blocks"], AtprotoDataModelValue.bytes(blocks))
        XCTAssertEqual(body["commit"], AtprotoDataModelValue.link(cid))
        XCTAssertEqual(body["since"], AtprotoDataModelValue.null)
    }

    func testAMessageThatIsNotInTheDataModelIsAnError() {
        let info = Stream.Info(name: "OutdatedCursor", unknownFields: ["ratio": .number(0.5)])
        XCTAssertThrowsError(
            try XRPCEventFrameEncoder.message(Stream.Message.comAtprotoSyncSubscribeReposInfo(info), nsid: Self.nsid)
        ) { error in
            // The error names the field it is in.
            XCTAssertEqual((error as? LexiconDecodingError)?.path, ["ratio"], "\(error)")
        }
        let link = Stream.RepoOp(action: "delete", path: "a/b", cid: CIDLink("not a cid"))
        let commit = Stream.Commit(
            seq: 1, rebase: false, tooBig: false, repo: "did:plc:abc", commit: CIDLink("bafy"), rev: "r", since: nil,
            blocks: LexiconBytes(Data()), ops: [link], blobs: [], time: "2024-01-01T00:00:00Z")
        XCTAssertThrowsError(
            try XRPCEventFrameEncoder.message(
                Stream.Message.comAtprotoSyncSubscribeReposCommit(commit), nsid: Self.nsid))
    }
}

/// Seeded random subscribeRepos messages: every member, nullable and optional fields set or not, links
/// as text or as CIDs, unknown fields (now and then a float, a `$type`, a nested link or bytes), and
/// unknown or malformed links.
struct RandomMessage {
    typealias Stream = ComAtprotoSyncSubscribeRepos
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    mutating func link() -> CIDLink {
        let cid = CID(sha256Of: [UInt8(int(0...255)), UInt8(int(0...255))])
        if chance(0.01) { return CIDLink("bafy-not-a-cid") }
        return chance(0.5) ? cid.link : CIDLink(cid.string)
    }

    mutating func unknownFields() -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for index in 0..<int(0...3) {
            let key = ["zz", "a\(index)", "é", "seq2", "longer-key-\(index)"][int(0...4)]
            switch int(0...5) {
            case 0: fields[key] = .integer(int(-1_000_000...1_000_000))
            case 1: fields[key] = .string("v\(index)")
            case 2: fields[key] = .object(["$link": .string(CID(sha256Of: [UInt8(index)]).string)])
            case 3: fields[key] = .object(["$bytes": .string("aGVsbG8")])
            case 4: fields[key] = chance(0.2) ? .number(1.5) : .array([.null, .bool(true)])
            default: fields[key] = .object(["nested": .integer(index)])
            }
        }
        if chance(0.03) { fields["$type"] = .string("com.atproto.sync.subscribeRepos#other") }
        return fields
    }

    mutating func message() -> Stream.Message {
        let time: LexiconDatetime = "2024-01-01T00:00:00Z"
        switch int(0...6) {
        case 0, 1, 2:
            let ops = (0..<int(0...4)).map { index -> Stream.RepoOp in
                let deleted = chance(0.3)
                return Stream.RepoOp(
                    action: deleted ? "delete" : "create", path: "app.bsky.feed.post/\(index)",
                    cid: deleted ? nil : link(), prev: chance(0.3) ? link() : nil, unknownFields: unknownFields())
            }
            let blocks = Data((0..<int(0...600)).map { _ in UInt8(int(0...255)) })
            return .comAtprotoSyncSubscribeReposCommit(
                Stream.Commit(
                    seq: int(0...1 << 40), rebase: chance(0.1), tooBig: chance(0.1), repo: "did:plc:abc",
                    commit: link(), rev: "3l2pq", since: chance(0.5) ? "3l2pp" : nil, blocks: LexiconBytes(blocks),
                    ops: ops, blobs: (0..<int(0...2)).map { _ in link() }, time: time,
                    prevData: chance(0.5) ? link() : nil, unknownFields: unknownFields()))
        case 3:
            return .comAtprotoSyncSubscribeReposIdentity(
                Stream.Identity(
                    seq: int(0...1000), did: "did:plc:abc", time: time, handle: chance(0.5) ? "a.test" : nil,
                    unknownFields: unknownFields()))
        case 4:
            return .comAtprotoSyncSubscribeReposAccount(
                Stream.Account(
                    seq: int(0...1000), did: "did:plc:abc", time: time, active: chance(0.5),
                    status: chance(0.5) ? "takendown" : nil, unknownFields: unknownFields()))
        case 5:
            return .comAtprotoSyncSubscribeReposInfo(
                Stream.Info(name: "OutdatedCursor", message: chance(0.5) ? "old" : nil, unknownFields: unknownFields()))
        default:
            var fields = unknownFields()
            fields["$type"] = .string(chance(0.5) ? "com.atproto.sync.subscribeRepos#future" : "com.example.other#x")
            return .unknown(LexiconUnknownValue(.object(fields)))
        }
    }
}
