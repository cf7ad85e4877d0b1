// This file is shared with the LexiconGen plugin (Plugins/LexiconGen links to it), so the plugin and
// lexgen agree on every output name. It must not depend on anything but the standard library.

/// The names of generated files, derived from lexicon paths only (never from file contents), so a
/// build system can declare every output before the generator runs.
enum LexiconOutputNaming {
    /// The output file for a lexicon at `relativePath` under its lexicon folder:
    /// `app/bsky/feed/post.json` -> `app.bsky.feed.post.swift`.
    static func outputFileName(forLexiconAt relativePath: String) -> String {
        var stem = relativePath
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        let flattened = stem.split(separator: "/", omittingEmptySubsequences: true).joined(separator: ".")
        return flattened + ".swift"
    }

    /// The one extra file per module: the client namespace chain.
    static let namespacesFileName = "_ClientNamespaces.swift"

    /// Whether a module with these `include` and `exclude` NSID patterns generates `nsid` (an empty
    /// `include` selects every NSID). The plugin declares outputs by it, from a manifest's NSIDs.
    static func selects(_ nsid: String, include: [String], exclude: [String]) -> Bool {
        (include.isEmpty || include.contains { matches($0, nsid) }) && !exclude.contains { matches($0, nsid) }
    }

    /// Whether `nsid` matches `pattern`: a full NSID, a prefix ending in `.*`, or `*`.
    static func matches(_ pattern: String, _ nsid: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasSuffix(".*") { return nsid.hasPrefix(String(pattern.dropLast())) }
        return nsid == pattern
    }
}
