// The cost of moderation decisions: one post, and a 100-post timeline page (decide, then ask the
// three contexts a feed shows: contentList, contentMedia, avatar), beside decoding the same page from
// its JSON into the generated types, which a client pays for every page anyway. The three run in
// alternating order each round; figures are the median CPU time of the thread over the rounds, with
// the lowest and highest round.
//
//     swift run -c release --package-path Benchmarks moderation-bench [rounds, default 31]

import AtprotoLexicons
import BlueskyKit
import Foundation
import XRPCRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 31

/// CPU seconds this thread has used.
nonisolated func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

let options = Page.options
let optionsWithoutWords: ModerationOptions = {
    var copy = Page.options
    copy.preferences.mutedWords = []
    return copy
}()
let page = Page.posts
let single = page[40]
let pageJSON = AppBskyFeedGetTimeline.Output(feed: page.map { AppBskyFeedDefs.FeedViewPost(post: $0) }).lexiconJSON
    .serialized()

/// Ensures the work is not optimized away and that the page is what it claims.
var sink = 0
@MainActor func decidePage(_ options: ModerationOptions) {
    for post in page {
        let decision = options.decide(post: post)
        sink &+=
            decision.ui(.contentList).filters.count + decision.ui(.contentMedia).blurs.count
            + decision.ui(.avatar).blurs.count
    }
}

let filtered = page.filter { options.decide(post: $0).ui(.contentList).filter }.count
let covered = page.filter { options.decide(post: $0).ui(.contentMedia).blur }.count
let causes = page.map { options.decide(post: $0).causes.count }.reduce(0, +)
let singleCauses = options.decide(post: single).causes.count
guard (try? AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(pageJSON)))?.feed.count == page.count else {
    print("error: the page does not decode back")
    exit(1)
}

struct Measure {
    var name: String
    var repeats: Int
    var body: @MainActor () -> Void
    var samples: [Double] = []

    @MainActor mutating func run() {
        let start = cpuSeconds()
        for _ in 0..<repeats { body() }
        samples.append((cpuSeconds() - start) / Double(repeats))
    }
}

var measures = [
    Measure(name: "one post decision (quote, labels, muted words)", repeats: 2_000) {
        sink &+= options.decide(post: single).causes.count
    },
    Measure(name: "100-post page: decide + 3 contexts each", repeats: 20) { decidePage(options) },
    Measure(name: "the same without muted words", repeats: 20) { decidePage(optionsWithoutWords) },
    Measure(name: "100-post page: decode JSON (reference)", repeats: 20) {
        sink &+= (try? AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(pageJSON)))?.feed.count ?? 0
    },
]

for index in measures.indices { measures[index].run() }  // warm-up
for index in measures.indices { measures[index].samples = [] }
for round in 0..<rounds {
    let order = round % 2 == 0 ? Array(measures.indices) : measures.indices.reversed()
    for index in order { measures[index].run() }
}

func figures(_ samples: [Double]) -> (median: Double, low: Double, high: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1])
}

print(
    "moderation-bench: \(rounds) rounds; page of \(page.count) posts (\(pageJSON.count) bytes of JSON): "
        + "\(causes) causes, \(filtered) filtered from lists, \(covered) media covered; the single post has \(singleCauses) causes"
)
for measure in measures {
    let (median, low, high) = figures(measure.samples)
    print(
        measure.name.padding(toLength: 48, withPad: " ", startingAt: 0)
            + String(format: "%10.1f µs  (rounds %.1f-%.1f)", median * 1e6, low * 1e6, high * 1e6))
}
let pageCost = figures(measures[1].samples).median
let decodeCost = figures(measures[3].samples).median
print(String(format: "page decision / page decode: %.2fx", pageCost / decodeCost))
if sink == 42 { print("") }
