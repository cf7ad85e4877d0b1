import Foundation
import XCTest

@testable import LexGenKit

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// `../shared` beside the package, or `nil` (tests that need it skip with a message).
func sharedFolder(_ relative: String) throws -> URL {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(relative)
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw XCTSkip("../shared/\(relative) is absent: this test needs the shared workplace files beside the package")
    }
    return url
}

/// A source made from JSON text, at `relativePath`.
func source(_ json: String, path: String = "test.json") -> LexiconSource {
    LexiconSource(displayPath: path, relativePath: path, bytes: Array(json.utf8))
}

/// Generates documents given as JSON texts; returns the result.
func generate(_ documents: [String], access: AccessLevel = .public) -> GenerationResult {
    let sources = documents.enumerated().map { source($0.element, path: "lexicon\($0.offset).json") }
    return LexiconGenerator.generate(sources, access: access)
}

/// The generated Swift of a single-document set, without the namespaces file; fails on diagnostics.
func generatedSwift(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    let result = generate([json])
    XCTAssertEqual(result.diagnostics.all.map(\.description), [], file: file, line: line)
    return result.files.first?.contents ?? ""
}

/// Asserts that `text` contains `expected` as consecutive lines (leading spaces ignored per line).
func assertContainsLines(
    _ text: String,
    _ expected: String,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let normalize = { (value: String) in
        value.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }
            .joined(separator: "\n")
    }
    let haystack = normalize(text)
    let needle = normalize(expected.trimmingCharacters(in: .newlines))
    XCTAssertTrue(
        haystack.contains(needle), "expected lines not found:\n\(needle)\n--- in:\n\(text)", file: file, line: line)
}

/// Type-checks Swift files against the modules built beside the tests (the runtime's XRPCCore, ...) in
/// Swift 6 mode; returns the compiler's exit status and its diagnostics. Skips when nothing was built.
func typecheckAgainstBuiltModules(_ files: [String], moduleName: String, arguments: [String] = []) throws -> (
    status: Int32, output: String
) {
    let modules = Bundle.main.bundleURL.appendingPathComponent("Modules")
    guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("XRPCCore.swiftmodule").path) else {
        throw XCTSkip("no XRPCRuntime module beside the tests at \(modules.path): build everything first")
    }
    // C targets the runtime links (CSHA256Accel) are found through the module maps SwiftPM writes.
    let buildFolder = Bundle.main.bundleURL
    let cModules = (try? FileManager.default.contentsOfDirectory(atPath: buildFolder.path)) ?? []
    let cModuleFlags = cModules.sorted().filter { $0.hasSuffix(".build") && !$0.hasSuffix("-tool.build") }
        .map { buildFolder.appendingPathComponent($0).path }
        .filter { FileManager.default.fileExists(atPath: $0 + "/module.modulemap") }
        .flatMap { ["-I", $0] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
        ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", moduleName, "-I", modules.path]
        + cModuleFlags + arguments + files
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
