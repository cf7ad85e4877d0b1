import AtprotoLexicons
import Foundation

// Decoding a timeline page into the generated types, against JSONSerialization on the same bytes.
// Run: swift run -c release lexicon-decode-bench [posts] [runs]
// Figures are the median and best of `runs` timed runs after a warm-up, each run decoding the page
// enough times to take a measurable while.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let postCount = arguments.first ?? 100
let runs = arguments.dropFirst().first ?? 15
let data = Data(TimelinePage.json(posts: postCount).utf8)

// The page must be what it claims: a valid getTimeline output that decodes whole.
do {
    let page = try AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(data))
    let problems = page.feed.enumerated().flatMap { index, item in
        item.post.lexiconViolations.map { "feed[\(index)].post\($0.path.dropFirst()): \($0.message)" }
    }
    guard page.feed.count == postCount, problems.isEmpty else {
        print("the benchmark page is not a valid timeline page:\n" + problems.prefix(10).joined(separator: "\n"))
        exit(1)
    }
    guard try page.lexiconJSON == JSONValue.parse(data) else {
        print("the benchmark page does not write back unchanged")
        exit(1)
    }
} catch {
    print("the benchmark page does not decode: \(error)")
    exit(1)
}

/// Seconds per decode: the median and best over `runs` runs of `repeats` decodes each.
func measure(repeats: Int, _ body: () throws -> Void) rethrows -> (median: Double, best: Double) {
    try body()
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<repeats { try body() }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(repeats))
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}

let repeats = max(1, 2_000 / postCount)
let untyped = try measure(repeats: repeats) {
    _ = try JSONSerialization.jsonObject(with: data)
}
let parseOnly = try measure(repeats: repeats) {
    _ = try JSONValue.parse(data)
}
let typed = try measure(repeats: repeats) {
    _ = try AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(data))
}
let typedDropping = try measure(repeats: repeats) {
    _ = try LexiconDecoder.droppingUnknownFields {
        try AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(data))
    }
}
let fastEntry = try measure(repeats: repeats) {
    _ = try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
}
let jsonDecoder = JSONDecoder()
let codable = try measure(repeats: max(1, repeats / 4)) {
    _ = try jsonDecoder.decode(AppBskyFeedGetTimeline.Output.self, from: data)
}
let codableBefore = try measure(repeats: max(1, repeats / 4)) {
    _ = try jsonDecoder.decode(CascadeDecoded.self, from: data)
}
let encode = try measure(repeats: repeats) {
    let page = try AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(data))
    _ = page.lexiconJSON.serialized()
}

func line(_ name: String, _ figures: (median: Double, best: Double)) -> String {
    let megabytes = Double(data.count) / 1e6
    return name.padding(toLength: 48, withPad: " ", startingAt: 0)
        + String(
            format: "%8.3f ms  (best %7.3f)  %7.1f MB/s", figures.median * 1e3, figures.best * 1e3,
            megabytes / figures.median)
}

print("timeline page: \(postCount) posts, \(data.count) bytes; \(runs) runs of \(repeats) decodes each")
print(line("JSONSerialization.jsonObject (untyped)", untyped))
print(line("JSONValue.parse (untyped, ours)", parseOnly))
print(line("typed decode, lossless (parse + generated types)", typed))
print(line("typed decode, unknown fields dropped", typedDropping))
print(line("typed decode + write back + serialize", encode))
print(line("LexiconDecoder().decode / init(jsonData:)", fastEntry))
print(line("JSONDecoder().decode (Codable)", codable))
print(line("JSONDecoder, Codable as before (kind cascade)", codableBefore))
print(String(format: "JSONDecoder / LexiconDecoder: %.2fx", codable.median / fastEntry.median))
print(String(format: "JSONDecoder before / LexiconDecoder: %.2fx", codableBefore.median / fastEntry.median))
print(String(format: "typed / JSONSerialization: %.2fx (target <= 1.5x)", typed.median / untyped.median))
print(
    String(
        format: "losslessness costs: %+.1f%% over decoding without it (target <= 20%%)",
        (typed.median / typedDropping.median - 1) * 100))
