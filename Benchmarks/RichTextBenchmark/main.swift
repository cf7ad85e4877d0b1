// Rich text figures: the segments of a 300-grapheme post with many facets per second, and facet
// detection over a timeline page's 100 texts, each beside a reference in the same run (see
// Reference.swift: the official TypeScript cannot run here, so the references are straightforward
// Swift ports of what it does).
//
//     swift run -c release --package-path Benchmarks bluesky-bench [rounds, default 15]
//
// Each figure is the median CPU time of the rounds (this thread's CPU clock), ours and the
// reference alternating round by round, with the spread (lowest and highest round).
import AtprotoLexicons
import BlueskyKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 15

/// This thread's CPU time in seconds.
func cpuTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// Seconds per call of `body`, timed over `repeats` calls in one round.
func round(_ repeats: Int, _ body: () -> Int) -> Double {
    var sink = 0
    let start = cpuTime()
    for _ in 0..<repeats { sink &+= body() }
    let elapsed = cpuTime() - start
    if sink == -1 { print("") }  // keeps the work from being optimized away
    return elapsed / Double(repeats)
}

struct Figures {
    var samples: [Double] = []
    var median: Double { samples.sorted()[samples.count / 2] }
    var spread: (Double, Double) { (samples.min() ?? 0, samples.max() ?? 0) }
}

/// Alternating rounds of `ours` and `reference`, after a warm-up of each.
func compare(repeats: Int, ours: () -> Int, reference: () -> Int) -> (Figures, Figures) {
    _ = round(repeats, ours)
    _ = round(repeats, reference)
    var a = Figures()
    var b = Figures()
    for _ in 0..<rounds {
        a.samples.append(round(repeats, ours))
        b.samples.append(round(repeats, reference))
    }
    return (a, b)
}

func line(_ name: String, _ figures: Figures, unit: String) -> String {
    let (low, high) = figures.spread
    return name.padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(
            format: "%9.2f µs  (%.2f-%.2f)  %10.0f %@/s", figures.median * 1e6, low * 1e6, high * 1e6,
            1 / figures.median, unit)
}

let post = Workload.longPost(facetCount: 40)
let shuffled = RichText(
    text: post.text,
    facets: post.facets.reversed()
        + post.facets.prefix(10).map { facet in
            AppBskyRichtextFacet(bytes: (facet.index.byteStart + 1)..<(facet.index.byteEnd + 3), feature: .tag("x"))
        })
let texts = Workload.timelineTexts()

// The workloads must be what they claim.
guard post.text.count == 300, post.facets.count >= 30, post.segments().map(\.text).joined() == post.text,
    Reference.segments(post).joined() == post.text
else {
    print(
        "error: the benchmark post is not a 300-grapheme post with 30 facets or more whose segments make its "
            + "text: \(post.text.count) graphemes, \(post.facets.count) facets")
    exit(1)
}
let detectedCount = texts.reduce(0) { $0 + FacetDetector.detect(in: $1).count }
print(
    "bluesky-bench: \(rounds) rounds, median CPU time per call (lowest-highest round); post: \(post.text.count) "
        + "graphemes, \(post.utf8Count) bytes, \(post.facets.count) facets; timeline: \(texts.count) texts, "
        + "\(texts.reduce(0) { $0 + $1.utf8.count }) bytes, \(detectedCount) facets detected")

let (segments, segmentsReference) = compare(
    repeats: 2000, ours: { post.segments().count }, reference: { Reference.segments(post).count })
print(line("segments, 300-grapheme post, \(post.facets.count) facets", segments, unit: "posts"))
print(line("  reference: byte-array slices (no graphemes)", segmentsReference, unit: "posts"))
let (wrong, _) = compare(repeats: 2000, ours: { shuffled.segments().count }, reference: { 0 })
print(line("segments, same post, facets reversed + 10 bad", wrong, unit: "posts"))

let (detection, detectionReference) = compare(
    repeats: 20,
    ours: { texts.reduce(0) { $0 + FacetDetector.detect(in: $1).count } },
    reference: { texts.reduce(0) { $0 + Reference.detect($1) } })
print(line("detection, timeline page (100 texts)", detection, unit: "pages"))
print(line("  reference: NSRegularExpression, same rules", detectionReference, unit: "pages"))
print(
    String(
        format: "segments: %.2fx the reference's time; detection: %.2fx the reference's time",
        segments.median / segmentsReference.median, detection.median / detectionReference.median))
