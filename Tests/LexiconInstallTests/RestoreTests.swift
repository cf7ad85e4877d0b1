import Foundation
import LexGenKit
import LexGenTestSupport
import XCTest

/// An app's installed lexicons restored on a clone that has none of them: exactly the pinned set, from
/// the folder the manifest names (relative to it) or one given, and a manifest with no absolute path.
final class RestoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try LexgenRun.temporaryFolder()
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let upstream = folder.appendingPathComponent("upstream")
        try FileManager.default.createDirectory(at: upstream, withIntermediateDirectories: true)
        // Five lexicons upstream; the app installs one and what it refers to (two).
        for (name, refs) in [("a", ["com.example.b"]), ("b", []), ("c", []), ("d", []), ("e", [])] {
            let fields = refs.map { #""r": {"type": "ref", "ref": "\#($0)"}"# }.joined(separator: ", ")
            try Data(
                #"{"lexicon": 1, "id": "com.example.\#(name)", "description": "Prose about \#(name).", "defs": {"main": {"type": "object", "properties": {\#(fields)}}}}"#
                    .utf8
            ).write(to: upstream.appendingPathComponent("\(name).json"))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var target: URL { folder.appendingPathComponent("Sources/App") }
    private let to = ["--to", "Sources/App/lexicons", "--manifest", "Sources/App/lexicons.manifest.json"]

    private func installed() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: target.appendingPathComponent("lexicons").path).sorted()
    }

    func testARestoreInstallsExactlyThePinnedSetFromTheRecordedFolder() throws {
        let upstream = folder.appendingPathComponent("upstream").path  // absolute, as a plugin passes it
        let first = try LexgenRun.run(["install", "com.example.a", "--from", upstream] + to, in: folder)
        XCTAssertEqual(first.status, 0, first.errors)
        let manifestText = try String(
            contentsOf: target.appendingPathComponent("lexicons.manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifestText.contains(#""source": "../../upstream""#), manifestText)
        XCTAssertFalse(manifestText.contains(folder.path), "the manifest holds an absolute path:\n\(manifestText)")
        XCTAssertEqual(try installed(), ["a.json", "b.json"])
        let written = try String(contentsOf: target.appendingPathComponent("lexicons/a.json"), encoding: .utf8)
        XCTAssertFalse(written.contains("Prose"), written)

        // A fresh clone: the manifest, none of the files. No NSIDs, no --from: the recorded folder.
        try FileManager.default.removeItem(at: target.appendingPathComponent("lexicons"))
        let restored = try LexgenRun.run(["install"] + to, in: folder)
        XCTAssertEqual(restored.status, 0, restored.errors)
        XCTAssertFalse(restored.errors.contains("not in the manifest"), restored.errors)
        XCTAssertEqual(try installed(), ["a.json", "b.json"])
        XCTAssertEqual(
            try String(contentsOf: target.appendingPathComponent("lexicons.manifest.json"), encoding: .utf8),
            manifestText, "a restore leaves the manifest as it was")

        // The same with --from a folder that holds more than the pins.
        try FileManager.default.removeItem(at: target.appendingPathComponent("lexicons"))
        let fromFolder = try LexgenRun.run(["install", "--from", "upstream"] + to, in: folder)
        XCTAssertEqual(fromFolder.status, 0, fromFolder.errors)
        XCTAssertEqual(try installed(), ["a.json", "b.json"])
        let verified = try LexgenRun.run(
            ["verify", "--folder", "Sources/App/lexicons", "--manifest", "Sources/App/lexicons.manifest.json"],
            in: folder)
        XCTAssertEqual(verified.status, 0, verified.errors + verified.output)
    }

    func testTheOldSpellingOfUpdateIsRefused() throws {
        let run = try LexgenRun.run(["install", "--from", "upstream", "--update-manifest"], in: folder)
        XCTAssertEqual(run.status, 64, run.errors)
        XCTAssertTrue(run.errors.contains("--update-manifest"), run.errors)
    }
}
