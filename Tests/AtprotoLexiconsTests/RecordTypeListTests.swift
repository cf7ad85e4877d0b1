import AtprotoLexicons
import Foundation
import XCTest

/// `LexiconRecordTypes.bluesky` is the record types lexgen lists for the app.bsky and chat.bsky
/// modules: every lexicon of those namespaces in the committed `lexicons/` whose `main` def is a
/// record, and nothing else.
final class RecordTypeListTests: XCTestCase {
    /// The NSIDs of the committed lexicons under `lexicons/<namespace path>` whose main def is a record.
    private func recordNSIDs(under path: String) throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../lexicons")
        let folder = root.appendingPathComponent(path)
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw XCTSkip("no committed lexicons at \(folder.path)")
        }
        var found = Set<String>()
        for case let file as URL in files where file.pathExtension == "json" {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            let main = (object?["defs"] as? [String: Any])?["main"] as? [String: Any]
            if main?["type"] as? String == "record", let id = object?["id"] as? String { found.insert(id) }
        }
        return found
    }

    func testTheBlueskyListHoldsEveryRecordLexiconOfItsNamespaces() throws {
        let expected = try recordNSIDs(under: "app/bsky").union(recordNSIDs(under: "chat/bsky"))
        XCTAssertGreaterThan(expected.count, 15)
        XCTAssertEqual(Set(LexiconRecordTypes.bluesky.collections.map(\.rawValue)), expected)
    }

    func testEachModuleListsItsOwnRecordsInNSIDOrder() throws {
        let appBsky = AppBskyLexiconsSchemas.recordTypes.map { $0.collection.rawValue }
        XCTAssertEqual(appBsky, appBsky.sorted())
        XCTAssertEqual(Set(appBsky), try recordNSIDs(under: "app/bsky"))
        XCTAssertEqual(
            Set(ComAtprotoLexiconsSchemas.recordTypes.map { $0.collection.rawValue }),
            try recordNSIDs(under: "com/atproto"))
    }
}
