import AtprotoLexiconResolution
import Foundation
import LexGenInstall
import LexGenKit
import LexGenSchema
import XCTest
import XRPCRuntime

/// One lexicon generates the same Swift whether it was installed from a folder (the author's file, in
/// the author's key order) or over atproto (a record, which keeps no key order, written out by
/// `ResolvedLexicon.fileData`): same initializers, same parameter order, same embedded schema.
final class InstallSourceOrderTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The file lexgen would install over atproto for `data`: the lexicon as a record's value (a map
    /// without order), rendered as the atproto install source renders it.
    private func overAtproto(_ data: [UInt8]) throws -> [UInt8] {
        let document = try JSONValue.parse(Data(data))
        guard let id = document.objectValue?["id"]?.stringValue else {
            throw XCTSkip("not a lexicon")
        }
        let lexicon = ResolvedLexicon(
            nsid: NSID(rawValue: id), uri: ATURI(rawValue: "at://did:plc:test/com.atproto.lexicon.schema/\(id)"),
            cid: CID(sha256Of: Data(data)), document: document, provedAtRevision: nil)
        return [UInt8](lexicon.fileData)
    }

    private func generated(_ sources: [LexiconSource]) -> [String: String] {
        let result = LexiconGenerator.generate(sources)
        XCTAssertFalse(result.diagnostics.hasErrors, result.diagnostics.all.map(\.description).joined(separator: "\n"))
        return Dictionary(uniqueKeysWithValues: result.files.map { ($0.name, $0.contents) })
    }

    private func assertSameSwift(from folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let fromFolder = try LexiconFileSystem.sources(in: folder.path)
        XCTAssertFalse(fromFolder.isEmpty, file: file, line: line)
        let fromRecords = try fromFolder.map {
            LexiconSource(displayPath: $0.displayPath, relativePath: $0.relativePath, bytes: try overAtproto($0.bytes))
        }
        XCTAssertTrue(
            zip(fromFolder, fromRecords).contains { $0.bytes != $1.bytes }, "the record form reorders keys",
            file: file, line: line)
        let (expected, actual) = (generated(fromFolder), generated(fromRecords))
        XCTAssertEqual(expected.keys.sorted(), actual.keys.sorted(), file: file, line: line)
        for (name, contents) in expected where actual[name] != contents {
            XCTFail("\(name) differs between the folder and the atproto install", file: file, line: line)
        }
    }

    func testTheGoldenLexiconsGenerateTheSameSwiftFromAFileOrARecord() throws {
        try assertSameSwift(from: Self.root.appendingPathComponent("Tests/LexGenKitTests/Golden/lexicons"))
    }

    /// The SDK's namespaces, whose authors list properties out of canonical order (`app.bsky.feed.post`:
    /// `text` first, `createdAt` last, optional ones between): every file the same (about 5 s in debug).
    func testStandardLexiconsGenerateTheSameSwiftFromAFileOrARecord() async throws {
        let upstream = Self.root.appendingPathComponent("../shared/lexicons/atproto").standardizedFileURL
        guard FileManager.default.fileExists(atPath: upstream.path) else {
            throw XCTSkip("\(upstream.path) is absent (the upstream lexicons of ../shared)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await LexiconInstaller.install(
            ["app.bsky.*", "com.atproto.*", "chat.bsky.*", "tools.ozone.*"],
            from: try FolderInstallSource(folder: upstream), to: folder.appendingPathComponent("lexicons"),
            manifest: folder.appendingPathComponent("lexicons.manifest.json"), update: false)
        try assertSameSwift(from: folder.appendingPathComponent("lexicons"))
    }
}
