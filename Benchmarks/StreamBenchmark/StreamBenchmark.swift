import AtprotoLexicons
import AtprotoVerification
import BenchmarkSupport
import Foundation
@_spi(Generated) import XRPCCore
import XRPCRuntime
import XRPCTesting

/// `subscribeRepos` as the runtime sees it without the generated types: the message is kept as an
/// `LexiconUnknownValue` (its JSON form, `$type` set), which the generated union would read next.
enum BenchSubscription: XRPCSubscription {
    static let nsid: NSID = "com.atproto.sync.subscribeRepos"
    typealias Parameters = XRPCNoParameters
    typealias Message = LexiconUnknownValue
    typealias Error = XRPCUndeclaredError
}

/// A transport whose one connection hands out recorded frames, then closes normally.
final class MemoryTransport: XRPCWebSocketTransport {
    let frames: [Data]

    init(frames: [Data]) { self.frames = frames }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        MemoryConnection(frames: frames)
    }
}

// @unchecked Sendable: `index` is read and written under `lock`; `frames` is a `let`.
final class MemoryConnection: XRPCWebSocketConnection, @unchecked Sendable {
    private let lock = NSLock()
    private let frames: [Data]
    private var index = 0

    init(frames: [Data]) { self.frames = frames }

    func receive() async throws -> XRPCWebSocketMessage? {
        lock.withLock {
            guard index < frames.count else { return nil }
            defer { index += 1 }
            return .binary(frames[index])
        }
    }

    func send(_ message: XRPCWebSocketMessage) async throws {}

    func close(code: XRPCWebSocketCloseCode, reason: String) {}
}

/// Reads every frame through `XRPCEventStream` (frame, `$type`, message JSON) and every commit's
/// records through `RepoCommitBlocks` (base64 of `blocks` decoded, CAR read, CIDs checked, records
/// to JSON). Returns the tally.
func streamFrames(_ frames: [Data]) async throws -> Tally {
    var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 501) })
    client.eventStreams = XRPCEventStreamOptions(
        serviceURL: URL(string: "ws://bench.invalid"), transport: MemoryTransport(frames: frames))
    var tally = Tally()
    let types = LexiconRecordTypes()
    for try await message in client.subscribe(BenchSubscription.self, parameters: .init()) {
        guard case .object(let fields) = message.json, message.type == "com.atproto.sync.subscribeRepos#commit",
            let blocksJSON = fields["blocks"], case .array(let ops)? = fields["ops"]
        else { throw BenchmarkError(description: "not a commit: \(message.type ?? "no $type")") }
        let blocks = try RepoCommitBlocks(car: LexiconBytes(lexiconJSON: blocksJSON).data)
        for op in ops {
            // A delete names no record.
            if case .object(let opFields) = op, opFields["cid"] == nil || opFields["cid"] == .null { continue }
            guard case .object(let opFields) = op, let path = opFields["path"]?.stringValue,
                let link = opFields["cid"], case .string(let cid)? = link.objectValue?["$link"]
            else { throw BenchmarkError(description: "malformed op \(op)") }
            let operation = try blocks.operation(
                action: .create, path: path, cid: try CID(cid), types: types)
            guard case .unknown(let record)? = operation.record else {
                throw BenchmarkError(description: "the record of \(path) is missing")
            }
            tally.records += 1
            tally.textBytes += record.json.objectValue?["text"]?.stringValue?.utf8.count ?? 0
        }
        tally.blocks += blocks.car.blocks.count
        tally.frames += 1
    }
    return tally
}

/// The generated message read from its JSON form, as the stream read every message before it read
/// them from the decoded DAG-CBOR: `init(lexiconJSON:)` only, so the stream's data-model value is
/// written as JSON (the `blocks` as base64) and the message read from that.
struct MessageThroughJSON: LexiconJSONBacked {
    let message: ComAtprotoSyncSubscribeRepos.Message
    init(lexiconJSON json: JSONValue) throws { message = try ComAtprotoSyncSubscribeRepos.Message(lexiconJSON: json) }
    var lexiconJSON: JSONValue { message.lexiconJSON }
}

enum BenchSubscriptionThroughJSON: XRPCSubscription {
    static let nsid: NSID = "com.atproto.sync.subscribeRepos"
    typealias Parameters = XRPCNoParameters
    typealias Message = MessageThroughJSON
    typealias Error = XRPCUndeclaredError
}

/// ``streamTypedFrames(_:)`` the way it ran before messages and records were read from the decoded
/// DAG-CBOR: each message and each record read from its JSON form.
func streamTypedFramesThroughJSON(_ frames: [Data]) async throws -> Tally {
    var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 501) })
    client.eventStreams = XRPCEventStreamOptions(
        serviceURL: URL(string: "ws://bench.invalid"), transport: MemoryTransport(frames: frames))
    var tally = Tally()
    let types = LexiconRecordTypes.bluesky
    for try await message in client.subscribe(BenchSubscriptionThroughJSON.self, parameters: .init()) {
        guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message.message else {
            throw BenchmarkError(description: "not a commit: \(message)")
        }
        let car = try CARFile(reading: commit.blocks.data)
        let blocks = car.blocksByCID
        for op in commit.ops {
            guard let link = op.cid else { continue }  // a delete names no record
            guard let block = blocks[try CID(link)] else {
                throw BenchmarkError(description: "the record of \(op.path) is missing")
            }
            let collection = NSID(rawValue: String(op.path.prefix { $0 != "/" }))
            switch types.record(try DAGCBOR.decode(block).json, collection: collection) {
            case .known(let record):
                tally.records += 1
                tally.textBytes += (record as? AppBskyFeedPost)?.text.utf8.count ?? 0
            case .unknown:
                tally.records += 1
            case .invalid(_, let reason):
                throw BenchmarkError(description: "the record of \(op.path) does not decode: \(reason)")
            }
        }
        tally.blocks += car.blocks.count
        tally.frames += 1
    }
    return tally
}

/// `subscribeRepos` through the generated method, as an app reads it: each message typed
/// (`ComAtprotoSyncSubscribeRepos.Message`, read from the decoded DAG-CBOR), then each commit's
/// `blocks` read by `RepoCommitBlocks` and each record typed by `LexiconRecordTypes.bluesky`.
func streamTypedFrames(_ frames: [Data]) async throws -> Tally {
    var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 501) })
    client.eventStreams = XRPCEventStreamOptions(
        serviceURL: URL(string: "ws://bench.invalid"), transport: MemoryTransport(frames: frames))
    var tally = Tally()
    let types = LexiconRecordTypes.bluesky
    for try await message in client.com.atproto.sync.subscribeRepos() {
        guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message else {
            throw BenchmarkError(description: "not a commit: \(message)")
        }
        let blocks = try RepoCommitBlocks(car: commit.blocks.data)
        for op in commit.ops {
            guard let link = op.cid else { continue }  // a delete names no record
            let operation = try blocks.operation(action: .create, path: op.path, cid: try CID(link), types: types)
            switch operation.record {
            case .known(let record)?:
                tally.records += 1
                tally.textBytes += (record as? AppBskyFeedPost)?.text.utf8.count ?? 0
            case .unknown?:
                tally.records += 1
            case .invalid(_, let reason)?:
                throw BenchmarkError(description: "the record of \(op.path) does not decode: \(reason)")
            case nil:
                throw BenchmarkError(description: "the record of \(op.path) is missing")
            }
        }
        tally.blocks += blocks.car.blocks.count
        tally.frames += 1
    }
    return tally
}

/// The raw decode of a frame, for the stream's reference: the header, the body, the CAR with every
/// block's CID checked, and the record of each operation to a data-model value (the blocks the stream
/// reads too; the MST nodes of a real commit are left as bytes by both), with no typing.
func rawDecode(_ frame: Data, into tally: inout Tally) throws {
    let (header, headerLength) = try DAGCBOR.decodePrefix(frame)
    guard header["op"] == .integer(1), case .string? = header["t"] else {
        throw BenchmarkError(description: "unexpected header \(header)")
    }
    let body = try DAGCBOR.decode(frame[(frame.startIndex + headerLength)...])
    guard case .bytes(let blocks)? = body["blocks"], case .array(let ops)? = body["ops"] else {
        throw BenchmarkError(description: "commit body lacks blocks or ops")
    }
    let car = try CARFile(reading: blocks)
    for op in ops {
        guard case .link(let cid)? = op["cid"] else { continue }  // a delete names no record
        guard let block = car.block(for: cid) else { throw BenchmarkError(description: "a record is missing") }
        if case .map(let fields) = try DAGCBOR.decode(block) {
            tally.records += 1
            tally.textBytes += fields["text"]?.stringValue?.utf8.count ?? 0
        }
    }
    tally.blocks += car.blocks.count
    tally.frames += 1
}

/// Times `stream` (``streamFrames(_:)`` or ``streamTypedFrames(_:)``) over the stream in `runs`
/// rounds after a warm-up, alternating with the raw decode of the same frames
/// (``rawDecode(_:into:)``), and prints both with the ratio under `title`.
func benchmarkStream(
    _ frames: [Data], runs: Int, title: String, stream: @escaping ([Data]) async throws -> Tally
) async throws {
    let totalBytes = frames.reduce(0) { $0 + $1.count }
    var tally = Tally()
    var raw = Tally()
    let comparison = try await alternatingAsyncRounds(
        rounds: runs, operations: frames.count, ours: { tally = try await stream(frames) },
        inProcessReference: {
            raw = Tally()
            for frame in frames { try rawDecode(frame, into: &raw) }
        })
    print(title)
    let report = Report(unit: "frames", bytesPerOperation: totalBytes / frames.count)
    print(report.line("  XRPCRuntime (ours)", comparison.ours))
    if let reference = comparison.reference, let ratio = comparison.ratio {
        print(report.line("  raw decode, same rounds", reference))
        print(
            String(
                format: "  stream time / raw decode time (median of rounds): %.2fx, IQR %.2f-%.2f",
                1 / ratio.median, 1 / ratio.quantile(0.75), 1 / ratio.quantile(0.25)))
    }
    print("  \(tally.frames) frames, \(tally.blocks) blocks, \(tally.records) records (raw: \(raw.records) records)")
}
