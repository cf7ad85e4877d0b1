import Foundation
import LexGenKit
import SHA2

/// What ``LexiconInstaller/install(from:to:manifest:update:)`` did.
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

extension LexiconInstaller {
    /// Copies every `*.json` file under `source` (recursively) to the same relative path under `destination`,
    /// reduced to its facts (``LexiconFacts``).
    ///
    /// Non-JSON files (licences, READMEs) are skipped. Only files whose bytes changed are written, so
    /// modification dates stay stable; `*.json` files in `destination` that are not in `source` are removed.
    /// When the manifest file does not exist or `update` is `true`, the manifest is written (only if
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
        update: Bool,
        sourceLabel: String? = nil
    ) throws -> InstallReport {
        try checkFolders(source: source, destination: destination)
        // Each file is installed reduced to its facts; the entry pins the published file and the reduced one.
        let files = try lexiconFiles(in: source).map { file -> LexiconFile in
            let reduced = try LexiconFacts.reduce(file.data, file: source.appendingPathComponent(file.entry.path).path)
            var file = file
            file.entry.facts = SHA256.hexHash(reduced)
            file.data = reduced
            return file
        }
        let manifest = LexiconManifest(
            entries: files.map { $0.entry },
            source: sourceLabel.map { LexiconManifest.sourcePath($0, relativeTo: manifestURL) })

        let manifestExists = FileManager.default.fileExists(atPath: manifestURL.path)
        if manifestExists && !update {
            let pinned: LexiconManifest
            do {
                pinned = try LexiconManifest(contentsOf: manifestURL)
            } catch var error as InstallError {
                error.message += "\nrerun with --update to replace it with the lexicons in \(source.path)"
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
        if !manifestExists || update {
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
            + "\nrerun with --update to accept the new versions"
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
