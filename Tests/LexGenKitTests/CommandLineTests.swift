import Foundation
import LexGenSchema
import LexGenTestSupport
import XCTest

/// `lexgen` as a command-line user meets it: help, usage errors, a summary, exit codes.
final class CommandLineTests: XCTestCase {
    private func lexgen(_ arguments: [String]) throws -> LexgenRun {
        try LexgenRun.run(arguments)
    }

    private func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testHelpPrintsUsageAndSucceeds() throws {
        let run = try lexgen(["--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.output.contains("lexgen [generate] <lexicon-folder>... [--output <folder>]"))
    }

    func testBadArgumentsAreAUsageError() throws {
        let unknown = try lexgen(["lexicons", "--frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.errors.contains("unknown option --frobnicate"), unknown.errors)
        let missingValue = try lexgen(["lexicons", "--output"])
        XCTAssertEqual(missingValue.status, 64)
        XCTAssertTrue(missingValue.errors.contains("--output needs a value"))
        let noArguments = try lexgen([])
        XCTAssertEqual(noArguments.status, 64)
    }

    func testGenerateWritesSummaryAndRewritesOnlyChanges() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lexicons = folder.appendingPathComponent("lexicons")
        try FileManager.default.createDirectory(at: lexicons, withIntermediateDirectories: true)
        let json = #"{"lexicon": 1, "id": "com.example.thing", "defs": {"main": {"type": "object", "properties": {}}}}"#
        try Data(json.utf8).write(to: lexicons.appendingPathComponent("thing.json"))
        let output = folder.appendingPathComponent("out").path
        let first = try lexgen([lexicons.path, "--output", output])
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(first.output.contains("lexgen: 1 files, 1 defs, 0 warnings, 0 errors in "), first.output)
        XCTAssertTrue(first.output.contains("wrote 2, unchanged 0 in \(output)/"), first.output)
        let second = try lexgen(["generate", lexicons.path, "--output", output])
        XCTAssertTrue(second.output.contains("wrote 0, unchanged 2"), second.output)
    }

    /// `--import Module=<path>/lexgen.json`: that module's lexicons, include and exclude (what the
    /// plugin passes for a dependency with a config).
    func testImportOfAConfigTakesItsLexiconsIncludeAndExclude() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lexicons = folder.appendingPathComponent("lexicons")
        try FileManager.default.createDirectory(at: lexicons, withIntermediateDirectories: true)
        for id in ["com.example.shared", "com.example.hidden"] {
            let json = #"{"lexicon": 1, "id": "\#(id)", "defs": {"main": {"type": "object", "properties": {}}}}"#
            try Data(json.utf8).write(to: lexicons.appendingPathComponent("\(id).json"))
        }
        let module = folder.appendingPathComponent("Shared")
        try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
        let config = module.appendingPathComponent("lexgen.json")
        try Data(#"{"lexicons": "../lexicons", "exclude": ["com.example.hidden"]}"#.utf8).write(to: config)
        let own = folder.appendingPathComponent("own")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        func write(_ ref: String) throws {
            let json =
                #"{"lexicon": 1, "id": "org.example.a", "defs": {"main": {"type": "object", "properties": {"x": {"type": "ref", "ref": "\#(ref)"}}}}}"#
            try Data(json.utf8).write(to: own.appendingPathComponent("a.json"))
        }
        let output = folder.appendingPathComponent("out").path
        try write("com.example.shared")
        let good = try lexgen([own.path, "--output", output, "--import", "Shared=\(config.path)"])
        XCTAssertEqual(good.status, 0, good.errors)
        let swift = try String(contentsOfFile: output + "/a.swift", encoding: .utf8)
        XCTAssertTrue(swift.contains("public var x: Shared.ComExampleShared?"), swift)
        try write("com.example.hidden")
        let excluded = try lexgen([own.path, "--output", output, "--import", "Shared=\(config.path)"])
        XCTAssertEqual(excluded.status, 1, "com.example.hidden is not Shared's")
        XCTAssertTrue(excluded.errors.contains("com.example.hidden"), excluded.errors)
    }

    func testBrokenLexiconExitsNonZeroWithDiagnostics() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"lexicon\": 1,".utf8).write(to: folder.appendingPathComponent("broken.json"))
        let run = try lexgen([folder.path, "--output", folder.appendingPathComponent("out").path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errors.contains("broken.json:1:15: error: invalid JSON"), run.errors)
        XCTAssertTrue(run.output.contains("1 errors"), run.output)
    }

    /// The summary counts every file of the folder, not only those that loaded.
    func testSummaryCountsEveryFileWhenOneIsBroken() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b", "c"] {
            try Data(#"{"lexicon": 1, "id": "com.example.\#(name)", "defs": {"main": {"type": "token"}}}"#.utf8)
                .write(to: folder.appendingPathComponent("\(name).json"))
        }
        try Data("{\"lexicon\": 1,".utf8).write(to: folder.appendingPathComponent("broken.json"))
        let run = try lexgen([folder.path, "--output", folder.appendingPathComponent("out").path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.hasPrefix("lexgen: 4 files, 3 defs, 0 warnings, 1 errors"), run.output)
    }

    func testMissingInstallNamesTheFileAndTheFix() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("lexicons.manifest.json")
        let entry = #"{"nsid": "com.example.thing", "path": "com/example/thing.json", "sha256": "00"}"#
        try Data("{\n  \"version\": 1,\n  \"lexicons\": [\n    \(entry)\n  ]\n}\n".utf8).write(to: manifest)
        let lexicons = folder.appendingPathComponent("lexicons")
        try FileManager.default.createDirectory(
            at: lexicons.appendingPathComponent("com/example"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: lexicons.appendingPathComponent("com/example/other.json"))
        let run = try lexgen([
            lexicons.path, "--manifest", manifest.path, "--output", folder.appendingPathComponent("out").path,
        ])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errors.contains("com/example/thing.json"), run.errors)
        XCTAssertTrue(run.errors.contains("swift run lexgen install --from"), run.errors)
    }

    /// A manifest made over atproto is restored by `install` with the resolver options it was made with,
    /// not by `install --from atproto` (which would read a folder named `atproto` if there were one).
    func testTheFixForAManifestMadeOverAtprotoIsInstallWithItsResolverOptions() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("app.manifest.json")
        let entry =
            #"{"nsid": "com.example.thing", "path": "com/example/thing.json", "sha256": "\#(String(repeating: "0", count: 64))", "#
            + #""uri": "at://did:plc:abc/com.atproto.lexicon.schema/com.example.thing", "cid": "bafyfake"}"#
        let resolver = #"{"dnsServers": ["127.0.0.1:5353"], "plcDirectory": "http://127.0.0.1:2582/plc"}"#
        try Data(
            "{\n  \"version\": 1,\n  \"source\": \"atproto\",\n  \"resolver\": \(resolver),\n  \"lexicons\": [\n    \(entry)\n  ]\n}\n"
                .utf8
        ).write(to: manifest)
        let lexicons = folder.appendingPathComponent("lexicons").path
        let verify = try lexgen(["verify", "--folder", lexicons, "--manifest", manifest.path])
        XCTAssertEqual(verify.status, 1)
        let fix =
            "run: swift run lexgen install --dns-server 127.0.0.1:5353 --plc-directory http://127.0.0.1:2582/plc "
            + "--to \(lexicons) --manifest \(manifest.path)"
        XCTAssertTrue(verify.errors.contains(fix), verify.errors)
        XCTAssertFalse(verify.errors.contains("--from atproto"), verify.errors)
        // The build plugin's check (generate --manifest) suggests the same.
        let generate = try lexgen([
            lexicons, "--manifest", manifest.path, "--output", folder.appendingPathComponent("out").path,
        ])
        XCTAssertEqual(generate.status, 1)
        XCTAssertTrue(generate.errors.contains(fix), generate.errors)
    }

    /// An app's target as the README sets it up: installed lexicons pinned by the manifest its
    /// lexgen.json names, and the app's own lexicon beside them, unpinned. The build checks the pins
    /// and generates both.
    func testAConfigWithAManifestChecksThePinsAndGeneratesTheProjectsOwnLexicons() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstream = folder.appendingPathComponent("upstream")
        let lexicons = folder.appendingPathComponent("lexicons")
        try FileManager.default.createDirectory(at: upstream, withIntermediateDirectories: true)
        let installed = #"{"lexicon": 1, "id": "com.example.installed", "defs": {"main": {"type": "token"}}}"#
        try Data(installed.utf8).write(to: upstream.appendingPathComponent("installed.json"))
        let install = try lexgen([
            "install", "com.example.installed", "--from", upstream.path, "--to", lexicons.path, "--manifest",
            folder.appendingPathComponent("lexicons.manifest.json").path,
        ])
        XCTAssertEqual(install.status, 0, install.errors)
        let own = #"{"lexicon": 1, "id": "com.example.own", "defs": {"main": {"type": "object", "properties": {}}}}"#
        try Data(own.utf8).write(to: lexicons.appendingPathComponent("own.json"))
        let config = folder.appendingPathComponent("lexgen.json")
        try Data(#"{"lexicons": "lexicons", "manifest": "lexicons.manifest.json"}"#.utf8).write(to: config)

        let output = folder.appendingPathComponent("out").path
        let run = try lexgen(["--config", config.path, "--output", output])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/own.swift"), run.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/installed.swift"), run.output)
        let verify = try lexgen([
            "verify", "--folder", lexicons.path, "--manifest",
            folder.appendingPathComponent("lexicons.manifest.json").path,
        ])
        XCTAssertEqual(verify.status, 0, verify.errors)
        XCTAssertTrue(verify.output.contains("holds 1 lexicons it does not pin, the project's own"), verify.output)

        // An installed lexicon edited by hand no longer matches its pin: the build stops and says so.
        try Data(installed.replacingOccurrences(of: "token", with: "string").utf8)
            .write(to: lexicons.appendingPathComponent("installed.json"))
        let altered = try lexgen(["--config", config.path, "--output", output])
        XCTAssertEqual(altered.status, 1)
        XCTAssertTrue(altered.errors.contains("lexicons/installed.json: error: altered"), altered.errors)
    }

    func testInvalidLexiconsSkipWritesTheRestAndExitsOneAndWarnExitsZero() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lexicons = folder.appendingPathComponent("lexicons")
        try FileManager.default.createDirectory(at: lexicons, withIntermediateDirectories: true)
        let good = #"{"lexicon": 1, "id": "com.example.thing", "defs": {"main": {"type": "object", "properties": {}}}}"#
        try Data(good.utf8).write(to: lexicons.appendingPathComponent("thing.json"))
        try Data("{\"lexicon\": 1,".utf8).write(to: lexicons.appendingPathComponent("broken.json"))
        let output = folder.appendingPathComponent("out")
        let strict = try lexgen([lexicons.path, "--output", output.path])
        XCTAssertEqual(strict.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("thing.swift").path))

        let skip = try lexgen([lexicons.path, "--output", output.path, "--invalid-lexicons", "skip"])
        XCTAssertEqual(skip.status, 1, "the errors are still errors")
        XCTAssertTrue(skip.errors.contains("broken.json:1:15: error: invalid JSON"), skip.errors)
        XCTAssertTrue(skip.errors.contains("warning: skipped broken.json: it has errors"), skip.errors)
        XCTAssertTrue(skip.output.contains("skipped 1 lexicons"), skip.output)
        let written = try String(contentsOf: output.appendingPathComponent("thing.swift"), encoding: .utf8)
        XCTAssertTrue(written.contains("struct ComExampleThing"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("broken.swift").path))

        let config = folder.appendingPathComponent("lexgen.json")
        try Data(#"{"lexicons": "lexicons", "invalidLexicons": "warn"}"#.utf8).write(to: config)
        let warn = try lexgen(["--config", config.path, "--output", output.path])
        XCTAssertEqual(warn.status, 0, warn.errors)
        XCTAssertTrue(warn.errors.contains("broken.json:1:15: warning: invalid JSON"), warn.errors)
        let usage = try lexgen([lexicons.path, "--invalid-lexicons", "lenient"])
        XCTAssertEqual(usage.status, 64)
    }
}
