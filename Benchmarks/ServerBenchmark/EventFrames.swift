// The server's subscription frames: a firehose of typed `com.atproto.sync.subscribeRepos` messages
// (mostly commits with 0.5-4 KB of blocks and one to three ops, links as CIDs, now and then an
// identity or account event) written as DAG-CBOR frames straight from the types, beside the same
// frames written through each message's JSON form converted to the data model (how they were written
// before: blocks to base64 and back, every link to text and back).
import AtprotoLexicons
import BenchmarkSupport
import Foundation
import XRPCServer

enum EventFrames {
    typealias Stream = ComAtprotoSyncSubscribeRepos

    static func messages(count: Int) -> [Stream.Message] {
        var random = WorkloadRandom(seed: 42)
        let time: LexiconDatetime = "2026-11-29T12:00:00.000Z"
        func cid() -> CIDLink { CID(sha256Of: withUnsafeBytes(of: random.next()) { Array($0) }).link }
        return (0..<count).map { index in
            switch index % 20 {
            case 0:
                return .comAtprotoSyncSubscribeReposIdentity(
                    .init(seq: index, did: "did:plc:abcdefghijklmnopqrstuvwx", time: time, handle: "alice.test"))
            case 1:
                return .comAtprotoSyncSubscribeReposAccount(
                    .init(seq: index, did: "did:plc:abcdefghijklmnopqrstuvwx", time: time, active: true))
            default:
                let size = 500 + Int(random.next() % 3500)
                let blocks = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                let ops = (0..<(1 + Int(random.next() % 3))).map { op in
                    Stream.RepoOp(action: "create", path: "app.bsky.feed.post/3l2pq\(index)x\(op)", cid: cid())
                }
                return .comAtprotoSyncSubscribeReposCommit(
                    .init(
                        seq: index, rebase: false, tooBig: false, repo: "did:plc:abcdefghijklmnopqrstuvwx",
                        commit: cid(),
                        rev: TID(rawValue: "3l2pq\(index)"), since: TID(rawValue: "3l2pp\(index)"),
                        blocks: LexiconBytes(blocks), ops: ops,
                        blobs: index % 5 == 0 ? [cid()] : [], time: time, prevData: cid()))
            }
        }
    }

    static func run(rounds: Int) throws {
        let nsid = NSID(rawValue: "com.atproto.sync.subscribeRepos")
        let messages = messages(count: 500)
        for message in messages {
            guard
                try XRPCEventFrameEncoder.message(message, nsid: nsid)
                    == XRPCEventFrameEncoder.message(message.lexiconJSON, nsid: nsid)
            else { throw Failure(description: "the frames written both ways differ") }
        }
        let bytes = try messages.reduce(0) { $0 + (try XRPCEventFrameEncoder.message($1, nsid: nsid)).count }
        let comparison = try alternatingRounds(
            rounds: rounds, operations: messages.count,
            ours: {
                for message in messages where try XRPCEventFrameEncoder.message(message, nsid: nsid).isEmpty {
                    throw Failure(description: "an empty frame")
                }
            },
            reference: {
                let start = threadCPUTime()
                for message in messages
                where try XRPCEventFrameEncoder.message(message.lexiconJSON, nsid: nsid).isEmpty {
                    throw Failure(description: "an empty frame")
                }
                return threadCPUTime() - start
            })
        for line in Report(unit: "frames", bytesPerOperation: bytes / messages.count).lines(
            comparison, ours: "subscribeRepos frames written from the types",
            reference: "the same frames through their JSON form")
        { print(line) }
    }
}
