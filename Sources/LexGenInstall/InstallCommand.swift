import Foundation
import LexGenCommandLine
import LexGenKit

/// `lexgen install`: lexicons into the project, pinned in a manifest: named ones (and what they refer to)
/// over atproto or from a folder, a whole folder, or exactly what the manifest pins. Only the lexgen
/// executable links it (the build plugin's tool does not).
public enum InstallCommand {
    /// Runs `lexgen install` with `arguments` (after `install`), reaching atproto through `network`
    /// (`nil`: named lexicons only with `--from`), and returns the exit status.
    public static func run(_ arguments: [String], network: LexGen.NetworkSourceFactory?) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments,
            valueOptions: ["--from", "--to", "--manifest", "--dns-server", "--plc-directory", "--import"],
            flagOptions: ["--update", "--skip-verification"]
        )
        do {
            return try await run(parsed, network: network)
        } catch var error as InstallError where !error.pinsToMove.isEmpty {
            error.message += "\nrun: \(updateCommand(error.pinsToMove, parsed))"
            throw error
        } catch var error as InstallError where error.sourceUnreachable {
            error.message += "\n\(offlineHint(parsed))"
            throw error
        }
    }

    /// Where an install over atproto could not reach its lexicons: the same install from a folder.
    static func offlineHint(_ parsed: ParsedArguments) -> String {
        var words = ["swift", "run", "lexgen", "install", "--from", "<folder>"] + parsed.positional
        for option in ["--to", "--manifest"] {
            if let value = parsed.options[option] { words += [option, value] }
        }
        return "to install without the network, take the lexicons from a folder of lexicon files "
            + "(a checkout of their repository): "
            + words.map { $0 == "<folder>" ? $0 : shellQuoted($0) }.joined(separator: " ")
    }

    /// `swift run lexgen install --update <nsids>` with this run's folders and network options.
    static func updateCommand(_ nsids: [String], _ parsed: ParsedArguments) -> String {
        var words = ["swift", "run", "lexgen", "install", "--update"] + nsids
        // A missing --from folder fell back to atproto: the update goes there too.
        if let from = parsed.options["--from"], FileManager.default.fileExists(atPath: from) {
            words += ["--from", from]
        }
        for option in ["--to", "--manifest"] {
            if let value = parsed.options[option] { words += [option, value] }
        }
        for server in parsed.allValues["--dns-server"] ?? [] { words += ["--dns-server", server] }
        if let directory = parsed.options["--plc-directory"] { words += ["--plc-directory", directory] }
        if parsed.flags.contains("--skip-verification") { words.append("--skip-verification") }
        return words.map(shellQuoted).joined(separator: " ")
    }

    private static func run(_ parsed: ParsedArguments, network: LexGen.NetworkSourceFactory?) async throws -> Int32 {
        let paths = ProjectPaths(to: parsed.options["--to"], manifest: parsed.options["--manifest"])
        let update = parsed.flags.contains("--update")
        let options = LexGen.NetworkOptions(
            dnsServers: parsed.allValues["--dns-server"] ?? [],
            plcDirectory: parsed.options["--plc-directory"],
            skipVerification: parsed.flags.contains("--skip-verification"))

        let pinned =
            try FileManager.default.fileExists(atPath: paths.manifest.path)
            ? LexiconManifest(contentsOf: paths.manifest) : nil
        if parsed.positional.isEmpty, let folder = parsed.options["--from"] {
            if let fallback = try await installPinnedOverNetwork(
                insteadOf: folder, paths: paths, update: update, network: network, options)
            {
                return fallback
            }
            // A manifest that pins lexicons: a restore (or, with --update, a refresh) of exactly those.
            guard let pinned, !pinned.entries.isEmpty else {
                return try installFolder(folder, paths: paths, update: update)
            }
        }
        var names = parsed.positional
        var source: any LexiconInstallSource
        if let folder = parsed.options["--from"] {
            source = try FolderInstallSource(folder: URL(fileURLWithPath: folder), label: folder)
        } else if !names.isEmpty {
            source = try networkSource(network, options)
        } else {
            // No names and no folder: exactly what the manifest pins.
            guard let pinned else {
                throw UsageError(
                    "nothing to install: \(paths.manifest.path) does not exist; name lexicons "
                        + "(lexgen install app.bsky.feed.post) or a folder (--from <folder>)")
            }
            let pinnedOverNetwork = pinned.entries.filter { $0.record != nil }
            let folder = pinned.sourceFolder(manifest: paths.manifest)
            if pinnedOverNetwork.isEmpty {
                guard let folder else {
                    throw UsageError(
                        "\(paths.manifest.path) records no source folder for its lexicons; "
                            + "restore them with: swift run lexgen install --from <folder>")
                }
                source = try FolderInstallSource(folder: folder, label: pinned.source)
            } else {
                source = try networkSource(network, options)
                if pinnedOverNetwork.count < pinned.entries.count, let folder {
                    let local = try FolderInstallSource(folder: folder, label: pinned.source)
                    source = PinRoutingSource(network: source, folder: local)
                }
            }
        }
        if names.isEmpty, let pinned { names = pinned.entries.map(\.nsid) }
        let provided = try providedLexicons(parsed.allValues["--import"] ?? [])
        return try await installNamed(names, from: source, paths: paths, update: update, provided: provided)
    }

    /// The NSIDs the modules named by `--import Module=<lexgen.json or folder>` declare, each with the
    /// module that declares it (the one declaring the most, an umbrella over its parts, when several do).
    static func providedLexicons(_ values: [String]) throws -> [String: String] {
        let imports = try values.map(importedModule)
        var declared: [(module: String, nsids: [String])] = []
        for module in imports {
            let nsids = module.sources.compactMap { source in
                try? LexiconManifest.lexiconID(in: Data(source.bytes), file: source.displayPath)
            }
            declared.append((module.moduleName, nsids.filter(module.declares)))
        }
        var provided: [String: String] = [:]
        for (module, nsids) in declared.sorted(by: { $0.nsids.count > $1.nsids.count }) {
            for nsid in nsids where provided[nsid] == nil { provided[nsid] = module }
        }
        return provided
    }

    /// Named lexicons and their references from `source`, with progress on stderr and the summary and
    /// moved pins on stdout.
    private static func installNamed(
        _ names: [String], from source: any LexiconInstallSource, paths: ProjectPaths, update: Bool,
        provided: [String: String] = [:]
    ) async throws -> Int32 {
        let report = try await LexiconInstaller.install(
            names, from: source, to: paths.lexicons, manifest: paths.manifest, update: update, provided: provided,
            progress: { printError("lexgen install: \($0)") })
        printSummary(report.summary, paths: paths)
        for move in report.moved {
            print("  \(move)")
        }
        for item in report.provided where item.named {
            print(
                "  \(item.nsid): \(item.module) already has it (the target depends on that module): "
                    + "use its type; not installed")
        }
        let references = report.provided.filter { !$0.named }
        if !references.isEmpty {
            let modules = Set(references.map(\.module)).sorted().joined(separator: ", ")
            print("  \(references.count) referenced lexicons come from \(modules), not installed")
        }
        return 0
    }

    private static func printSummary(_ summary: String, paths: ProjectPaths) {
        print("lexgen install: \(summary) (\(paths.lexicons.path)/, manifest \(paths.manifest.path))")
    }

    /// `--from <folder>` when the folder is missing (a clone without it) but the network is there: the
    /// lexicons the manifest pins, fetched over atproto, each checked against its pinned content hash.
    /// `nil` when the folder exists (or nothing is pinned), so the folder install goes on as usual.
    private static func installPinnedOverNetwork(
        insteadOf folder: String, paths: ProjectPaths, update: Bool, network: LexGen.NetworkSourceFactory?,
        _ options: LexGen.NetworkOptions
    ) async throws -> Int32? {
        guard !FileManager.default.fileExists(atPath: folder), let network,
            FileManager.default.fileExists(atPath: paths.manifest.path)
        else { return nil }
        let manifest = try LexiconManifest(contentsOf: paths.manifest)
        guard !manifest.entries.isEmpty, manifest.entries.allSatisfy({ $0.content != nil || $0.record != nil }) else {
            return nil
        }
        guard !update else {
            throw UsageError(
                "\(folder) does not exist; to move pins over atproto, name the lexicons: install --update <nsid>...")
        }
        printError(
            "lexgen install: \(folder) does not exist; installing the \(manifest.entries.count) lexicons "
                + "\(paths.manifest.lastPathComponent) pins over atproto instead, each checked against its pinned content"
        )
        return try await installNamed(
            manifest.entries.map(\.nsid), from: try network(options), paths: paths, update: false)
    }

    private static func installFolder(_ folder: String, paths: ProjectPaths, update: Bool) throws -> Int32 {
        let report = try LexiconInstaller.install(
            from: URL(fileURLWithPath: folder), to: paths.lexicons, manifest: paths.manifest,
            update: update, sourceLabel: folder)
        printSummary(report.summary, paths: paths)
        return 0
    }

    private static func networkSource(_ network: LexGen.NetworkSourceFactory?, _ options: LexGen.NetworkOptions)
        throws -> any LexiconInstallSource
    {
        guard let network else {
            throw UsageError(
                "this tool installs lexicons from a folder only (--from <folder>); "
                    + "over atproto, run: swift run lexgen install <nsid>...")
        }
        return try network(options)
    }
}

/// Where an install writes: the package's `lexicons/` and `lexicons.manifest.json`, found from the
/// package root (the nearest folder upwards holding `Package.swift`, else the current one), so running
/// lexgen from a subfolder installs into the project, not beside the shell. `--to` and `--manifest`,
/// as typed, are relative to the current folder.
struct ProjectPaths {
    var lexicons: URL
    var manifest: URL

    init(
        to: String?, manifest: String?,
        from current: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) {
        let root = Self.packageRoot(from: current) ?? current
        self.lexicons =
            to.map { URL(fileURLWithPath: $0, relativeTo: current) } ?? root.appendingPathComponent("lexicons")
        self.manifest =
            manifest.map { URL(fileURLWithPath: $0, relativeTo: current) }
            ?? root.appendingPathComponent("lexicons.manifest.json")
    }

    static func packageRoot(from folder: URL) -> URL? {
        var candidate = folder.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
    }
}

/// Re-installs a manifest that mixes lexicons pinned over atproto and from a folder: each pin goes
/// back to where it came from; new lexicons come over atproto.
struct PinRoutingSource: LexiconInstallSource {
    var network: any LexiconInstallSource
    var folder: any LexiconInstallSource
    var label: String { network.label }

    func lexicon(_ nsid: String) async throws -> FetchedLexicon? { try await network.lexicon(nsid) }

    func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? {
        entry.record == nil ? try await folder.lexicon(pinnedBy: entry) : try await network.lexicon(pinnedBy: entry)
    }

    func nsids(matching pattern: String) async throws -> [String] { try await network.nsids(matching: pattern) }

    func currentPublisher(of nsid: String) async throws -> String? { try await network.currentPublisher(of: nsid) }

    var resolverOptions: LexiconManifest.ResolverOptions? { network.resolverOptions }
}
