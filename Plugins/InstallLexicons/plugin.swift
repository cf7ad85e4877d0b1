import Foundation
import PackagePlugin

/// `swift package install-lexicons --target <name> <nsid>... [lexgen install options]`: installs
/// lexicons (and everything they refer to) into a target, for the `LexiconGen` build-tool plugin to
/// generate. Xcode runs it from a project's or a package's context menu, with the targets chosen
/// there.
///
/// It runs `lexgen install` with `--to <target>/lexicons --manifest <target>/lexicons.manifest.json`
/// and writes `<target>/lexgen.json` (the folder and the manifest, so that every build checks the
/// installed lexicons against their pins) when the target has none, which is
/// where the build-tool plugin looks (a package target's folder; in an Xcode project, the folder
/// named after the target). Every other argument goes to `lexgen install` as given: NSIDs or
/// `prefix.*`, `--from <folder>` (relative to the package or project folder), `--update`,
/// `--skip-verification`, `--dns-server`, `--plc-directory`.
@main
struct InstallLexicons: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let named = extractor.extractOption(named: "target")
        let candidates = context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind != .test }
        let targets: [SwiftSourceModuleTarget]
        if named.isEmpty {
            guard candidates.count == 1, let only = candidates.first else {
                throw InstallPluginError(
                    "name the target to install into: --target <name> (one of: "
                        + candidates.map(\.name).sorted().joined(separator: ", ") + ")")
            }
            targets = [only]
        } else {
            targets = try named.map { name in
                guard let target = candidates.first(where: { $0.name == name }) else {
                    throw InstallPluginError("no source target named \(name) in package \(context.package.displayName)")
                }
                return target
            }
        }
        let tool = try context.tool(named: "lexgen").url
        for target in targets {
            // The generated modules the target depends on (the SDK: AtprotoLexicons and its namespace
            // modules): what they declare is theirs, not installed again.
            let imports = target.recursiveTargetDependencies.compactMap { dependency -> [String]? in
                let config = dependency.directoryURL.appending(path: "lexgen.json")
                guard FileManager.default.fileExists(atPath: config.path()) else { return nil }
                return ["--import", "\(dependency.name)=\(config.path())"]
            }
            try Self.install(
                into: target.directoryURL, named: target.name,
                arguments: extractor.remainingArguments + imports.flatMap { $0 }, tool: tool,
                workingDirectory: context.package.directoryURL)
        }
        // The name the app's manifest knows this package by (its identity, from the URL or path it was
        // added with), which is not always the name it declares.
        let plugin = Self.identity(ofPackageWithProduct: "lexgen", in: context.package).map {
            ".plugin(name: \"LexiconGen\", package: \"\($0)\")"
        }
        print(
            "In Package.swift, give each target `plugins: [\(plugin ?? "\"LexiconGen\"")]` and "
                + "`exclude: [\"lexicons\", \"lexgen.json\", \"lexicons.manifest.json\"]`."
        )
    }

    /// The identity of the dependency (direct or not) that provides the product `name`; `nil` when the
    /// package itself provides it (the plugin runs in this repository).
    static func identity(ofPackageWithProduct name: String, in package: Package) -> String? {
        var queue = package.dependencies.map(\.package)
        var seen: Set<String> = []
        while !queue.isEmpty {
            let candidate = queue.removeFirst()
            guard seen.insert(candidate.id).inserted else { continue }
            if candidate.products.contains(where: { $0.name == name }) { return candidate.id }
            queue += candidate.dependencies.map(\.package)
        }
        return nil
    }

    /// Runs `lexgen install` into `directory` and writes its `lexgen.json` when missing.
    static func install(
        into directory: URL, named name: String, arguments: [String], tool: URL, workingDirectory: URL
    ) throws {
        let process = Process()
        process.executableURL = tool
        process.currentDirectoryURL = workingDirectory
        process.arguments =
            ["install"] + arguments + [
                "--to", directory.appending(path: "lexicons").path(),
                "--manifest", directory.appending(path: "lexicons.manifest.json").path(),
            ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw InstallPluginError("lexgen install into \(name) failed (exit status \(process.terminationStatus))")
        }
        let config = directory.appending(path: "lexgen.json")
        let manifest = directory.appending(path: "lexicons.manifest.json")
        // No manifest: nothing was installed (the SDK the target depends on had every lexicon named).
        if !FileManager.default.fileExists(atPath: config.path()),
            FileManager.default.fileExists(atPath: manifest.path())
        {
            try Data("{\n  \"lexicons\": \"lexicons\",\n  \"manifest\": \"lexicons.manifest.json\"\n}\n".utf8).write(
                to: config)
            print("Wrote \(config.path()).")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension InstallLexicons: XcodeCommandPlugin {
        /// Xcode passes `--target <name>` for each target chosen in its dialog; an Xcode target's
        /// lexicons go into the folder named after it, where `LexiconGen`'s Xcode entry point reads them.
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            let names = extractor.extractOption(named: "target")
            guard !names.isEmpty else {
                throw InstallPluginError("choose the target to install into")
            }
            let project = context.xcodeProject.directoryURL
            let tool = try context.tool(named: "lexgen").url
            for name in names {
                guard let target = context.xcodeProject.targets.first(where: { $0.displayName == name }) else {
                    throw InstallPluginError("no target named \(name) in \(context.xcodeProject.displayName)")
                }
                try Self.install(
                    into: project.appending(path: target.displayName), named: name,
                    arguments: extractor.remainingArguments, tool: tool, workingDirectory: project)
            }
        }
    }
#endif

/// A failure of the install command, printed by SwiftPM or Xcode.
struct InstallPluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
