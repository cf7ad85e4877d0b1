import Foundation
import LexGenTestSupport
import XCTest

/// One type per lexicon type: a target that depends on a generated module (the SDK) does not install
/// what that module declares, neither named nor referred to, and is told so.
final class ProvidedBySDKTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try LexgenRun.temporaryFolder()
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let upstream = folder.appendingPathComponent("upstream")
        let sdk = folder.appendingPathComponent("Sources/SDK")
        for url in [upstream, sdk.appendingPathComponent("lexicons")] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func lexicon(_ nsid: String, refs: [String] = []) -> Data {
            let fields = refs.map { #""\#($0.split(separator: ".").last ?? "r")": {"type": "ref", "ref": "\#($0)"}"# }
            return Data(
                #"{"lexicon": 1, "id": "\#(nsid)", "defs": {"main": {"type": "object", "properties": {\#(fields.joined(separator: ", "))}}}}"#
                    .utf8)
        }
        // The SDK module declares com.example.sdk.*; upstream has those and an app lexicon referring to one.
        for name in ["strongRef", "post"] {
            try lexicon("com.example.sdk.\(name)").write(to: sdk.appendingPathComponent("lexicons/\(name).json"))
            try lexicon("com.example.sdk.\(name)").write(to: upstream.appendingPathComponent("sdk-\(name).json"))
        }
        try Data(#"{"lexicons": "lexicons", "include": ["com.example.sdk.*"]}"#.utf8)
            .write(to: sdk.appendingPathComponent("lexgen.json"))
        try lexicon("com.example.app.status", refs: ["com.example.sdk.strongRef", "com.example.app.mood"])
            .write(to: upstream.appendingPathComponent("status.json"))
        try lexicon("com.example.app.mood").write(to: upstream.appendingPathComponent("mood.json"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private let target = ["--to", "Sources/App/lexicons", "--manifest", "Sources/App/lexicons.manifest.json"]
    private let sdk = ["--import", "SDK=Sources/SDK/lexgen.json"]

    private func installed() throws -> [String] {
        let path = folder.appendingPathComponent("Sources/App/lexicons").path
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func testReferencesToTheSDKAreNotInstalled() throws {
        let run = try LexgenRun.run(
            ["install", "com.example.app.status", "--from", "upstream"] + target + sdk, in: folder)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(try installed(), ["mood.json", "status.json"])
        XCTAssertTrue(run.output.contains("1 already in an imported module"), run.output)
        XCTAssertTrue(run.output.contains("1 referenced lexicons come from SDK, not installed"), run.output)

        // Without the import, the referenced lexicon is installed: a second type for it.
        let alone = try LexgenRun.run(
            [
                "install", "com.example.app.status", "--from", "upstream", "--to", "Alone/lexicons", "--manifest",
                "Alone/m.json",
            ], in: folder)
        XCTAssertEqual(alone.status, 0, alone.errors)
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("Alone/lexicons").path
            ).contains("sdk-strongRef.json"))
    }

    func testANamedLexiconTheSDKHasIsNotInstalledAndSaysSo() throws {
        let run = try LexgenRun.run(
            ["install", "com.example.sdk.post", "com.example.app.mood", "--from", "upstream"] + target + sdk,
            in: folder)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(
            run.output.contains(
                "com.example.sdk.post: SDK already has it (the target depends on that module): use its type; not installed"
            ),
            run.output)
        XCTAssertEqual(try installed(), ["mood.json"])

        // Only what the SDK has: nothing installed, no manifest written.
        let only = try LexgenRun.run(
            [
                "install", "com.example.sdk.post", "--from", "upstream", "--to", "Other/lexicons", "--manifest",
                "Other/lexicons.manifest.json",
            ] + sdk, in: folder)
        XCTAssertEqual(only.status, 0, only.errors)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("Other/lexicons.manifest.json").path))
    }
}
