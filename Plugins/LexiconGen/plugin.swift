import Foundation
import PackagePlugin

/// Runs `lexgen` over a target's lexicons at build time.
///
/// The lexicons are the target's own `*.json` files, or the folder (or single file) named by an
/// optional `lexgen.json` beside them (`{"lexicons": "../../lexicons", "manifest": "../../lexicons.manifest.json"}`, paths
/// relative to that file). With a manifest, the outputs are declared from the manifest's entries and
/// lexgen verifies the installed files against it first, so a missing install is one clear error.
/// One build command declares every input and every output; lexgen rewrites only changed files.
@main
struct LexiconGen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        // Generated code imports XRPCCore, which reaches a target through the runtime's products: without
        // one, the build would fail later, file by file, with "no such module 'XRPCCore'".
        guard target.recursiveTargetDependencies.contains(where: { $0.name == "XRPCCore" }) else {
            throw PluginError(
                "target '\(target.name)' applies the LexiconGen plugin but does not depend on the runtime the "
                    + "generated code calls: add .product(name: \"XRPCRuntime\", package: <this package>) to its "
                    + "dependencies (or AtprotoLexicons, whose types refs to standard lexicons then use)")
        }
        return try Self.commands(
            targetName: target.name,
            targetDirectory: target.directoryURL,
            dependencies: target.recursiveTargetDependencies.map { ($0.name, $0.directoryURL) },
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "LexGenTool").url
        )
    }

    /// The one build command for a target: shared by the SwiftPM and the Xcode entry points.
    static func commands(
        targetName: String,
        targetDirectory: URL,
        dependencies: [(name: String, directory: URL)],
        workDirectory: URL,
        tool: URL
    ) throws -> [Command] {
        let settings = try PluginSettings(targetDirectory: targetDirectory)
        let relativePaths = try settings.lexiconRelativePaths()
        let outputDirectory = workDirectory.appending(path: "GeneratedSources")
        let outputs =
            relativePaths.map {
                outputDirectory.appending(path: LexiconOutputNaming.outputFileName(forLexiconAt: $0))
            } + [outputDirectory.appending(path: LexiconOutputNaming.namespacesFileName)]
        // Only files that exist are declared as inputs: the build system refuses to run a command with
        // missing inputs, and lexgen's own message (file and fix) is the one to show when they are missing.
        var inputs = relativePaths.map { settings.lexiconFile(at: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path()) }
        var arguments = [
            "generate", settings.lexiconFolder.path(), "--output", outputDirectory.path(), "--quiet",
            "--module-name", targetName,
        ]
        if let manifest = settings.manifest {
            inputs.append(manifest)
            arguments += ["--manifest", manifest.path()]
        }
        if let configFile = settings.configFile {
            inputs.append(configFile)
            arguments += ["--config", configFile.path()]
        }
        // Dependencies that are generated modules themselves: their lexicons are imported, not generated.
        // One named by its lexgen.json brings that config's include and exclude (modules generated from
        // parts of one folder). A module whose lexicons another dependency declares too, every one, is
        // left out: that one is an umbrella re-exporting it (AtprotoLexicons over AppBskyLexicons).
        var generated: [(name: String, settings: PluginSettings, files: Set<URL>)] = []
        for dependency in dependencies {
            guard let imported = try PluginSettings.generatedModule(at: dependency.directory) else { continue }
            let files = Set(try imported.lexiconRelativePaths().map { imported.lexiconFile(at: $0).standardized })
            generated.append((dependency.name, imported, files))
        }
        for (index, module) in generated.enumerated() {
            let covered = generated.indices.contains { other in
                other != index && !module.files.isEmpty && module.files.isSubset(of: generated[other].files)
                    && (module.files != generated[other].files || other < index)
            }
            if covered { continue }
            let location = module.settings.configFile ?? module.settings.lexiconFolder
            arguments += ["--import", "\(module.name)=\(location.path())"]
            inputs += module.files.sorted { $0.path() < $1.path() }
                .filter { FileManager.default.fileExists(atPath: $0.path()) }
        }
        return [
            .buildCommand(
                displayName: "Generating Swift from \(relativePaths.count) lexicons for \(targetName)",
                executable: tool,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: outputs
            )
        ]
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension LexiconGen: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            // An Xcode target's lexicons sit in a folder named after it (or its lexgen.json says where).
            let directory = context.xcodeProject.directoryURL.appending(path: target.displayName)
            return try Self.commands(
                targetName: target.product?.name ?? target.displayName,
                targetDirectory: directory,
                dependencies: [],
                workDirectory: context.pluginWorkDirectoryURL,
                tool: try context.tool(named: "LexGenTool").url
            )
        }
    }
#endif

/// Where a target's lexicons are, read from its optional `lexgen.json`.
struct PluginSettings {
    static let configFileName = "lexgen.json"

    var lexiconFolder: URL
    var manifest: URL?
    var configFile: URL?
    /// The config's NSID patterns: with a manifest, only the lexicons they select are declared as outputs.
    var include: [String] = []
    var exclude: [String] = []

    init(targetDirectory: URL) throws {
        let config = targetDirectory.appending(path: Self.configFileName)
        lexiconFolder = targetDirectory
        guard FileManager.default.fileExists(atPath: config.path()) else { return }
        configFile = config
        let data = try Data(contentsOf: config)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PluginError("\(config.path()): expected a JSON object")
        }
        if let folder = object["lexicons"] as? String {
            lexiconFolder = targetDirectory.appending(path: folder).standardized
        }
        if let manifestPath = object["manifest"] as? String {
            manifest = targetDirectory.appending(path: manifestPath).standardized
        }
        // Values of the wrong kind are left to lexgen, which reports them with their line.
        include = object["include"] as? [String] ?? []
        exclude = object["exclude"] as? [String] ?? []
    }

    /// The settings of a dependency that is a generated module (it has a `lexgen.json` or lexicon JSON
    /// files of its own), or `nil` for any other target.
    static func generatedModule(at directory: URL) throws -> PluginSettings? {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory.appending(path: configFileName).path()) {
            return try PluginSettings(targetDirectory: directory)
        }
        let files = (try? manager.contentsOfDirectory(atPath: directory.path())) ?? []
        return files.contains { $0.hasSuffix(".json") } ? try PluginSettings(targetDirectory: directory) : nil
    }

    /// The URL of a lexicon file given relative to the lexicon folder (or the file itself).
    func lexiconFile(at relativePath: String) -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: lexiconFolder.path(), isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            return lexiconFolder
        }
        return lexiconFolder.appending(path: relativePath)
    }

    /// The lexicon files, relative to the lexicon folder: with a manifest, those it pins (so the outputs
    /// do not depend on what happens to be installed) and the folder's files it does not pin (the
    /// project's own lexicons), each when the config's include and exclude select its NSID; else every
    /// `*.json` in the folder (lexgen writes a file for excluded ones).
    func lexiconRelativePaths() throws -> [String] {
        // A missing or unreadable manifest is not an error here: lexgen reports it, with the fix,
        // when the build runs it. Planning must not fail, or even `swift run lexgen install` could not build.
        if let manifest, let data = FileManager.default.contents(atPath: manifest.path()),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["lexicons"] as? [[String: Any]]
        {
            var pinned: Set<String> = []
            var paths: [String] = []
            for entry in entries {
                guard let path = entry["path"] as? String, let nsid = entry["nsid"] as? String else { continue }
                pinned.insert(path)
                if LexiconOutputNaming.selects(nsid, include: include, exclude: exclude) { paths.append(path) }
            }
            for path in folderPaths() where !pinned.contains(path) {
                // The project's own lexicon: its `id` says whether this module generates it.
                let file = lexiconFolder.appending(path: path)
                guard let data = FileManager.default.contents(atPath: file.path()),
                    let lexicon = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let nsid = lexicon["id"] as? String
                else {
                    paths.append(path)  // unreadable: lexgen reports it, with its line.
                    continue
                }
                if LexiconOutputNaming.selects(nsid, include: include, exclude: exclude) { paths.append(path) }
            }
            return paths.sorted()
        }
        return folderPaths()
    }

    /// Every `*.json` file under the lexicon folder (but the config), relative to it, sorted.
    private func folderPaths() -> [String] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: lexiconFolder.path(), isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            return [lexiconFolder.lastPathComponent]  // `lexicons` names a single file.
        }
        let root = lexiconFolder.standardized.path()
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var paths: [String] = []
        for case let relative as String in enumerator
        where relative.hasSuffix(".json") && relative != Self.configFileName {
            if FileManager.default.fileExists(atPath: prefix + relative) { paths.append(relative) }
        }
        return paths.sorted()
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
