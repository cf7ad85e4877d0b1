import Foundation

/// An error installing lexicons or reading a manifest: what went wrong and, when there is one, which file.
public struct InstallError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file or folder the error is about, if any.
    public var file: String?
    /// What is wrong (may span several lines, e.g. a list of files that differ from the manifest).
    public var message: String
    /// The NSIDs whose pins an install with `--update` would move to settle the error (a lexicon that
    /// changed since it was pinned, or whose authority now names another publisher); empty otherwise.
    /// A command line adds the exact command.
    public var pinsToMove: [String]

    /// Creates an error.
    public init(file: String?, message: String, pinsToMove: [String] = []) {
        self.file = file
        self.message = message
        self.pinsToMove = pinsToMove
    }

    /// `<file>: error: <message>`, or `error: <message>` when no file is involved.
    public var description: String {
        if let file {
            return "\(file): error: \(message)"
        }
        return "error: \(message)"
    }
}

/// What ``LexiconInstaller/install(from:to:manifest:updateManifest:)`` did.
public struct InstallReport: Sendable, Hashable {
    /// Files written to the destination because they were new or their bytes changed.
    public var installed: Int
    /// Files already present in the destination with identical bytes (left untouched).
    public var unchanged: Int
    /// Stale `*.json` files removed from the destination because they are not in the source.
    public var removed: Int
    /// Whether the manifest file was (re)written; `false` when it was verified or already identical.
    public var manifestWritten: Bool
    /// The manifest describing the installed files.
    public var manifest: LexiconManifest

    /// Creates a report.
    public init(installed: Int, unchanged: Int, removed: Int, manifestWritten: Bool, manifest: LexiconManifest) {
        self.installed = installed
        self.unchanged = unchanged
        self.removed = removed
        self.manifestWritten = manifestWritten
        self.manifest = manifest
    }

    /// A one-line summary for the command line.
    public var summary: String {
        let total = manifest.entries.count
        let manifestNote = manifestWritten ? "manifest written" : "manifest unchanged"
        return "\(total) lexicons: \(installed) installed, \(unchanged) unchanged, \(removed) removed; \(manifestNote)"
    }
}

/// A problem found by ``LexiconInstaller/verify(folder:manifest:fixCommand:)``: one file and what is wrong.
public struct VerificationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file's path relative to the verified folder (`""` for a problem with the folder as a whole).
    public var path: String
    /// The absolute location of the file (or of the folder or manifest the problem is about).
    public var file: URL
    /// The NSID involved, when known.
    public var nsid: String?
    /// What is wrong, ending with the command that fixes it.
    public var message: String
    /// How the file is named in ``description``: the folder's name followed by ``path``, e.g. `lexicons/a/b.json`.
    public var displayPath: String

    /// Creates a problem.
    public init(path: String, file: URL, nsid: String?, message: String, displayPath: String) {
        self.path = path
        self.file = file
        self.nsid = nsid
        self.message = message
        self.displayPath = displayPath
    }

    /// `<displayPath>: error: <message>`, in the form compilers use so IDEs pick it up.
    public var description: String {
        "\(displayPath): error: \(message)"
    }
}

/// Installs lexicon files from a folder into the package and checks them against the committed manifest.
public enum LexiconInstaller {
    /// The command suggested by ``verify(folder:manifest:fixCommand:)`` when the caller does not pass one.
    public static let defaultFixCommand = "swift run lexgen install --from <folder>"

    /// Copies every `*.json` file under `source` (recursively) to the same relative path under `destination`.
    ///
    /// Non-JSON files (licences, READMEs) are skipped. Only files whose bytes changed are written, so
    /// modification dates stay stable; `*.json` files in `destination` that are not in `source` are removed.
    /// When the manifest file does not exist or `updateManifest` is `true`, the manifest is written (only if
    /// its bytes change). Otherwise the source files are checked against the manifest before anything is
    /// copied, and the install is refused when they differ.
    ///
    /// `sourceLabel` (the `--from` argument as typed) is recorded in a manifest this call writes.
    ///
    /// - Throws: ``InstallError`` when a folder cannot be read or written, a source file is not a lexicon
    ///   with a string `id`, two files share an NSID, the manifest cannot be read, or the source differs from
    ///   the manifest (listing each differing, missing or extra file by path and NSID).
    public static func install(
        from source: URL,
        to destination: URL,
        manifest manifestURL: URL,
        updateManifest: Bool,
        sourceLabel: String? = nil
    ) throws -> InstallReport {
        try checkFolders(source: source, destination: destination)
        let files = try lexiconFiles(in: source)
        let manifest = LexiconManifest(entries: files.map { $0.entry }, source: sourceLabel)

        let manifestExists = FileManager.default.fileExists(atPath: manifestURL.path)
        if manifestExists && !updateManifest {
            let pinned: LexiconManifest
            do {
                pinned = try LexiconManifest(contentsOf: manifestURL)
            } catch var error as InstallError {
                error.message += "\nrerun with --update-manifest to replace it with the lexicons in \(source.path)"
                throw error
            }
            try checkAgainstManifest(manifest, pinned: pinned, manifestURL: manifestURL, source: source)
        }

        let fileManager = FileManager.default
        var installed = 0
        var unchanged = 0
        for file in files {
            let target = destination.appendingPathComponent(file.entry.path)
            if let existing = try? Data(contentsOf: target), existing == file.data {
                unchanged += 1
                continue
            }
            do {
                try fileManager.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.data.write(to: target, options: .atomic)
            } catch {
                throw InstallError(file: target.path, message: "cannot write: \(error.localizedDescription)")
            }
            installed += 1
        }

        let wanted = Set(files.map { $0.entry.path })
        var removed = 0
        for stale in try jsonPaths(in: destination) where !wanted.contains(stale) {
            let target = destination.appendingPathComponent(stale)
            do {
                try fileManager.removeItem(at: target)
            } catch {
                let reason = error.localizedDescription
                throw InstallError(file: target.path, message: "cannot remove stale file: \(reason)")
            }
            removed += 1
            removeEmptyFolders(from: target.deletingLastPathComponent(), upTo: destination)
        }

        var manifestWritten = false
        if !manifestExists || updateManifest {
            let bytes = manifest.jsonData()
            if (try? Data(contentsOf: manifestURL)) != bytes {
                do {
                    try fileManager.createDirectory(
                        at: manifestURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try bytes.write(to: manifestURL, options: .atomic)
                } catch {
                    throw InstallError(file: manifestURL.path, message: "cannot write: \(error.localizedDescription)")
                }
                manifestWritten = true
            }
        }
        return InstallReport(
            installed: installed, unchanged: unchanged, removed: removed,
            manifestWritten: manifestWritten, manifest: manifest)
    }

    /// Checks an installed lexicon folder against a manifest.
    ///
    /// Every manifest entry must exist and match its pin. A `*.json` file in the folder that the manifest
    /// does not pin is no problem: it is one of the project's own lexicons, which sit beside the installed
    /// ones (``unpinnedFiles(folder:manifest:)`` lists them). When the folder is missing or holds no
    /// `*.json` file at all, a single problem says that nothing is installed. Every message ends with
    /// `run: <fixCommand>`.
    ///
    /// - Returns: The problems, in path order; empty when the folder matches the manifest.
    public static func verify(
        folder: URL,
        manifest manifestURL: URL,
        fixCommand: String = defaultFixCommand
    ) -> [VerificationProblem] {
        let folderName = folder.lastPathComponent
        let fix = "run: \(fixCommand)"
        func problem(_ path: String, nsid: String?, _ what: String) -> VerificationProblem {
            let file = path.isEmpty ? folder : folder.appendingPathComponent(path)
            let display = path.isEmpty ? folderName : "\(folderName)/\(path)"
            let detail = nsid.map { "\(what) (\($0))" } ?? what
            return VerificationProblem(
                path: path, file: file, nsid: nsid, message: "\(detail); \(fix)", displayPath: display)
        }

        let manifest: LexiconManifest
        do {
            manifest = try LexiconManifest(contentsOf: manifestURL)
        } catch {
            let message = "\((error as? InstallError)?.message ?? "\(error)"); \(fix)"
            return [
                VerificationProblem(
                    path: "", file: manifestURL, nsid: nil, message: message, displayPath: manifestURL.path)
            ]
        }
        let present = (try? jsonPaths(in: folder)) ?? []
        if present.isEmpty {
            let count = manifest.entries.count
            return [problem("", nsid: nil, "no lexicons are installed (the manifest lists \(count))")]
        }

        var problems: [VerificationProblem] = []
        let presentSet = Set(present)
        for entry in manifest.entries {
            guard presentSet.contains(entry.path) else {
                problems.append(problem(entry.path, nsid: entry.nsid, "missing"))
                continue
            }
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(entry.path)) else {
                problems.append(problem(entry.path, nsid: entry.nsid, "cannot be read"))
                continue
            }
            let actual = SHA256.hexHash(data)
            if !entry.matches(data) {
                let what = "altered: its SHA-256 is \(actual), the manifest pins \(entry.sha256)"
                problems.append(problem(entry.path, nsid: entry.nsid, what))
            }
        }
        return problems.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The `*.json` files of `folder` that the manifest does not pin (the project's own lexicons), as
    /// paths relative to the folder, sorted; empty when the manifest cannot be read.
    public static func unpinnedFiles(folder: URL, manifest manifestURL: URL) -> [String] {
        guard let manifest = try? LexiconManifest(contentsOf: manifestURL) else { return [] }
        let pinned = Set(manifest.entries.map(\.path))
        return ((try? jsonPaths(in: folder)) ?? []).filter { !pinned.contains($0) }
    }

    // MARK: - Helpers

    /// A source file read into memory with its manifest entry.
    struct LexiconFile {
        var entry: LexiconManifest.Entry
        var data: Data
    }

    /// Reads, hashes and identifies every `*.json` file under `folder`; NSIDs must be unique.
    static func lexiconFiles(in folder: URL) throws -> [LexiconFile] {
        var files: [LexiconFile] = []
        var pathForNSID: [String: String] = [:]
        for path in try jsonPaths(in: folder) {
            let url = folder.appendingPathComponent(path)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw InstallError(file: url.path, message: "cannot read: \(error.localizedDescription)")
            }
            let nsid = try LexiconManifest.lexiconID(in: data, file: url.path)
            if let other = pathForNSID.updateValue(path, forKey: nsid) {
                let message = "lexicon \(nsid) is also defined by \(folder.appendingPathComponent(other).path)"
                throw InstallError(file: url.path, message: message)
            }
            let entry = LexiconManifest.Entry(
                nsid: nsid, path: path, sha256: SHA256.hexHash(data), content: LexiconContentHash.of(data))
            files.append(LexiconFile(entry: entry, data: data))
        }
        return files
    }

    /// Throws the list of differences between the source files and the pinned manifest, if there are any.
    private static func checkAgainstManifest(
        _ current: LexiconManifest, pinned: LexiconManifest, manifestURL: URL, source: URL
    ) throws {
        var pinnedByPath: [String: LexiconManifest.Entry] = [:]
        for entry in pinned.entries {
            pinnedByPath[entry.path] = entry
        }
        var lines: [String] = []
        for entry in current.entries {
            guard let old = pinnedByPath.removeValue(forKey: entry.path) else {
                lines.append("  \(entry.path) (\(entry.nsid)): new file, not in the manifest")
                continue
            }
            if old.nsid != entry.nsid {
                lines.append("  \(entry.path) (\(entry.nsid)): the manifest pins it as \(old.nsid)")
            } else if old.sha256 != entry.sha256 {
                lines.append("  \(entry.path) (\(entry.nsid)): changed (SHA-256 differs from the manifest)")
            }
        }
        for old in pinned.entries where pinnedByPath[old.path] != nil {
            lines.append("  \(old.path) (\(old.nsid)): missing from the source folder")
        }
        guard !lines.isEmpty else {
            return
        }
        let message =
            "the lexicons in \(source.path) differ from the manifest (nothing was installed):\n"
            + lines.joined(separator: "\n")
            + "\nrerun with --update-manifest to accept the new versions"
        throw InstallError(file: manifestURL.path, message: message)
    }

    /// Requires `source` to be a folder and the two folders not to contain one another.
    private static func checkFolders(source: URL, destination: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw InstallError(file: source.path, message: "the lexicon source folder does not exist")
        }
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw InstallError(file: destination.path, message: "the lexicon destination is not a folder")
        }
        let from = source.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let to = destination.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        if from.starts(with: to) || to.starts(with: from) {
            let message = "the source \(source.path) and destination \(destination.path) must not contain each other"
            throw InstallError(file: destination.path, message: message)
        }
    }

    /// The relative paths (with `/`) of every `*.json` file under `root`, sorted; hidden entries are skipped.
    /// A folder that does not exist has none.
    static func jsonPaths(in root: URL) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            return []
        }
        var result: [String] = []
        try collectJSONPaths(in: root, prefix: "", into: &result)
        return result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func collectJSONPaths(in folder: URL, prefix: String, into result: inout [String]) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw InstallError(file: folder.path, message: "cannot list folder: \(error.localizedDescription)")
        }
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                continue
            }
            if isFolder.boolValue {
                try collectJSONPaths(in: url, prefix: prefix + name + "/", into: &result)
            } else if name.hasSuffix(".json") {
                result.append(prefix + name)
            }
        }
    }

    /// Removes `folder` and its parents while they are empty, stopping at `root` (which is kept).
    private static func removeEmptyFolders(from folder: URL, upTo root: URL) {
        let rootDepth = root.standardizedFileURL.pathComponents.count
        var current = folder.standardizedFileURL
        while current.pathComponents.count > rootDepth,
            let contents = try? FileManager.default.contentsOfDirectory(atPath: current.path),
            contents.isEmpty
        {
            guard (try? FileManager.default.removeItem(at: current)) != nil else {
                return
            }
            current = current.deletingLastPathComponent()
        }
    }
}
