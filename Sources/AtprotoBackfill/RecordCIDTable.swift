import AtprotoData

/// The record CIDs of one repository in ``InMemoryBackfillStateStore``, by path: a dictionary's
/// behaviour, for the way a backfill writes them.
///
/// A backfill saves a repository's records in key order, so most writes come after every path held:
/// those are appended to a sorted array (one comparison, no hashing). A write elsewhere changes the
/// array in place when the path is there, or goes to a small table of changes (an insert, or `nil`
/// for a removed path), merged into the array once it holds a quarter as many. A hashed table of
/// every path grew by rehashing all of them: saving a 10,000-record repository that way was a tenth
/// of the backfill's CPU time.
///
/// Invariant: `ordered` is strictly increasing by path, and every path of `changes` is at or before
/// the last path of `ordered` (a path after it is appended instead), so `changes` is empty when
/// `ordered` is.
struct RecordCIDTable {
    private var ordered: [(path: String, cid: CID)] = []
    /// Paths inserted before the end of `ordered` (a CID), and paths of `ordered` removed (`nil`).
    private var changes: [String: CID?] = [:]
    /// How many paths have a CID.
    private(set) var count = 0

    /// Whether no path has a CID.
    var isEmpty: Bool { count == 0 }

    /// The CID at `path`; setting `nil` removes it.
    subscript(path: String) -> CID? {
        get {
            if !changes.isEmpty, let changed = changes[path] { return changed }
            guard let index = position(of: path) else { return nil }
            return ordered[index].cid
        }
        set { set(newValue, at: path) }
    }

    /// Every path with its CID.
    var dictionary: [String: CID] {
        var result: [String: CID] = [:]
        result.reserveCapacity(count)
        for (path, cid) in ordered where changes.isEmpty || changes[path] == nil { result[path] = cid }
        for case (let path, let cid?) in changes { result[path] = cid }
        return result
    }

    private mutating func set(_ cid: CID?, at path: String) {
        guard let last = ordered.last, !(last.path < path) else {
            // After every path held (a backfill's usual write): appended.
            if let cid {
                ordered.append((path, cid))
                count += 1
            }
            return
        }
        if !changes.isEmpty, let changed = changes[path] {
            count += (cid == nil ? 0 : 1) - (changed == nil ? 0 : 1)
            if cid == nil, position(of: path) == nil {
                changes[path] = nil
            } else {
                changes[path] = .some(cid)
            }
            return
        }
        if let index = position(of: path) {
            if let cid {
                ordered[index].cid = cid
            } else {
                changes[path] = .some(nil)
                count -= 1
            }
        } else if let cid {
            changes[path] = .some(cid)
            count += 1
        }
        if changes.count >= max(64, ordered.count / 4) { mergeChanges() }
    }

    /// The index of `path` in `ordered`, by binary search.
    private func position(of path: String) -> Int? {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if ordered[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low < ordered.count && ordered[low].path == path ? low : nil
    }

    /// Folds `changes` into `ordered`, keeping it sorted.
    private mutating func mergeChanges() {
        let sortedChanges = changes.sorted { $0.key < $1.key }
        var merged: [(path: String, cid: CID)] = []
        merged.reserveCapacity(count)
        var index = 0
        for (path, cid) in sortedChanges {
            while index < ordered.count, ordered[index].path < path {
                merged.append(ordered[index])
                index += 1
            }
            if index < ordered.count, ordered[index].path == path { index += 1 }
            if let cid { merged.append((path, cid)) }
        }
        merged.append(contentsOf: ordered[index...])
        ordered = merged
        changes = [:]
    }
}
