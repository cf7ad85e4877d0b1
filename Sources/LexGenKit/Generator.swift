import LexGenSchema

/// One lexicon file given to the generator.
public struct LexiconSource: Sendable {
    /// The path printed in diagnostics.
    public var displayPath: String
    /// The path under its lexicon folder, from which the output name is derived (`app/bsky/feed/post.json`).
    public var relativePath: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates a source.
    public init(displayPath: String, relativePath: String, bytes: [UInt8]) {
        self.displayPath = displayPath
        self.relativePath = relativePath
        self.bytes = bytes
    }
}

/// A generated Swift file, in memory.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name (no folder).
    public var name: String
    /// The Swift source.
    public var contents: String

    /// Creates a file.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// The access level of generated declarations.
public enum AccessLevel: String, Sendable, CaseIterable {
    case `public`, `package`, `internal`

    var modifier: String { self == .internal ? "" : rawValue + " " }
}

/// The result of generating a set of lexicons in memory.
public struct GenerationResult: Sendable {
    /// One file per lexicon, in source order, then the namespaces file. Empty when errors stopped
    /// the run; with ``GenerationOptions/invalidLexicons`` `skip` or `warn`, skipped lexicons get a
    /// file that says so.
    public var files: [GeneratedFile]
    /// Everything found, in order.
    public var diagnostics: DiagnosticLog
    /// How many lexicon documents were loaded.
    public var documentCount: Int
    /// How many defs they hold.
    public var defCount: Int
    /// Seconds spent in each stage, in order (`load`, `resolve`, `plan`, `render`).
    public var stageSeconds: [(stage: String, seconds: Double)] = []
    /// How many files were given, whether or not they loaded (the count a summary reports: a file
    /// with errors is still one of the files read).
    public var fileCount: Int = 0
    /// The files skipped for their errors or their refs, as given (display paths), in source order.
    public var skippedPaths: [String] = []
}

/// The generator: load -> resolve -> plan -> render, without touching the file system.
public enum LexiconGenerator {
    /// Generates Swift for `sources`. Stages after loading see the whole set, so refs across files resolve.
    ///
    /// - Parameters:
    ///   - sources: The lexicon files.
    ///   - access: The access level of the generated declarations.
    ///   - moduleName: The module the code is compiled into; it names the module's schema catalog
    ///     (`<module>Schemas`) so that generated modules imported together do not clash.
    public static func generate(
        _ sources: [LexiconSource],
        access: AccessLevel = .public,
        moduleName: String = "Lexicons"
    ) -> GenerationResult {
        var options = GenerationOptions()
        options.access = access
        options.moduleName = moduleName
        return generate(sources, options: options)
    }

    /// Generates Swift for `sources` with `options`: refs may name the lexicons of imported modules,
    /// which are not generated again; only lexicons the include/exclude patterns select are generated.
    public static func generate(_ sources: [LexiconSource], options: GenerationOptions) -> GenerationResult {
        let access = options.access
        let moduleName = options.moduleName
        let clock = ContinuousClock()
        var stageStart = clock.now
        var stages: [(stage: String, seconds: Double)] = []
        func endStage(_ name: String) {
            let now = clock.now
            let elapsed = now - stageStart
            stages.append((name, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            stageStart = now
        }
        var log = DiagnosticLog()
        var documents: [LexiconDocument] = []
        var relativePaths: [String: String] = [:]
        var outputOwners: [String: String] = [:]
        var failedSources: [LexiconSource] = []
        for source in sources {
            let outputName = LexiconOutputNaming.outputFileName(forLexiconAt: source.relativePath)
            if let other = outputOwners[outputName] {
                log.error(
                    "\(source.relativePath) and \(other) would both generate \(outputName); rename one",
                    at: SourceLocation(file: source.displayPath)
                )
                continue
            }
            if outputName == LexiconOutputNaming.namespacesFileName {
                log.error(
                    "the file name \(source.relativePath) is reserved by lexgen",
                    at: SourceLocation(file: source.displayPath))
                continue
            }
            outputOwners[outputName] = source.relativePath
            let errorsBefore = log.errorCount
            let document = LexiconLoader.load(path: source.displayPath, bytes: source.bytes, log: &log)
            if log.errorCount > errorsBefore || document == nil { failedSources.append(source) }
            if let document {
                documents.append(document)
                relativePaths[document.path] = source.relativePath
            }
        }
        let excluded = documents.filter { !options.generates($0.id) }
        documents = documents.filter { options.generates($0.id) }
        let imported = loadImports(options.imports)
        endStage("load")
        var graph = SchemaGraph.build(documents, imported: imported, log: &log)
        let defCount = documents.reduce(0) { $0 + $1.defs.count }
        var skipped: [(source: LexiconSource, note: String)] = []
        var stopped = log.hasErrors
        if stopped, options.invalidLexicons != .fail,
            let left = skipInvalid(&documents, failedSources, relativePaths, options.invalidLexicons, &log)
        {
            // What is left must resolve on its own; an error now is one skipping cannot fix.
            skipped = left
            var recheck = DiagnosticLog()
            graph = SchemaGraph.build(documents, imported: imported, log: &recheck)
            for diagnostic in recheck.all where diagnostic.severity == .error { log.report(diagnostic) }
            stopped = recheck.hasErrors
        }
        endStage("resolve")
        guard !stopped else {
            return GenerationResult(
                files: [],
                diagnostics: log,
                documentCount: documents.count,
                defCount: defCount,
                stageSeconds: stages,
                fileCount: sources.count
            )
        }
        let planner = SwiftPlanner(graph: graph)
        for warning in planner.namingWarnings() { log.report(warning) }
        let ordered = documents.filter { graph.documents[$0.id]?.path == $0.path }
        var models = ordered.map(planner.planFile)
        OutOfLineStorage.apply(to: &models)
        endStage("plan")
        let module = ModuleSymbols(moduleName: moduleName, imports: imported.map(\.module))
        let renderer = SwiftRenderer(access: access.modifier, module: module)
        var files: [GeneratedFile] = []
        files.reserveCapacity(models.count + 1)
        var namespacePaths: [[String]] = []
        var segmentsByPath: [[String]: [String]] = [:]
        for model in models {
            let relative = relativePaths[model.sourcePath] ?? model.sourcePath
            files.append(
                GeneratedFile(
                    name: LexiconOutputNaming.outputFileName(forLexiconAt: relative),
                    contents: renderer.render(model, displayPath: relative)
                )
            )
            if !model.methods.isEmpty {
                namespacePaths.append(model.namespacePath)
                let segments = model.nsid.split(separator: ".").dropLast().map(String.init)
                for (path, nsidSegments) in zip(model.namespacePath.nonEmptyPrefixes, segments.nonEmptyPrefixes) {
                    segmentsByPath[path] = nsidSegments
                }
            }
        }
        for (source, note) in skipped {
            files.append(
                GeneratedFile(
                    name: LexiconOutputNaming.outputFileName(forLexiconAt: source.relativePath),
                    contents: "// Generated by lexgen: \(source.relativePath) was skipped: \(note).\n"))
        }
        // An excluded lexicon still gets its (empty) file: build systems expect one output per input,
        // unless they declared outputs for the included NSIDs only.
        for document in excluded where options.writesExcludedFiles {
            let relative = relativePaths[document.path] ?? document.path
            files.append(
                GeneratedFile(
                    name: LexiconOutputNaming.outputFileName(forLexiconAt: relative),
                    contents:
                        "// Generated by lexgen: \(document.id) (\(relative)) is excluded by the include/exclude patterns.\n"
                )
            )
        }
        files.append(
            GeneratedFile(
                name: LexiconOutputNaming.namespacesFileName,
                contents: NamespaceRenderer(access: access.modifier, module: module).render(
                    namespacePaths: namespacePaths,
                    importedPaths: importedNamespacePaths(graph),
                    segmentsByPath: segmentsByPath,
                    documentSymbols: models.filter { !$0.schemaText.isEmpty }.map(module.documentSymbol),
                    recordTypes: models.sorted { $0.nsid < $1.nsid }.flatMap(\.recordTypeNames)
                )
            )
        )
        endStage("render")
        return GenerationResult(
            files: files,
            diagnostics: log,
            documentCount: documents.count,
            defCount: defCount,
            stageSeconds: stages,
            fileCount: sources.count,
            skippedPaths: skipped.map(\.source.displayPath)
        )
    }

    /// Leaves out the documents with errors and those that ref them, reporting a warning for each
    /// (and, under `warn`, their errors as warnings); returns each skipped source with a note for
    /// its placeholder file, or `nil` when an error belongs to no file, which stops the run.
    private static func skipInvalid(
        _ documents: inout [LexiconDocument], _ failedSources: [LexiconSource], _ relativePaths: [String: String],
        _ policy: InvalidLexiconPolicy, _ log: inout DiagnosticLog
    ) -> [(source: LexiconSource, note: String)]? {
        let failedPaths = Set(failedSources.map(\.displayPath))
        guard let reasons = InvalidLexicons.skipped(documents, log: log, failedPaths: failedPaths) else { return nil }
        var skipped: [(source: LexiconSource, note: String)] = []
        var skippedPaths: Set<String> = []
        for source in failedSources {
            skippedPaths.insert(source.displayPath)
            skipped.append((source, "it has errors"))
        }
        for document in documents {
            guard let reason = reasons[document.path], !skippedPaths.contains(document.path) else { continue }
            skippedPaths.insert(document.path)
            let relative = LexiconSource(
                displayPath: document.path, relativePath: relativePaths[document.path] ?? document.path, bytes: [])
            switch reason {
            case .errors: skipped.append((relative, "it has errors"))
            case .refs(let nsid): skipped.append((relative, "it refs \(nsid), which is skipped"))
            }
        }
        if policy == .warn { log.downgradeErrors { skippedPaths.contains($0.location?.file ?? "") } }
        for (source, note) in skipped {
            let id = documents.first { $0.path == source.displayPath }?.id
            log.warning(
                "skipped \(id ?? source.relativePath): \(note); nothing is generated for it",
                at: SourceLocation(file: source.displayPath, jsonPath: id == nil ? "" : "id"))
        }
        documents.removeAll { skippedPaths.contains($0.path) }
        return skipped
    }

    /// The documents of each imported module; their own diagnostics belong to their own module's build.
    ///
    /// A module whose lexicons another imported module declares too, every one of them, is left out:
    /// that other module is an umbrella that re-exports it (`AtprotoLexicons` over `AppBskyLexicons`),
    /// and importing it alone keeps one module per type. Of two modules with the same lexicons the
    /// first is kept.
    static func loadImports(_ imports: [LexiconImport]) -> [(module: String, documents: [LexiconDocument])] {
        let loaded = imports.map { lexiconImport in
            var ignored = DiagnosticLog()
            let documents = lexiconImport.sources.compactMap {
                LexiconLoader.load(path: $0.displayPath, bytes: $0.bytes, log: &ignored)
            }.filter { lexiconImport.declares($0.id) }
            return (lexiconImport, documents)
        }
        let declared = loaded.map { Set($0.1.map(\.id)) }
        var result: [(module: String, documents: [LexiconDocument])] = []
        for (index, (lexiconImport, documents)) in loaded.enumerated() {
            let covered = declared.indices.contains { other in
                other != index && !declared[index].isEmpty && declared[index].isSubset(of: declared[other])
                    && (declared[index] != declared[other] || other < index)
            }
            if covered { continue }
            let selected = documents.filter { document in
                lexiconImport.patterns.map { $0.contains { NSIDPattern.matches($0, document.id) } } ?? true
            }
            result.append((lexiconImport.moduleName, selected))
        }
        return result
    }

    /// The client namespaces imported modules declare (those with an endpoint), which this module
    /// extends rather than declares again.
    private static func importedNamespacePaths(_ graph: SchemaGraph) -> Set<[String]> {
        var paths: Set<[String]> = []
        for id in graph.importedModules.keys {
            guard let main = graph.documents[id]?.def(named: "main") else { continue }
            switch main.schema.kind {
            case .query, .procedure, .subscription:
                let segments = id.split(separator: ".").dropLast().map { SwiftNaming.namespaceTypeName(String($0)) }
                paths.formUnion(segments.nonEmptyPrefixes)
            default:
                break
            }
        }
        return paths
    }
}
