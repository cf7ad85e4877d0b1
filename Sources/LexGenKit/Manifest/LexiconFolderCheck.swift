import Foundation
import LexGenSchema
import SHA2

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
    /// Whether a network source could not reach what it looked up (DNS, the DID's document, the PDS),
    /// so that a command line can point to the offline way, `--from <folder>`.
    public var sourceUnreachable: Bool

    /// Creates an error.
    public init(file: String?, message: String, pinsToMove: [String] = [], sourceUnreachable: Bool = false) {
        self.file = file
        self.message = message
        self.pinsToMove = pinsToMove
        self.sourceUnreachable = sourceUnreachable
    }

    /// `<file>: error: <message>`, or `error: <message>` when no file is involved.
    public var description: String {
        if let file {
            return "\(file): error: \(message)"
        }
        return "error: \(message)"
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
            if !entry.matchesInstalled(data) {
                let what = "altered: its SHA-256 is \(actual), the manifest pins \(entry.installedSHA256)"
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
    package struct LexiconFile {
        package var entry: LexiconManifest.Entry
        package var data: Data
    }

    /// Reads, hashes and identifies every `*.json` file under `folder`; NSIDs must be unique.
    package static func lexiconFiles(in folder: URL) throws -> [LexiconFile] {
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

    /// The relative paths (with `/`) of every `*.json` file under `root`, sorted; hidden entries are skipped.
    /// A folder that does not exist has none.
    package static func jsonPaths(in root: URL) throws -> [String] {
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
}
