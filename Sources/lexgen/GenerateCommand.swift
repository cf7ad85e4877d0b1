import Foundation
import LexGenKit

enum GenerateCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments,
            valueOptions: ["--output", "--manifest", "--access-level", "--module-name"],
            flagOptions: ["--quiet", "--timing"]
        )
        guard !parsed.positional.isEmpty else {
            throw UsageError("give at least one lexicon folder, e.g. 'lexgen lexicons'")
        }
        let output = parsed.options["--output"] ?? "lexgen-output"
        var access = AccessLevel.public
        if let level = parsed.options["--access-level"] {
            guard let value = AccessLevel(rawValue: level) else {
                throw UsageError("--access-level must be public, package or internal, not '\(level)'")
            }
            access = value
        }
        let start = Date()
        if let manifest = parsed.options["--manifest"] {
            let problems = try ManifestCheck.problems(folders: parsed.positional, manifest: manifest)
            if !problems.isEmpty {
                for problem in problems { printError(problem) }
                return 1
            }
        }
        var sources: [LexiconSource] = []
        for folder in parsed.positional {
            sources += try LexiconFileSystem.sources(in: folder)
        }
        let readSeconds = Date().timeIntervalSince(start)
        let moduleName = parsed.options["--module-name"] ?? "Lexicons"
        let result = LexiconGenerator.generate(sources, access: access, moduleName: moduleName)
        for diagnostic in result.diagnostics.all { printError(diagnostic.description) }
        let log = result.diagnostics
        var report = LexiconFileSystem.WriteReport()
        if !log.hasErrors {
            report = try LexiconFileSystem.write(result.files, to: output, removeStale: true)
        }
        let seconds = Date().timeIntervalSince(start)
        if parsed.flags.contains("--timing") {
            var stages = [("read", readSeconds)] + result.stageSeconds.map { ($0.stage, $0.seconds) }
            stages.append(("write", seconds - readSeconds - result.stageSeconds.reduce(0) { $0 + $1.seconds }))
            print(
                "lexgen timing: " + stages.map { "\($0.0) \(String(format: "%.3f", $0.1)) s" }.joined(separator: ", "))
        }
        if !parsed.flags.contains("--quiet") || log.hasErrors {
            var summary = "lexgen: \(sources.count) files, \(result.defCount) defs, "
            summary += "\(log.warningCount) warnings, \(log.errorCount) errors in \(String(format: "%.2f", seconds)) s"
            if log.hasErrors {
                summary += "; nothing written"
            } else {
                summary += "; wrote \(report.written), unchanged \(report.unchanged)"
                if report.removed > 0 { summary += ", removed \(report.removed)" }
                summary += " in \(output)/"
            }
            print(summary)
        }
        return log.hasErrors ? 1 : 0
    }
}
