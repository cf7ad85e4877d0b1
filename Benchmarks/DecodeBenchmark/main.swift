// Decoding a realistic timeline page (app.bsky.feed.getTimeline output: posts with authors, facets,
// embeds, labels, viewer state, replies, reposts) into the generated types, beside our own untyped
// parse of the same bytes and beside Foundation and Python decoding them, in alternating rounds: each
// figure is the median CPU time per page over the rounds, with its interquartile spread.
//
//     swift run -c release --package-path Benchmarks lexicon-decode-bench [posts, default 100] [rounds, default 15]
//     perf record -g Benchmarks/.build/release/lexicon-decode-bench --profile-typed [posts]   (typed decode only)
//     Benchmarks/.build/release/lexicon-decode-bench --peak-memory-only                      (the memory figures only)
//
// Then the peak memory of decoding a 10 MB page, typed from the text beside typed through a tree, each
// in child processes (PeakMemory.swift).
//
// What each side does:
// - typed decode: `LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)`, the
//   bytes to generated structs, keeping unknown fields and open-union members (lossless);
// - untyped parse: `JSONValue.parse(data)`, the bytes to our JSON tree, no types;
// - JSONSerialization: the bytes to Foundation's untyped tree (NSDictionary, NSArray, NSString);
// - JSONDecoder: the same generated types through `Codable`;
// - Python json.loads (from the venv of scripts/pds.sh, or $BENCH_PYTHON): the bytes to dicts and
//   lists in C, no types; it pays one interpreter call per page, negligible here.
import AtprotoLexicons
import BenchmarkSupport
import Foundation

if let flag = CommandLine.arguments.firstIndex(of: "--peak-memory") {
    PeakMemory.runChild(Array(CommandLine.arguments[(flag + 1)...]))
}
if CommandLine.arguments.contains("--peak-memory-only") {
    do {
        try PeakMemory.report(megabytes: 10, runs: 3).forEach { print($0) }
        exit(0)
    } catch {
        print("lexicon-decode-bench: \(error)")
        exit(1)
    }
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let postCount = arguments.first ?? 100
let rounds = arguments.dropFirst().first ?? 15
let data = Data(TimelinePage.json(posts: postCount).utf8)

// The page must be what it claims: a valid getTimeline output that decodes whole and writes back
// unchanged, by both decoding paths.
do {
    let page = try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
    let problems = page.feed.enumerated().flatMap { index, item in
        item.post.lexiconViolations.map { "feed[\(index)].post\($0.path.dropFirst()): \($0.message)" }
    }
    guard page.feed.count == postCount, problems.isEmpty else {
        print("the benchmark page is not a valid timeline page:\n" + problems.prefix(10).joined(separator: "\n"))
        exit(1)
    }
    let tree = try JSONValue.parse(data)
    guard page.lexiconJSON == tree, try AppBskyFeedGetTimeline.Output(lexiconJSON: tree) == page else {
        print("the benchmark page does not write back unchanged")
        exit(1)
    }
} catch {
    print("the benchmark page does not decode: \(error)")
    exit(1)
}

/// Pages per round: enough for a round to take tens of milliseconds.
let repeats = max(1, 2_000 / postCount)

/// A round of `body` done `count` times, as CPU seconds: a reference run in this process.
func cpuSeconds(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = threadCPUTime()
    for _ in 0..<count { try body() }
    return threadCPUTime() - start
}

func typedDecode() throws {
    _ = try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
}

let python: ReferenceProcess?
var pythonNote: String?
do {
    python = try ReferenceProcess(
        script: "import json\nDATA = open(INPUT, 'rb').read()\ntasks = {'loads': lambda: json.loads(DATA)}",
        inputData: data)
} catch {
    python = nil
    pythonNote = "\(error)"
}

// For a profiler: only the typed decode, for a few seconds.
if CommandLine.arguments.contains("--profile-typed") {
    for _ in 0..<(50 * repeats) { try typedDecode() }
    exit(0)
}

let report = Report(unit: "pages", bytesPerOperation: data.count)
print(
    "lexicon-decode-bench: timeline page of \(postCount) posts, \(data.count) bytes; median CPU time per page over "
        + "\(rounds) alternating rounds of \(repeats) pages (ours, then the reference)")
do {
    let untyped = try alternatingRounds(
        rounds: rounds, operations: repeats, ours: { for _ in 0..<repeats { try typedDecode() } },
        reference: { try cpuSeconds(repeats) { _ = try JSONValue.parse(data) } })
    print("typed decode beside our untyped parse of the same bytes:")
    report.lines(untyped, ours: "  typed decode (lossless)", reference: "  JSONValue.parse (untyped, ours)")
        .forEach { print($0) }
    if let ratio = untyped.ratio {
        print(
            String(
                format: "  typing costs %.2fx our untyped parse (IQR %.2f-%.2f; target <= 1.1x)", 1 / ratio.median,
                1 / ratio.quantile(0.75), 1 / ratio.quantile(0.25)))
    }

    let dropping = try alternatingRounds(
        rounds: rounds, operations: repeats, ours: { for _ in 0..<repeats { try typedDecode() } },
        reference: {
            try cpuSeconds(repeats) {
                _ = try LexiconDecoder.droppingUnknownFields {
                    try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
                }
            }
        })
    print("typed decode beside the same decode dropping unknown fields (what losslessness costs):")
    report.lines(dropping, ours: "  typed decode (lossless)", reference: "  typed decode, unknown fields dropped")
        .forEach { print($0) }

    let foundation = try alternatingRounds(
        rounds: rounds, operations: repeats, ours: { for _ in 0..<repeats { try typedDecode() } },
        reference: { try cpuSeconds(repeats) { _ = try JSONSerialization.jsonObject(with: data) } })
    print("typed decode beside Foundation's untyped parse:")
    report.lines(
        foundation, ours: "  typed decode (lossless)", reference: "  JSONSerialization.jsonObject (untyped)",
        note: "types; it builds Foundation objects only"
    ).forEach { print($0) }

    let decoder = JSONDecoder()
    let codable = try alternatingRounds(
        rounds: rounds, operations: repeats, ours: { for _ in 0..<repeats { try typedDecode() } },
        reference: {
            try cpuSeconds(repeats) { _ = try decoder.decode(AppBskyFeedGetTimeline.Output.self, from: data) }
        })
    print("typed decode beside JSONDecoder into the same generated types (Codable):")
    report.lines(codable, ours: "  typed decode (LexiconDecoder)", reference: "  JSONDecoder().decode")
        .forEach { print($0) }

    let pythonRounds = try alternatingRounds(
        rounds: rounds, operations: repeats, ours: { for _ in 0..<repeats { try typedDecode() } },
        reference: python.map { reference in { try reference.run("loads", count: repeats) } })
    print("typed decode beside Python's json.loads (C) of the same bytes:")
    report.lines(
        pythonRounds, ours: "  typed decode (lossless)", reference: "  Python json.loads (untyped)",
        note: "types; it builds dicts and lists only"
    )
    .forEach { print($0) }
    if let pythonNote { print("  (\(pythonNote))") }

    try PeakMemory.report(megabytes: 10, runs: 3).forEach { print($0) }
} catch {
    print("lexicon-decode-bench: \(error)")
    exit(1)
}
