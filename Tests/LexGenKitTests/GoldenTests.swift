import Foundation
import XCTest

@testable import LexGenKit

/// The golden set: lexicons of our own in `Golden/lexicons`, their expected Swift in `Golden/expected`
/// (named `*.swift.golden`, so neither the compiler nor the formatter treats them as sources).
///
/// After an intended change of the generated code, regenerate the expected files with
/// `LEXGEN_UPDATE_GOLDEN=1 swift test --filter GoldenTests` and review the diff in git.
final class GoldenTests: XCTestCase {
    private let golden = packageRoot.appendingPathComponent("Tests/LexGenKitTests/Golden")

    func testGoldenSetMatchesExpectedSwift() throws {
        let sources = try LexiconFileSystem.sources(in: golden.appendingPathComponent("lexicons").path)
        XCTAssertEqual(sources.count, 5)
        var result = LexiconGenerator.generate(sources)
        result.files = result.files.map { GeneratedFile(name: $0.name + ".golden", contents: $0.contents) }
        XCTAssertEqual(result.diagnostics.all.map(\.description), [])
        let expectedFolder = golden.appendingPathComponent("expected")
        if ProcessInfo.processInfo.environment["LEXGEN_UPDATE_GOLDEN"] == "1" {
            _ = try LexiconFileSystem.write(result.files, to: expectedFolder.path, removeStale: true)
            return
        }
        for file in result.files {
            let url = expectedFolder.appendingPathComponent(file.name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                XCTFail("missing golden file \(file.name); run with LEXGEN_UPDATE_GOLDEN=1 to create it")
                continue
            }
            let expected = String(decoding: data, as: UTF8.self)
            if expected != file.contents {
                XCTFail(
                    "\(file.name) differs from its golden file (LEXGEN_UPDATE_GOLDEN=1 to accept):\n"
                        + lineDiff(expected: expected, actual: file.contents)
                )
            }
        }
    }

    /// A short line diff: the first differing lines with their numbers.
    private func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var output: [String] = []
        for index in 0..<max(old.count, new.count) where output.count < 40 {
            let left = index < old.count ? String(old[index]) : nil
            let right = index < new.count ? String(new[index]) : nil
            if left != right {
                if let left { output.append("\(index + 1)- \(left)") }
                if let right { output.append("\(index + 1)+ \(right)") }
            }
        }
        return output.joined(separator: "\n")
    }
}
