/// Namespace paths and NSID segments are expanded into their prefixes (`app`, `app.bsky`, ...) by the
/// generator and the namespace renderer alike.
extension Array {
    /// The prefixes of one element or more, shortest first: `[a, b]` gives `[a]` and `[a, b]`.
    var nonEmptyPrefixes: [[Element]] {
        indices.map { Array(self[...$0]) }
    }
}
