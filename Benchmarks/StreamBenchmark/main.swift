// xrpc-bench: decodes a recorded stream of synthetic firehose #commit frames on one core and
// prints frames/s and MB/s, by hand and then through XRPCEventStream. A figure to read, not a test.
// Times are CPU time (the thread's, or the process's for the stream), so that other processes on a
// busy machine do not count.
//
//   swift run -c release --package-path Benchmarks xrpc-bench [frames] [rounds]
//   (default 10000 frames, 11 rounds)
//
// XRPC_BENCH_FRAMES=<file> reads the frames from a file instead (each after its length as 4 bytes
// big-endian), such as the PDS's stream that `VERIFY_BENCH_SAVE_FRAMES=<file> verify-bench` saves.
//
// The decoding figures are medians over alternating rounds of ours and libipld (the Rust DAG-CBOR
// and CAR decoder behind the Python atproto SDK) from the venv of scripts/pds.sh, with the spread.

import BenchmarkSupport
import Foundation
import XRPCRuntime

/// What decoding the whole stream found, so that no work can be optimised away.
struct Tally {
    var frames = 0
    var blocks = 0
    var records = 0
    var textBytes = 0
}

/// The errors the benchmark can meet; any of them means the decoder or the stream is wrong.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Decodes one frame the way a firehose consumer does: the header, the body, the CAR of `blocks`
/// with every block's CID checked, and every record to a data-model value.
func decode(_ frame: Data, into tally: inout Tally, json: Bool) throws {
    let (header, headerLength) = try DAGCBOR.decodePrefix(frame)
    guard header["op"] == .integer(1), header["t"] == .string("#commit") else {
        throw BenchmarkError(description: "unexpected header \(header)")
    }
    let body = try DAGCBOR.decode(frame[(frame.startIndex + headerLength)...])
    guard case .bytes(let blocks)? = body["blocks"], case .array(let ops)? = body["ops"],
        case .link(let commit)? = body["commit"]
    else { throw BenchmarkError(description: "commit body lacks blocks, ops or commit") }
    let car = try CARFile(reading: blocks)
    guard car.roots == [commit] else { throw BenchmarkError(description: "CAR root is not the commit") }
    for block in car.blocks {
        let value = try DAGCBOR.decode(block.bytes)
        tally.blocks += 1
        if case .string(let text)? = value["text"] {
            tally.records += 1
            tally.textBytes += text.utf8.count
        }
        if json, case .object(let fields) = value.json {
            tally.textBytes += fields.count
        }
    }
    for op in ops where op["cid"] != nil && op["cid"] != .null {
        guard case .link(let cid)? = op["cid"], car.blocks.contains(where: { $0.cid == cid }) else {
            throw BenchmarkError(description: "an op's record is missing from the CAR")
        }
    }
    tally.frames += 1
}

/// Runs `body` once and returns the thread CPU seconds it took.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = threadCPUTime()
    try body()
    return threadCPUTime() - start
}

func run() throws -> (frames: [Data], runs: Int) {
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let frameCount = arguments.first ?? 10_000
    let runs = arguments.dropFirst().first ?? 11

    let frames: [Data]
    if let path = ProcessInfo.processInfo.environment["XRPC_BENCH_FRAMES"] {
        frames = try savedFrames(URL(fileURLWithPath: path))
    } else {
        var source = SyntheticFirehose()
        frames = source.frames(frameCount)
    }
    let totalBytes = frames.reduce(0) { $0 + $1.count }
    print("stream: \(frames.count) #commit frames, \(totalBytes) bytes (\(totalBytes / frames.count) bytes/frame)")

    let reference: ReferenceProcess?
    do {
        reference = try ReferenceProcess(script: libipldScript, inputData: lengthPrefixed(frames))
    } catch {
        reference = nil
        print("note: libipld not measured: \(error)")
    }
    for (label, json) in [
        ("decode (header, body, CAR + CID check, records)", false), ("same + records to JSONValue", true),
    ] {
        var tally = Tally()
        let comparison = try alternatingRounds(
            rounds: runs, operations: frames.count,
            ours: {
                tally = Tally()
                for frame in frames { try decode(frame, into: &tally, json: json) }
            },
            reference: reference.map { process in { try process.run("decode", count: 1) } })
        print("\(label), \(runs) alternating rounds:")
        Report(unit: "frames", bytesPerOperation: totalBytes / frames.count).lines(
            comparison, ours: "  XRPCRuntime (ours)", reference: "  libipld (Rust, from Python)",
            note: "the CID hash checks (libipld's decode_car does not check them)"
                + (json ? "; its values are Python's, with no JSON form made" : "")
        ).forEach { print($0) }
        print("  \(tally.frames) frames, \(tally.blocks) blocks, \(tally.records) records")
    }
    try breakdown(frames)
    return (frames, runs)
}

/// Times each stage alone over the whole stream, to show where the time goes.
func breakdown(_ frames: [Data]) throws {
    var bodies: [Data] = []
    var cars: [CARFile] = []
    let decodeFrames = try seconds {
        for frame in frames {
            let (_, headerLength) = try DAGCBOR.decodePrefix(frame)
            let body = try DAGCBOR.decode(frame[(frame.startIndex + headerLength)...])
            if case .bytes(let blocks)? = body["blocks"] { bodies.append(blocks) }
        }
    }
    let readCARs = try seconds { cars = try bodies.map { try CARFile(reading: $0, verifyingHashes: false) } }
    var matched = 0
    let checkHashes = try seconds {
        for car in cars { for block in car.blocks where try block.cid.matches(block.bytes) { matched += 1 } }
    }
    var decoded = 0
    let decodeBlocks = try seconds {
        for car in cars { for block in car.blocks { decoded += try DAGCBOR.decode(block.bytes) == .null ? 0 : 1 } }
    }
    let perFrame = { (time: Double) in "\(format(time / Double(frames.count) * 1e6)) µs/frame" }
    print("breakdown (one run each):")
    print("  header + body:        \(perFrame(decodeFrames))")
    print("  CAR structure:        \(perFrame(readCARs))")
    print("  SHA-256 of \(matched) blocks: \(perFrame(checkHashes))")
    print("  \(decoded) blocks to values: \(perFrame(decodeBlocks))")
}

func format(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
}

do {
    let (frames, runs) = try run()
    try await benchmarkStream(
        frames, runs: runs,
        title: "XRPCEventStream, untyped (messages as LexiconUnknownValue, records as JSON), process CPU time",
        stream: streamFrames)
    try await benchmarkStream(
        frames, runs: runs,
        title: "XRPCEventStream, typed through the JSON form (as before), process CPU time",
        stream: streamTypedFramesThroughJSON)
    try await benchmarkStream(
        frames, runs: runs,
        title: "XRPCEventStream, typed (the generated Message, records by LexiconRecordTypes.bluesky), "
            + "process CPU time",
        stream: streamTypedFrames)
    try await benchmarkLoopbackStream(frames, runs: runs)
} catch {
    print("xrpc-bench: \(error)")
    exit(1)
}
