import Foundation
import LexGenSchema
import LexGenTestSupport
import XCTest

/// `lexgen install` from a folder, as a user runs it: what it prints on the way and when it refuses.
final class FolderInstallCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try LexgenRun.temporaryFolder()
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        try write("com.example.a", refs: ["com.example.b#thing"])
        try write("com.example.b")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ nsid: String, refs: [String] = [], description: String = "v1") throws {
        let source = folder.appendingPathComponent("upstream")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let fields = refs.map { #""ref": {"type": "ref", "ref": "\#($0)"}"# }.joined(separator: ", ")
        let text = """
            {"lexicon": 1, "id": "\(nsid)", "description": "\(description)",
             "defs": {"main": {"type": "object", "properties": {\(fields)}}, "thing": {"type": "string"}}}
            """
        try Data(text.utf8).write(to: source.appendingPathComponent("\(nsid).json"))
    }

    /// Nothing is fetched from a folder, so nothing says so.
    func testANamedInstallFromAFolderPrintsNoFetchingLines() throws {
        let run = try LexgenRun.run(["install", "com.example.a", "--from", "upstream"], in: folder)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("2 lexicons (named and referenced): 2 read, 2 written"), run.output)
        XCTAssertFalse(run.errors.contains("fetching"), run.errors)
        XCTAssertEqual(run.errors, "", "a folder install is quiet but for its summary")
    }

    /// An error about a file is labelled once, compiler style: `<file>: error: ...`.
    func testAnErrorAboutAFileIsLabelledOnce() throws {
        let first = try LexgenRun.run(["install", "--from", "upstream"], in: folder)
        XCTAssertEqual(first.status, 0, first.errors)
        try write("com.example.b", description: "v2")
        // The installed files still match their pins: a restore has nothing to do.
        let intact = try LexgenRun.run(["install", "--from", "upstream"], in: folder)
        XCTAssertEqual(intact.status, 0, intact.errors)
        // Without them, the restore takes them from the folder, where one no longer matches its pin.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("lexicons"))
        let refused = try LexgenRun.run(["install", "--from", "upstream"], in: folder)
        XCTAssertEqual(refused.status, 1)
        let manifest = folder.appendingPathComponent("lexicons.manifest.json").path
        XCTAssertTrue(
            refused.errors.hasPrefix("\(manifest): error: com.example.b changed since it was pinned"), refused.errors)
        for line in refused.errors.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.components(separatedBy: "error:").count, 2, "labelled twice: \(line)")
        }
        XCTAssertFalse(refused.errors.contains("lexgen: error: /"), refused.errors)
    }

    /// An NSID the folder does not hold, but a typo of one it does, is answered with the near name.
    func testANearNSIDIsSuggested() throws {
        let typo = try LexgenRun.run(["install", "com.example.aa", "--from", "upstream"], in: folder)
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(
            typo.errors.contains("lexicon com.example.aa was not found in upstream (did you mean com.example.a?)"),
            typo.errors)
        let far = try LexgenRun.run(["install", "org.other.thing", "--from", "upstream"], in: folder)
        XCTAssertEqual(far.status, 1)
        XCTAssertTrue(far.errors.contains("org.other.thing was not found in upstream"), far.errors)
        XCTAssertFalse(far.errors.contains("did you mean"), far.errors)
    }
}
