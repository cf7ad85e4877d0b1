/// How ``LexiconGenerator`` generates a module: access level, module name, what it imports and
/// which of its lexicons it generates.
public struct GenerationOptions: Sendable {
    /// The access level of generated declarations.
    public var access: AccessLevel = .public
    /// The module the code is compiled into; it names the module's schema catalog.
    public var moduleName = "Lexicons"
    /// Other generated modules whose lexicons refs may name: they are imported, not generated again.
    public var imports: [LexiconImport] = []
    /// NSID patterns to generate (`com.example.*`, or a full NSID); empty means every lexicon.
    public var include: [String] = []
    /// NSID patterns not to generate, applied after ``include``.
    public var exclude: [String] = []
    /// What a lexicon with errors does to the run: stop it (the default), or be skipped.
    public var invalidLexicons: InvalidLexiconPolicy = .fail
    /// Whether a lexicon that ``include`` and ``exclude`` leave out still gets its output file (a
    /// comment): build systems that declare one output per lexicon file need it. Off when the outputs
    /// are declared from a manifest's NSIDs, which leaves the excluded ones out (the plugin does).
    public var writesExcludedFiles = true

    /// Options with the defaults: public, module `Lexicons`, no imports, every lexicon.
    public init() {}

    /// Whether the lexicon `nsid` is generated under ``include`` and ``exclude``.
    public func generates(_ nsid: String) -> Bool {
        LexiconOutputNaming.selects(nsid, include: include, exclude: exclude)
    }
}

/// What ``LexiconGenerator`` does with lexicon files that have errors (`--invalid-lexicons`, or
/// `"invalidLexicons"` in `lexgen.json`).
public enum InvalidLexiconPolicy: String, Sendable, CaseIterable {
    /// Every error stops the run: nothing is written.
    case fail
    /// Files with errors, and every file that refs one of them (directly or through others), are
    /// skipped: their errors stay errors (the run exits 1), a warning names each skipped file, and
    /// the rest is generated and written.
    case skip
    /// As ``skip``, but the errors of skipped files are reported as warnings, so the run succeeds:
    /// the mode for a build (the plugin), where a failing tool fails the whole build.
    case warn
}

/// The lexicons of another generated module (`AtprotoLexicons`), which this module's refs may name.
public struct LexiconImport: Sendable {
    /// The Swift module that declares the types.
    public var moduleName: String
    /// Its lexicon files.
    public var sources: [LexiconSource]
    /// When set, only lexicons under these NSID patterns are taken from the module (the importing
    /// module's `modules` config).
    public var patterns: [String]?
    /// The NSID patterns the imported module itself generates from `sources` (its own config's
    /// `include`; empty means all of them): modules generated from subsets of one lexicon folder.
    public var include: [String]
    /// The NSID patterns the imported module leaves out (its own config's `exclude`).
    public var exclude: [String]

    /// Creates an import of `moduleName`, whose lexicons are those of `sources` that `include` and
    /// `exclude` select.
    public init(
        moduleName: String, sources: [LexiconSource], patterns: [String]? = nil, include: [String] = [],
        exclude: [String] = []
    ) {
        self.moduleName = moduleName
        self.sources = sources
        self.patterns = patterns
        self.include = include
        self.exclude = exclude
    }

    /// Whether the imported module declares the lexicon `nsid` (its own include and exclude).
    public func declares(_ nsid: String) -> Bool {
        LexiconOutputNaming.selects(nsid, include: include, exclude: exclude)
    }
}

/// NSID patterns of the configuration: a full NSID, a prefix ending in `.*` (`app.bsky.*` matches
/// `app.bsky.feed.post`), or `*` for every NSID.
public enum NSIDPattern {
    /// Whether `nsid` matches `pattern`.
    public static func matches(_ pattern: String, _ nsid: String) -> Bool {
        LexiconOutputNaming.matches(pattern, nsid)
    }

    /// Why `pattern` is not a valid pattern, or `nil`.
    public static func problem(in pattern: String) -> String? {
        if pattern == "*" { return nil }
        let body = pattern.hasSuffix(".*") ? String(pattern.dropLast(2)) : pattern
        let segments = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty,
            segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } })
        else {
            return "\"\(pattern)\" is not an NSID pattern (a full NSID, a prefix ending in \".*\", or \"*\")"
        }
        return nil
    }
}
