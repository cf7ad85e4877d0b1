/// Where in a lexicon file something is: the file, the line and column, and the JSON path of the node.
public struct SourceLocation: Sendable, Hashable {
    /// The file path as given to the generator.
    public var file: String
    /// 1-based line; 0 when unknown.
    public var line: Int
    /// 1-based column; 0 when unknown.
    public var column: Int
    /// The JSON path of the node, starting with the def: `app.bsky.feed.post#main/record/properties/embed`.
    public var jsonPath: String

    /// Creates a location.
    public init(file: String, line: Int = 0, column: Int = 0, jsonPath: String = "") {
        self.file = file
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
    }
}

/// One problem found in the input.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The input cannot be generated as it is; the run fails.
        case error
        /// Generation goes on, but the input looks wrong or something is skipped.
        case warning
        /// Information for the reader.
        case note
    }

    /// How bad it is.
    public var severity: Severity
    /// What is wrong and, where possible, what to do.
    public var message: String
    /// Where it is, when it is somewhere in a file.
    public var location: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// Compiler style, so IDEs and build logs make it clickable:
    /// `path:line:column: error: message [json/path]`.
    public var description: String {
        guard let location else { return "lexgen: \(severity.rawValue): \(message)" }
        var text = location.file
        if location.line > 0 {
            text += ":\(location.line):\(max(location.column, 1))"
        }
        text += ": \(severity.rawValue): \(message)"
        if !location.jsonPath.isEmpty {
            text += " [\(location.jsonPath)]"
        }
        return text
    }
}

/// Collects the diagnostics of one generator run, in the order they were found.
public struct DiagnosticLog: Sendable {
    /// Everything reported so far.
    public private(set) var all: [Diagnostic] = []

    /// An empty log.
    public init() {}

    /// Adds a diagnostic.
    public mutating func report(_ diagnostic: Diagnostic) {
        all.append(diagnostic)
    }

    /// Adds an error.
    public mutating func error(_ message: String, at location: SourceLocation?) {
        report(Diagnostic(.error, message, at: location))
    }

    /// Adds a warning.
    public mutating func warning(_ message: String, at location: SourceLocation?) {
        report(Diagnostic(.warning, message, at: location))
    }

    /// Reports every error `shouldDowngrade` picks as a warning instead.
    public mutating func downgradeErrors(where shouldDowngrade: (Diagnostic) -> Bool) {
        for index in all.indices where all[index].severity == .error && shouldDowngrade(all[index]) {
            all[index].severity = .warning
        }
    }

    /// The number of errors.
    public var errorCount: Int { all.lazy.filter { $0.severity == .error }.count }
    /// The number of warnings.
    public var warningCount: Int { all.lazy.filter { $0.severity == .warning }.count }
    /// Whether any error was reported.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }
}
