import Foundation

/// The CPU time this thread has used, in seconds: unlike the wall clock, it leaves out the time
/// other processes on a busy machine take from this one.
package func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Per-round figures of one side: seconds per operation in each round.
package struct Figures: Sendable {
    package var perOperation: [Double]

    /// Figures from per-round seconds per operation.
    package init(perOperation: [Double]) {
        self.perOperation = perOperation
    }

    /// The median seconds per operation.
    package var median: Double { quantile(0.5) }

    /// The interquartile spread as a fraction of the median (0.04 means the middle half of the
    /// rounds lay within a band 4 % of the median wide).
    package var spread: Double {
        let middle = median
        return middle > 0 ? (quantile(0.75) - quantile(0.25)) / middle : 0
    }

    /// The `q` quantile of the rounds (linear between neighbours).
    package func quantile(_ q: Double) -> Double {
        let sorted = perOperation.sorted()
        guard !sorted.isEmpty else { return .nan }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}

/// The outcome of alternating rounds of ours and a reference over the same work.
package struct Comparison: Sendable {
    package var ours: Figures
    package var reference: Figures?

    /// Reference time over our time, per round, as a median: above 1 means ours is faster.
    package var ratio: Figures? {
        guard let reference else { return nil }
        return Figures(
            perOperation: zip(ours.perOperation, reference.perOperation).map { $1 > 0 ? $1 / $0 : .nan })
    }
}

/// Runs `rounds` rounds, each one of ours then one of the reference (so that both meet the same
/// machine load), and keeps the CPU seconds per operation of each. `ours` does `operations`
/// operations and returns; `reference` does the same number and returns its own CPU seconds (a
/// child process measures itself), or nil when it is unavailable. One warm-up round of each is
/// not counted.
package func alternatingRounds(
    rounds: Int, operations: Int, ours: () throws -> Void, reference: (() throws -> Double)?
) rethrows -> Comparison {
    var mine: [Double] = []
    var theirs: [Double]? = reference == nil ? nil : []
    for round in 0...rounds {
        let start = threadCPUTime()
        try ours()
        let elapsed = threadCPUTime() - start
        let referenceSeconds = try reference?()
        guard round > 0 else { continue }
        mine.append(elapsed / Double(operations))
        if let referenceSeconds { theirs?.append(referenceSeconds / Double(operations)) }
    }
    return Comparison(ours: Figures(perOperation: mine), reference: theirs.map { Figures(perOperation: $0) })
}

/// The CPU time this process has used, in seconds: for async work, which may move between threads.
package func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// ``alternatingRounds(rounds:operations:ours:reference:)`` for async work, timed by the process's
/// CPU time (an async task may change threads; the reference's child process is not counted).
package func alternatingAsyncRounds(
    rounds: Int, operations: Int, ours: () async throws -> Void, reference: (() throws -> Double)?
) async rethrows -> Comparison {
    var mine: [Double] = []
    var theirs: [Double]? = reference == nil ? nil : []
    for round in 0...rounds {
        let start = processCPUTime()
        try await ours()
        let elapsed = processCPUTime() - start
        let referenceSeconds = try reference?()
        guard round > 0 else { continue }
        mine.append(elapsed / Double(operations))
        if let referenceSeconds { theirs?.append(referenceSeconds / Double(operations)) }
    }
    return Comparison(ours: Figures(perOperation: mine), reference: theirs.map { Figures(perOperation: $0) })
}

/// Alternating rounds of two async sides in this process, both timed by the process's CPU time: for a
/// reference that is our own code doing less (a bare route beside the full one), not a child process.
package func alternatingAsyncRounds(
    rounds: Int, operations: Int, ours: () async throws -> Void, inProcessReference: () async throws -> Void
) async rethrows -> Comparison {
    var mine: [Double] = []
    var theirs: [Double] = []
    for round in 0...rounds {
        let start = processCPUTime()
        try await ours()
        let middle = processCPUTime()
        try await inProcessReference()
        let end = processCPUTime()
        guard round > 0 else { continue }
        mine.append((middle - start) / Double(operations))
        theirs.append((end - middle) / Double(operations))
    }
    return Comparison(ours: Figures(perOperation: mine), reference: Figures(perOperation: theirs))
}
