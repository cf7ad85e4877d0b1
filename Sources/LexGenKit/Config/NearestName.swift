/// "Did you mean ...?" for a name that is not known: the known name closest to it by edit distance,
/// when it is close enough to be a typo (a letter missing, added, changed or two swapped).
package enum NearestName {
    /// The candidate closest to `name`, or `nil` when none is within a typo of it: at most a fifth of
    /// the name's length in edits (and at least 2). Ties go to the first in sorted order.
    package static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(name.utf8)
        let limit = max(2, target.count / 5)
        var best: (distance: Int, name: String)?
        for candidate in candidates where candidate != name {
            let bytes = Array(candidate.utf8)
            guard abs(bytes.count - target.count) <= limit,
                let distance = editDistance(target, bytes, limit: limit)
            else { continue }
            if best.map({ (distance, candidate) < ($0.distance, $0.name) }) ?? true {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    /// ` (did you mean "x"?)`, or empty when there is no close candidate.
    package static func note(for name: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: name, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// The optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps),
    /// or `nil` once it is certain to exceed `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            guard rowMinimum <= limit else { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
