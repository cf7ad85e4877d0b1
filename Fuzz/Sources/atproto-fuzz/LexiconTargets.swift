import Foundation
import FuzzDriver
import LexGenKit

/// The generator over untrusted lexicons: load, resolve, plan and render.
let lexiconTargets: [FuzzTarget] = [
    FuzzTarget("lexicon", "LexiconGenerator.generate and the linter over lexicon files split at NUL bytes") { bytes in
        let files = bytes.split(separator: 0, omittingEmptySubsequences: true).prefix(8)
        let sources = files.enumerated().map { index, file in
            LexiconSource(displayPath: "fuzz\(index).json", relativePath: "fuzz\(index).json", bytes: Array(file))
        }
        guard !sources.isEmpty else { return }
        let result = LexiconGenerator.generate(sources)
        _ = result.files.count
        _ = LexiconLinter.lint(sources).all.count
    }
]
