import Foundation
import SHA2
import XCTest

@testable import LexGenInstall
@testable import LexGenKit
@testable import LexGenSchema

final class InstallerTests: XCTestCase {
    private var scratch: URL = FileManager.default.temporaryDirectory
    private var source: URL { scratch.appendingPathComponent("source") }
    private var destination: URL { scratch.appendingPathComponent("lexicons") }
    private var manifestURL: URL { scratch.appendingPathComponent("lexicons.manifest.json") }

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("InstallerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    // MARK: - Fixtures

    private func lexicon(_ nsid: String, _ description: String = "") -> String {
        "{\"lexicon\": 1, \"id\": \"\(nsid)\", \"description\": \"\(description)\", \"defs\": {}}\n"
    }

    private func write(_ text: String, to relativePath: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Three lexicons in nested folders plus a licence that must not be installed.
    private func makeSource() throws {
        try write(lexicon("app.bsky.feed.post"), to: "app/bsky/feed/post.json", in: source)
        try write(lexicon("app.bsky.actor.defs"), to: "app/bsky/actor/defs.json", in: source)
        try write(lexicon("com.atproto.repo.getRecord"), to: "com/atproto/repo/getRecord.json", in: source)
        try write("licence text", to: "LICENSE-MIT.txt", in: source)
    }

    private func install(update: Bool = false) throws -> InstallReport {
        try LexiconInstaller.install(from: source, to: destination, manifest: manifestURL, update: update)
    }

    private func modificationDate(_ url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    private func backdate(_ url: URL) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
            ofItemAtPath: url.path)
    }

    /// Whether `relativePath` exists in the destination folder.
    private func installed(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: destination.appendingPathComponent(relativePath).path)
    }

    private func hex(_ text: String) -> String {
        SHA256.hexHash(Data(text.utf8))
    }

    // MARK: - SHA-256

    func testSHA256NISTVectors() {
        XCTAssertEqual(SHA256.hexHash(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hexHash([UInt8](repeating: 0x61, count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSHA256PaddingBoundaries() {
        let expected: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            57: "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
            119: "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
            120: "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
            127: "c57e9278af78fa3cab38667bef4ce29d783787a2f731d4e12200270f0c32320a",
            128: "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e",
        ]
        for (count, digest) in expected {
            XCTAssertEqual(SHA256.hexHash([UInt8](repeating: 0x61, count: count)), digest, "\(count) bytes")
        }
        // A collection without contiguous storage takes the copying path.
        XCTAssertEqual(
            SHA256.hexHash("abc".utf8.lazy.map { $0 }),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hash(Data("abc".utf8)).count, 32)
    }

    func testSHA256MatchesSha256sumOnCorpusFiles() throws {
        let corpus = try corpusFolder()
        let tool = URL(fileURLWithPath: "/usr/bin/sha256sum")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw XCTSkip("/usr/bin/sha256sum is not available to cross-check SHA-256")
        }
        let paths = [
            "app/bsky/feed/post.json", "app/bsky/actor/defs.json", "com/atproto/repo/getRecord.json",
            "chat/bsky/convo/defs.json",
        ]
        for path in paths {
            let url = corpus.appendingPathComponent(path)
            let process = Process()
            let pipe = Pipe()
            process.executableURL = tool
            process.arguments = [url.path]
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let expected = String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
            XCTAssertEqual(SHA256.hexHash(try Data(contentsOf: url)), expected, path)
        }
    }

    // MARK: - Manifest

    func testManifestJSONFormIsDeterministicAndRoundTrips() throws {
        let manifest = LexiconManifest(entries: [
            .init(nsid: "b.c.d", path: "b/c/d.json", sha256: hex("2")),
            .init(nsid: "a.b.c", path: "a/b/c.json", sha256: hex("1")),
        ])
        let expected = """
            {
              "version": 1,
              "lexicons": [
                {"nsid": "a.b.c", "path": "a/b/c.json", "sha256": "\(hex("1"))"},
                {"nsid": "b.c.d", "path": "b/c/d.json", "sha256": "\(hex("2"))"}
              ]
            }

            """
        XCTAssertEqual(manifest.jsonString(), expected)
        try manifest.jsonData().write(to: manifestURL)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL), manifest)
        XCTAssertEqual(LexiconManifest(entries: []).jsonString(), "{\n  \"version\": 1,\n  \"lexicons\": []\n}\n")
    }

    func testManifestReadingErrorsNameTheFileAndTheProblem() throws {
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            ("{\"version\": 2, \"lexicons\": []}", "unsupported version 2"),
            ("{\"version\": 1}", "\"lexicons\""),
            ("{\"version\": 1, \"lexicons\": [{\"nsid\": \"a.b.c\", \"path\": \"a/b/c.json\"}]}", "\"sha256\""),
            (
                "{\"version\": 1, \"lexicons\": [{\"nsid\": \"a.b.c\", \"path\": \"../c.json\", "
                    + "\"sha256\": \"\(hex(""))\"}]}", "../c.json"
            ),
            (
                "{\"version\": 1, \"lexicons\": [{\"nsid\": \"a.b.c\", \"path\": \"a/b/c.json\", \"sha256\": \"ABC\"}]}",
                "64 lowercase"
            ),
        ]
        for (text, fragment) in cases {
            try Data(text.utf8).write(to: manifestURL)
            XCTAssertThrowsError(try LexiconManifest(contentsOf: manifestURL), text) { error in
                let description = "\(error)"
                XCTAssertTrue(description.hasPrefix(manifestURL.path + ": error: "), description)
                XCTAssertTrue(description.contains(fragment), "\(description) should mention \(fragment)")
            }
        }
        let missing = scratch.appendingPathComponent("nowhere.json")
        XCTAssertThrowsError(try LexiconManifest(contentsOf: missing)) { error in
            XCTAssertTrue("\(error)".contains(missing.path), "\(error)")
        }
    }

    // MARK: - Install

    func testInstallIntoEmptyFolderWritesFilesAndManifest() throws {
        try makeSource()
        let report = try install()
        XCTAssertEqual(report.installed, 3)
        XCTAssertEqual(report.unchanged, 0)
        XCTAssertEqual(report.removed, 0)
        XCTAssertTrue(report.manifestWritten)
        XCTAssertFalse(report.summary.contains("\n"))
        for path in ["app/bsky/feed/post.json", "app/bsky/actor/defs.json", "com/atproto/repo/getRecord.json"] {
            // Installed reduced to their facts, in canonical form.
            XCTAssertEqual(
                try Data(contentsOf: destination.appendingPathComponent(path)),
                try LexiconFacts.reduce(Data(contentsOf: source.appendingPathComponent(path)), file: path), path)
        }
        XCTAssertFalse(installed("LICENSE-MIT.txt"))
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(manifest, report.manifest)
        XCTAssertEqual(
            manifest.entries.map(\.path),
            ["app/bsky/actor/defs.json", "app/bsky/feed/post.json", "com/atproto/repo/getRecord.json"])
        XCTAssertEqual(
            manifest.entries.map(\.nsid),
            ["app.bsky.actor.defs", "app.bsky.feed.post", "com.atproto.repo.getRecord"])
        XCTAssertEqual(manifest.entry(forPath: "app/bsky/feed/post.json")?.sha256, hex(lexicon("app.bsky.feed.post")))
        XCTAssertEqual(LexiconInstaller.verify(folder: destination, manifest: manifestURL), [])
    }

    func testSecondInstallRewritesNothing() throws {
        try makeSource()
        _ = try install()
        let files = try LexiconInstaller.jsonPaths(in: destination).map { destination.appendingPathComponent($0) }
        for url in files + [manifestURL] {
            try backdate(url)
        }
        let before = try (files + [manifestURL]).map { try modificationDate($0) }
        for update in [false, true] {
            let report = try install(update: update)
            XCTAssertEqual(report.installed, 0)
            XCTAssertEqual(report.unchanged, 3)
            XCTAssertEqual(report.removed, 0)
            XCTAssertFalse(report.manifestWritten)
            XCTAssertEqual(try (files + [manifestURL]).map { try modificationDate($0) }, before)
        }
    }

    func testAlteredSourceIsRefusedUnlessTheManifestIsUpdated() throws {
        try makeSource()
        _ = try install()
        let pinned = try Data(contentsOf: manifestURL)
        try write(lexicon("app.bsky.feed.post", "changed"), to: "app/bsky/feed/post.json", in: source)
        try write(lexicon("app.bsky.feed.like"), to: "app/bsky/feed/like.json", in: source)
        try FileManager.default.removeItem(at: source.appendingPathComponent("app/bsky/actor/defs.json"))

        XCTAssertThrowsError(try install()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(manifestURL.path + ": error: "), text)
            XCTAssertTrue(text.contains("app/bsky/feed/post.json (app.bsky.feed.post): changed"), text)
            XCTAssertTrue(text.contains("app/bsky/feed/like.json (app.bsky.feed.like): new file"), text)
            XCTAssertTrue(text.contains("app/bsky/actor/defs.json (app.bsky.actor.defs): missing"), text)
            XCTAssertTrue(text.contains("rerun with --update"), text)
        }
        // Nothing was copied, removed or rewritten.
        XCTAssertEqual(
            try Data(contentsOf: destination.appendingPathComponent("app/bsky/feed/post.json")),
            try LexiconFacts.reduce(Data(lexicon("app.bsky.feed.post").utf8), file: "post.json"))
        XCTAssertTrue(installed("app/bsky/actor/defs.json"))
        XCTAssertEqual(try Data(contentsOf: manifestURL), pinned)

        let report = try install(update: true)
        // The post changed in its description only: its facts, the installed file, are the same.
        XCTAssertEqual(report.installed, 1)
        XCTAssertEqual(report.unchanged, 2)
        XCTAssertEqual(report.removed, 1)
        XCTAssertTrue(report.manifestWritten)
        XCTAssertFalse(
            installed("app/bsky/actor"),
            "the emptied folder of a removed file is removed too")
        XCTAssertEqual(
            try LexiconManifest(contentsOf: manifestURL).entries.map(\.nsid),
            ["app.bsky.feed.like", "app.bsky.feed.post", "com.atproto.repo.getRecord"])
        XCTAssertEqual(LexiconInstaller.verify(folder: destination, manifest: manifestURL), [])
    }

    func testStaleDestinationFilesAreRemoved() throws {
        try makeSource()
        try write(lexicon("old.thing.gone"), to: "old/gone.json", in: destination)
        try write("keep me", to: "notes.txt", in: destination)
        let report = try install()
        XCTAssertEqual(report.removed, 1)
        XCTAssertFalse(installed("old"))
        XCTAssertTrue(installed("notes.txt"))
    }

    func testSourceErrorsNameTheFile() throws {
        try makeSource()
        try write("{\"lexicon\": 1, \"defs\": {}}", to: "app/bsky/feed/noid.json", in: source)
        XCTAssertThrowsError(try install()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("app/bsky/feed/noid.json"), text)
            XCTAssertTrue(text.contains("\"id\""), text)
        }
        try FileManager.default.removeItem(at: source.appendingPathComponent("app/bsky/feed/noid.json"))
        try write(lexicon("app.bsky.feed.post"), to: "elsewhere/post.json", in: source)
        XCTAssertThrowsError(try install()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("elsewhere/post.json") && text.contains("app/bsky/feed/post.json"), text)
            XCTAssertTrue(text.contains("app.bsky.feed.post"), text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "nothing is installed on error")
        let nowhere = scratch.appendingPathComponent("nowhere")
        XCTAssertThrowsError(
            try LexiconInstaller.install(from: nowhere, to: destination, manifest: manifestURL, update: false)
        ) { error in
            XCTAssertTrue("\(error)".contains(nowhere.path), "\(error)")
        }
        XCTAssertThrowsError(
            try LexiconInstaller.install(from: scratch, to: destination, manifest: manifestURL, update: true),
            "a destination inside the source is refused")
    }

    // MARK: - Verify

    func testVerifyReportsMissingAndAlteredFilesAndLeavesTheProjectsOwnAlone() throws {
        try makeSource()
        _ = try install()
        try FileManager.default.removeItem(at: destination.appendingPathComponent("app/bsky/feed/post.json"))
        try write(lexicon("app.bsky.actor.defs", "edited"), to: "app/bsky/actor/defs.json", in: destination)
        try write(lexicon("app.bsky.feed.like"), to: "app/bsky/feed/like.json", in: destination)

        let fix = "swift run lexgen install --from ../shared/lexicons/atproto"
        let problems = LexiconInstaller.verify(folder: destination, manifest: manifestURL, fixCommand: fix)
        XCTAssertEqual(problems.map(\.path), ["app/bsky/actor/defs.json", "app/bsky/feed/post.json"])
        XCTAssertEqual(problems.map(\.nsid), ["app.bsky.actor.defs", "app.bsky.feed.post"])
        for problem in problems {
            XCTAssertTrue(problem.message.hasSuffix("; run: \(fix)"), problem.message)
            XCTAssertEqual(problem.file, destination.appendingPathComponent(problem.path))
        }
        guard problems.count == 2 else {
            return XCTFail("expected 2 problems, got \(problems)")
        }
        XCTAssertTrue(problems[0].message.hasPrefix("altered"), problems[0].message)
        XCTAssertEqual(
            problems[1].description,
            "lexicons/app/bsky/feed/post.json: error: missing (app.bsky.feed.post); run: \(fix)")
        // A file the manifest does not pin is one of the project's own lexicons, not a problem.
        XCTAssertEqual(
            LexiconInstaller.unpinnedFiles(folder: destination, manifest: manifestURL), ["app/bsky/feed/like.json"])
    }

    func testVerifyEmptyOrMissingFolderIsOneProblem() throws {
        try makeSource()
        _ = try install()
        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for folder in [empty, scratch.appendingPathComponent("absent")] {
            let problems = LexiconInstaller.verify(folder: folder, manifest: manifestURL, fixCommand: "make lexicons")
            XCTAssertEqual(problems.count, 1)
            XCTAssertEqual(
                problems.first?.description,
                "\(folder.lastPathComponent): error: no lexicons are installed (the manifest lists 3); "
                    + "run: make lexicons")
        }
        let problems = LexiconInstaller.verify(folder: destination, manifest: scratch.appendingPathComponent("x.json"))
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems.first?.description.contains("x.json") ?? false)
        XCTAssertTrue(problems.first?.message.hasSuffix(LexiconInstaller.defaultFixCommand) ?? false)
    }

    // MARK: - Corpus

    private func corpusFolder() throws -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = packageRoot.appendingPathComponent("../shared/lexicons/atproto").standardizedFileURL
        guard FileManager.default.fileExists(atPath: corpus.appendingPathComponent("app").path) else {
            throw XCTSkip("the atproto lexicon corpus is not at \(corpus.path) (expected ../shared/lexicons/atproto)")
        }
        return corpus
    }

    func testRealCorpusInstallsAndVerifies() throws {
        let corpus = try corpusFolder()
        let report = try LexiconInstaller.install(
            from: corpus, to: destination, manifest: manifestURL, update: false)
        XCTAssertEqual(report.installed, 402)
        XCTAssertTrue(report.manifestWritten)
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(manifest.entries.count, 402)
        XCTAssertEqual(Set(manifest.entries.map(\.nsid)).count, 402)
        XCTAssertNotNil(manifest.entry(forPath: "app/bsky/feed/post.json"))
        XCTAssertEqual(try LexiconInstaller.jsonPaths(in: destination).count, 402)
        XCTAssertFalse(installed("LICENSE-MIT.txt"))

        // What a build pays: read and hash every installed file, then a full verify.
        let clock = ContinuousClock()
        var bytes = 0
        let hashing = try clock.measure {
            for entry in manifest.entries {
                let data = try Data(contentsOf: destination.appendingPathComponent(entry.path))
                bytes += data.count
                XCTAssertEqual(SHA256.hexHash(data), entry.facts)
            }
        }
        var problems: [VerificationProblem] = []
        let verifying = clock.measure {
            problems = LexiconInstaller.verify(folder: destination, manifest: manifestURL)
        }
        XCTAssertEqual(problems, [])
        print("corpus: hashed \(manifest.entries.count) files (\(bytes) bytes) in \(hashing); verify took \(verifying)")

        let again = try LexiconInstaller.install(
            from: corpus, to: destination, manifest: manifestURL, update: false)
        XCTAssertEqual(again.unchanged, 402)
        XCTAssertEqual(again.installed + again.removed, 0)
        XCTAssertFalse(again.manifestWritten)
    }
}
