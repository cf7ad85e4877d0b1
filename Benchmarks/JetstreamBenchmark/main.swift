// jetstream-bench: Jetstream v2 events per second through the public client (`JetstreamClient`:
// the `xrpc.v1.json` frame read, the event typed, its record decoded into the SDK's generated type)
// beside a raw parse of the same frames' JSON (`JSONValue.parse`, the package's untyped parser), in
// alternating rounds in one process, CPU time. A figure to read, not a test.
//
//   swift run -c release --package-path Benchmarks jetstream-bench [frames] [rounds]
//   (default 20000 frames, 11 rounds)
//
// The frames are synthetic (SyntheticJetstream: posts, likes, reposts, follows, deletes, as the shared
// PDS's Jetstream writes them) and replayed from memory by a WebSocket transport of this file, so the
// figure is the client's own cost, not the network's. The reference leaves out what the client adds:
// typing the event (DID, NSID, record key, TID and CID checks), decoding the record into its
// generated type, the cursor bookkeeping and the async sequence.

import BenchmarkSupport
import Foundation
import Jetstream
import XRPCRuntime

/// Replays `frames` as text messages on every connection, then closes normally.
final class ReplayTransport: XRPCWebSocketTransport {
    let frames: [String]
    init(frames: [String]) { self.frames = frames }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        ReplayConnection(frames: frames)
    }
}

// @unchecked Sendable: `next` is read and written under `lock`.
final class ReplayConnection: XRPCWebSocketConnection, @unchecked Sendable {
    private let frames: [String]
    private let lock = NSLock()
    private var next = 0
    init(frames: [String]) { self.frames = frames }

    func receive() async throws -> XRPCWebSocketMessage? {
        let index: Int = lock.withLock {
            defer { next += 1 }
            return next
        }
        return index < frames.count ? .text(frames[index]) : nil
    }

    func send(_ message: XRPCWebSocketMessage) async throws {}

    func close(code: XRPCWebSocketCloseCode, reason: String) {}
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 20_000
let rounds = arguments.dropFirst().first ?? 11
let frames = SyntheticJetstream.frames(count: count)
let bytes = frames.reduce(0) { $0 + $1.utf8.count }
guard let service = URL(string: "ws://jetstream.invalid") else { throw BenchmarkError(description: "no URL") }
let client = JetstreamClient(service: service, transport: ReplayTransport(frames: frames), reconnectPolicy: nil)

/// Reads the whole stream through the client; checks every event arrived and the records decoded.
func throughTheClient() async throws {
    var events = 0
    var records = 0
    for try await message in try client.subscribe() {
        guard let event = message.event else { continue }
        events += 1
        if case .known? = event.commit?.record { records += 1 }
    }
    guard events == frames.count, records > frames.count / 2 else {
        throw BenchmarkError(description: "\(events) events, \(records) typed records of \(frames.count) frames")
    }
}

/// Parses every frame's JSON and reads the fields an app reads, untyped.
func rawParse() throws {
    var seen = 0
    for frame in frames {
        let value = try JSONValue.parse(frame)
        guard let payload = value.objectValue?["payload"]?.objectValue, payload["did"] != nil, payload["seq"] != nil
        else {
            throw BenchmarkError(description: "a frame without its payload")
        }
        if payload["record"] != nil { seen += 1 }
    }
    guard seen > frames.count / 2 else { throw BenchmarkError(description: "\(seen) records") }
}

print("jetstream-bench: \(frames.count) synthetic v2 frames, \(bytes / frames.count) bytes each on average")
let comparison = try await alternatingAsyncRounds(
    rounds: rounds, operations: frames.count, ours: { try await throughTheClient() },
    inProcessReference: { try rawParse() })
let report = Report(unit: "events")
for line in report.lines(
    comparison, ours: "JetstreamClient (typed events and records)", reference: "JSONValue.parse of the frames",
    note: "the event's typing and checks, the record's generated type, the cursor, the async sequence")
{
    print(line)
}
if let ratio = comparison.ratio {
    print(String(format: "our time / the raw parse's: %.2fx (target <= 1.3x)", 1 / ratio.median))
}
