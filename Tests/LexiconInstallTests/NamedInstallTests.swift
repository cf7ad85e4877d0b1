import Foundation
import LexGenInstall
import LexGenKit
import LexGenSchema
import XCTest

/// `LexiconInstaller.install(_:from:...)`: named lexicons and what they refer to, pinned, from any source.
final class NamedInstallTests: XCTestCase {
    // @unchecked Sendable: every `var` is read and written under `lock`.
    /// A source held in memory that counts what it is asked for.
    final class MemorySource: LexiconInstallSource, @unchecked Sendable {
        private let lock = NSLock()
        private var documents: [String: (data: Data, cid: String)] = [:]
        private var askedNSIDs: [String] = []
        let label = "memory"
        /// The NSIDs asked for, in order.
        var asked: [String] { lock.withLock { askedNSIDs } }

        func publish(_ nsid: String, refs: [String] = [], description: String = "v1") {
            var defs: [String: Any] = ["main": ["type": "object", "description": description]]
            for (index, ref) in refs.enumerated() {
                defs["ref\(index)"] = ["type": "ref", "ref": ref]
            }
            let document: [String: Any] = ["lexicon": 1, "id": nsid, "defs": defs]
            let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
            lock.withLock { documents[nsid] = (data, "cid-\(nsid)-\(description)") }
        }

        func lexicon(_ nsid: String) async throws -> FetchedLexicon? {
            lock.withLock {
                askedNSIDs.append(nsid)
                return documents[nsid].map {
                    FetchedLexicon(
                        nsid: nsid, path: FetchedLexicon.path(for: nsid), data: $0.data,
                        record: .init(uri: "at://did:plc:test/com.atproto.lexicon.schema/\(nsid)", cid: $0.cid))
                }
            }
        }

        func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? {
            try await lexicon(entry.nsid)
        }

        func nsids(matching pattern: String) async throws -> [String] {
            lock.withLock { documents.keys.filter { NSIDPattern.matches(pattern, $0) }.sorted() }
        }
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("named-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var lexicons: URL { folder.appendingPathComponent("lexicons") }
    private var manifestURL: URL { folder.appendingPathComponent("lexicons.manifest.json") }

    private func install(_ names: [String], _ source: MemorySource, update: Bool = false) async throws
        -> NamedInstallReport
    {
        try await LexiconInstaller.install(names, from: source, to: lexicons, manifest: manifestURL, update: update)
    }

    func testTheClosureOfReferencesIsInstalledAndPinned() async throws {
        let source = MemorySource()
        source.publish("com.example.post", refs: ["com.example.defs#label", "com.other.embed"])
        source.publish("com.example.defs", refs: ["#local"])
        source.publish("com.other.embed", refs: ["com.example.defs"])
        source.publish("com.example.unused")
        let report = try await install(["com.example.post"], source)
        XCTAssertEqual(Set(report.nsids), ["com.example.post", "com.example.defs", "com.other.embed"])
        XCTAssertEqual(report.written, 3)
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(
            manifest.entries.map(\.path), ["com/example/defs.json", "com/example/post.json", "com/other/embed.json"])
        XCTAssertEqual(manifest.entry(forNSID: "com.other.embed")?.record?.cid, "cid-com.other.embed-v1")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: lexicons.appendingPathComponent("com/other/embed.json").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: lexicons.appendingPathComponent("com/example/unused.json").path))
        // Each lexicon is asked for once, however many refer to it.
        XCTAssertEqual(source.asked.filter { $0 == "com.example.defs" }.count, 1)
    }

    func testPinnedLexiconsOnDiskAreNotFetchedAgainAndOthersStay() async throws {
        let source = MemorySource()
        source.publish("com.example.a")
        source.publish("com.example.b")
        _ = try await install(["com.example.a"], source)
        _ = try await install(["com.example.b"], source)
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(manifest.entries.map(\.nsid), ["com.example.a", "com.example.b"], "installs merge")

        source.publish("com.example.a", description: "v2")
        let askedBefore = source.asked.count
        let report = try await install(["com.example.a", "com.example.b"], source)
        XCTAssertEqual(source.asked.count, askedBefore, "files matching their pins are not fetched")
        XCTAssertEqual(report.fetched, 0)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL), manifest, "a newer version does not move a pin")
    }

    func testAFetchThatNoLongerMatchesItsPinInstallsNothing() async throws {
        let source = MemorySource()
        source.publish("com.example.a", refs: ["com.example.b"])
        source.publish("com.example.b")
        _ = try await install(["com.example.a"], source)
        let fileB = lexicons.appendingPathComponent("com/example/b.json")
        let manifestBefore = try Data(contentsOf: manifestURL)
        try FileManager.default.removeItem(at: fileB)
        source.publish("com.example.b", description: "v2")

        do {
            _ = try await install(["com.example.a"], source)
            XCTFail("a changed lexicon was installed over its pin")
        } catch let error as InstallError {
            XCTAssertTrue(error.message.contains("com.example.b changed since it was pinned"), error.message)
            XCTAssertTrue(error.message.contains("cid-com.example.b-v2"), error.message)
            XCTAssertTrue(error.message.contains("--update"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileB.path), "nothing was written")
        XCTAssertEqual(try Data(contentsOf: manifestURL), manifestBefore)

        let report = try await install(["com.example.a"], source, update: true)
        XCTAssertEqual(report.moved.map(\.nsid), ["com.example.b"])
        XCTAssertEqual(report.moved.first?.to.record?.cid, "cid-com.example.b-v2")
        XCTAssertEqual(report.moved.first?.description, "com.example.b: cid-com.example.b-v1 -> cid-com.example.b-v2")
        XCTAssertEqual(
            try LexiconManifest(contentsOf: manifestURL).entry(forNSID: "com.example.b")?.record?.cid,
            "cid-com.example.b-v2")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fileB.path))
    }

    func testAMissingReferenceNamesTheChainAndWritesNothing() async throws {
        let source = MemorySource()
        source.publish("com.example.a", refs: ["com.example.b"])
        source.publish("com.example.b", refs: ["com.missing.thing#def"])
        do {
            _ = try await install(["com.example.a"], source)
            XCTFail("an incomplete closure was installed")
        } catch let error as InstallError {
            XCTAssertTrue(error.message.contains("com.missing.thing was not found in memory"), error.message)
            XCTAssertTrue(error.message.contains("referred to by com.example.b <- com.example.a"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifestURL.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: lexicons.path))
    }

    func testPatternsAndBadNames() async throws {
        let source = MemorySource()
        source.publish("com.example.feed.a")
        source.publish("com.example.feed.b")
        source.publish("com.example.other")
        let report = try await install(["com.example.feed.*"], source)
        XCTAssertEqual(report.nsids.sorted(), ["com.example.feed.a", "com.example.feed.b"])
        do {
            _ = try await install(["com.nothing.*"], source)
            XCTFail("a pattern matching nothing passed")
        } catch let error as InstallError {
            XCTAssertTrue(error.message.contains("no lexicon in memory matches com.nothing.*"), error.message)
        }
        do {
            _ = try await install(["not an nsid"], source)
            XCTFail("a bad name passed")
        } catch let error as InstallError {
            XCTAssertTrue(error.message.contains("not an NSID pattern"), error.message)
        }
    }

    func testAWrongIDIsRefused() async throws {
        struct Liar: LexiconInstallSource {
            let label = "liar"
            func lexicon(_ nsid: String) async throws -> FetchedLexicon? {
                FetchedLexicon(
                    nsid: nsid, path: "x.json", data: Data(#"{"lexicon":1,"id":"com.evil.other","defs":{}}"#.utf8))
            }
            func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? { nil }
            func nsids(matching pattern: String) async throws -> [String] { [] }
        }
        do {
            _ = try await LexiconInstaller.install(
                ["com.example.a"], from: Liar(), to: lexicons, manifest: manifestURL, update: false)
            XCTFail("a lexicon with another id was installed")
        } catch let error as InstallError {
            XCTAssertTrue(
                error.message.contains("asked for com.example.a, the lexicon's id is com.evil.other"), error.message)
        }
    }

    func testReferencesAreReadFromRefsAndUnionsOnly() {
        let document = """
            {"lexicon":1,"id":"com.example.a","defs":{"main":{"type":"object","properties":{
              "ref":{"type":"string","description":"a property named ref"},
              "one":{"type":"ref","ref":"com.example.b#view"},
              "many":{"type":"union","refs":["com.example.c","#local","com.example.a#self"]},
              "list":{"type":"array","items":{"type":"ref","ref":"com.example.d"}}}}}}
            """
        XCTAssertEqual(
            LexiconReferences.nsids(inLexicon: Data(document.utf8)),
            ["com.example.b", "com.example.c", "com.example.d"])
        XCTAssertEqual(LexiconReferences.nsids(inLexicon: Data("[1]".utf8)), [])
    }

    func testManifestPinsRoundTripAndHalfAPinIsAnError() throws {
        let entry = LexiconManifest.Entry(
            nsid: "com.example.a", path: "com/example/a.json", sha256: String(repeating: "a", count: 64),
            record: .init(uri: "at://did:plc:x/com.atproto.lexicon.schema/com.example.a", cid: "bafyfake"))
        let manifest = LexiconManifest(entries: [entry], source: "atproto")
        XCTAssertEqual(try LexiconManifest(jsonData: manifest.jsonData(), file: "m.json"), manifest)
        let half = manifest.jsonString().replacingOccurrences(of: #", "cid": "bafyfake""#, with: "")
        XCTAssertThrowsError(try LexiconManifest(jsonData: Data(half.utf8), file: "m.json")) { error in
            XCTAssertTrue("\(error)".contains("lexicons[0] needs both"), "\(error)")
        }
    }

    func testTheContentHashIgnoresFormOnly() {
        let hash = { (text: String) in LexiconContentHash.of(Data(text.utf8)) }
        let file =
            "{\n  \"lexicon\": 1,\n  \"id\": \"com.example.a\",\n  \"defs\": {\"b\": true, \"a\": [1, \"x\"]}\n}\n"
        let record =
            #"{"$type":"com.atproto.lexicon.schema","defs":{"a":[1,"x"],"b":true},"id":"com.example.a","lexicon":1}"#
        XCTAssertNotNil(hash(file))
        XCTAssertEqual(hash(file), hash(record), "key order, spacing and the record's $type do not count")
        XCTAssertNotEqual(hash(file), hash(record.replacingOccurrences(of: "true", with: "false")))
        XCTAssertNotEqual(hash(#"{"a":true}"#), hash(#"{"a":1}"#), "a boolean is not a number")
        XCTAssertNotEqual(hash(#"{"a":{"$type":"x"}}"#), hash(#"{"a":{}}"#), "only the top-level $type is left out")
        XCTAssertNil(hash("not json"))
    }

    /// The supported way to the whole SDK in an app's own target, by pattern, from a folder of upstream
    /// lexicons: every NSID under the prefixes and what they refer to.
    func testPatternsFromAFolderOfUpstreamLexicons() async throws {
        let upstream = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/lexicons/atproto")
        guard FileManager.default.fileExists(atPath: upstream.path) else {
            throw XCTSkip("\(upstream.path) is absent (the upstream lexicons of ../shared)")
        }
        let source = try FolderInstallSource(folder: upstream)
        let report = try await LexiconInstaller.install(
            ["com.atproto.repo.*", "app.bsky.feed.post"], from: source, to: lexicons, manifest: manifestURL,
            update: false)
        let nsids = Set(report.nsids)
        XCTAssertTrue(nsids.contains("com.atproto.repo.applyWrites") && nsids.contains("com.atproto.repo.uploadBlob"))
        XCTAssertTrue(nsids.contains("app.bsky.richtext.facet"), "app.bsky.feed.post refers to it")
        XCTAssertFalse(nsids.contains { $0.hasPrefix("chat.") || $0.hasPrefix("tools.") })
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(manifest.entries.count, nsids.count)
        XCTAssertEqual(manifest.entry(forNSID: "app.bsky.feed.post")?.path, "app/bsky/feed/post.json", "upstream paths")
        XCTAssertTrue(manifest.entries.allSatisfy { $0.record == nil && $0.content != nil })
    }
}
