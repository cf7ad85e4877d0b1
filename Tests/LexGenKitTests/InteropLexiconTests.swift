import Foundation
import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// The official interop lexicon documents: valid ones load, invalid ones are rejected with a reason.
final class InteropLexiconTests: XCTestCase {
    private func cases(_ name: String) throws -> [(name: String, json: String)] {
        let url = try sharedFolder("interop/lexicon").appendingPathComponent(name)
        let data = try Data(contentsOf: url)
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            XCTFail("\(name) is not a list")
            return []
        }
        return try list.map { item in
            let lexicon = try JSONSerialization.data(withJSONObject: item["lexicon"] ?? [:], options: [.sortedKeys])
            return ((item["name"] as? String) ?? "?", String(decoding: lexicon, as: UTF8.self))
        }
    }

    func testValidDocumentsLoadWithoutErrors() throws {
        let valid = try cases("lexicon-valid.json")
        XCTAssertEqual(valid.count, 3)
        for (name, json) in valid {
            var log = DiagnosticLog()
            let document = LexiconLoader.load(path: name, bytes: Array(json.utf8), log: &log)
            XCTAssertNotNil(document, name)
            XCTAssertFalse(log.hasErrors, "\(name): \(log.all)")
        }
    }

    func testInvalidDocumentsAreRejectedWithAReason() throws {
        let invalid = try cases("lexicon-invalid.json")
        XCTAssertEqual(invalid.count, 7)
        let expectedReasons = [
            "invalid lexicon field": "\"lexicon\" must be the integer 1",
            "invalid id field": "\"id\" must be a string NSID",
            "invalid NSID": "\"id\" is not a valid NSID",
            "defined unknown": "type \"unknown\" is not allowed as a named def",
            "defined ref": "type \"ref\" is not allowed as a named def",
            "non-main primary": "type \"record\" is not allowed as a named def other than main",
            "record missing type object": "missing \"type\"",
        ]
        for (name, json) in invalid {
            var log = DiagnosticLog()
            _ = LexiconLoader.load(path: name, bytes: Array(json.utf8), log: &log)
            let messages = log.all.filter { $0.severity == .error }.map(\.message)
            guard let reason = expectedReasons[name] else {
                XCTFail("no expected reason for case \(name)")
                continue
            }
            XCTAssertTrue(messages.contains { $0.hasPrefix(reason) }, "\(name): \(messages)")
        }
    }
}
