import Foundation
import LexGenKit
import XCTest

/// Lexicons reduced to their facts: every description gone, every fact kept, one canonical form.
final class LexiconFactsTests: XCTestCase {
    private func reduced(_ text: String) throws -> String {
        String(decoding: try LexiconFacts.reduce(Data(text.utf8), file: "test.json"), as: UTF8.self)
    }

    func testDescriptionsAreRemovedAndNamesKept() throws {
        let text = """
            {"lexicon": 1, "id": "com.example.thing", "description": "The document's prose.",
             "defs": {
               "description": {"type": "token", "description": "a def named description"},
               "main": {"type": "procedure", "description": "Does a thing.",
                 "parameters": {"type": "params", "properties": {"limit": {"type": "integer", "default": 5,
                   "description": "How many."}}},
                 "input": {"encoding": "application/json", "description": "The input.",
                   "schema": {"type": "object", "required": ["description"], "properties": {
                     "description": {"type": "string", "maxLength": 300, "description": "A field named description."},
                     "kind": {"type": "string", "knownValues": ["a", "b"], "description": "Which."}}}},
                 "errors": [{"name": "TooMany", "description": "Too many things."}]}}}
            """
        let output = try reduced(text)
        XCTAssertFalse(output.contains("prose"), output)
        XCTAssertFalse(output.contains("Does a thing"), output)
        XCTAssertFalse(output.contains("How many"), output)
        XCTAssertFalse(output.contains("A field named"), output)
        XCTAssertFalse(output.contains("Too many things"), output)
        XCTAssertFalse(output.contains("a def named"), output)
        // Facts stay: names (a def and a property called "description"), constraints, known values, errors.
        for fact in [
            #""description": {"#, #""maxLength": 300"#, #""knownValues": ["a", "b"]"#, #""name": "TooMany""#,
            #""default": 5"#, #""encoding": "application/json""#, #""required": ["description"]"#,
        ] {
            XCTAssertTrue(output.contains(fact), "\(fact) missing from:\n\(output)")
        }
        XCTAssertEqual(output.components(separatedBy: #""description": {"#).count - 1, 2, output)
        XCTAssertTrue(output.hasSuffix("}\n"))
    }

    /// A record's form (keys in any order, `$type`, no whitespace) reduces to the same bytes as the file.
    func testTheRecordFormAndTheFileReduceToTheSameBytes() throws {
        let file = """
            {
              "lexicon": 1,
              "id": "com.example.status",
              "defs": {"main": {"type": "record", "key": "tid", "description": "A status.",
                "record": {"type": "object", "required": ["status", "createdAt"],
                  "properties": {"status": {"type": "string", "maxGraphemes": 1}, "createdAt": {"type": "string", "format": "datetime"}}}}}
            }
            """
        let record = """
            {"$type":"com.atproto.lexicon.schema","defs":{"main":{"key":"tid","record":{"properties":{"createdAt":{"format":"datetime","type":"string"},"status":{"maxGraphemes":1,"type":"string"}},"required":["status","createdAt"],"type":"object"},"type":"record"}},"id":"com.example.status","lexicon":1}
            """
        XCTAssertEqual(try reduced(file), try reduced(record))
        XCTAssertTrue(LexiconFacts.isReduced(Data(try reduced(file).utf8)))
        XCTAssertFalse(LexiconFacts.isReduced(Data(file.utf8)))
        // The order of `required` is a fact (it orders generated arguments): kept as written.
        XCTAssertTrue(try reduced(file).contains(#""required": ["status", "createdAt"]"#))
    }

    func testWhatIsNotALexiconObjectIsAnError() {
        for text in ["[1, 2]", "{\"lexicon\": 1,", ""] {
            XCTAssertThrowsError(try LexiconFacts.reduce(Data(text.utf8), file: "bad.json")) { error in
                XCTAssertTrue("\(error)".hasPrefix("bad.json: error: not a lexicon"), "\(error)")
            }
        }
    }

    /// The committed standard lexicons are facts only: no description anywhere (as an annotation), each
    /// file in canonical form, and, when the upstream lexicons are beside the package, each the
    /// reduced form of its upstream file, pinned by the manifest.
    func testTheCommittedLexiconsAreTheirUpstreamFactsAndHoldNoDescription() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("lexicons")
        let manifest = try LexiconManifest(contentsOf: root.appendingPathComponent("lexicons.manifest.json"))
        XCTAssertEqual(manifest.entries.count, 403)
        let upstream = root.appendingPathComponent("../shared/lexicons/atproto").standardizedFileURL
        // Jetstream's lexicon comes from its own repository, kept in a folder of its own.
        let jetstream = root.appendingPathComponent("../shared/lexicons/jetstream").standardizedFileURL
        let hasUpstream = FileManager.default.fileExists(atPath: upstream.path)
        for entry in manifest.entries {
            let data = try Data(contentsOf: folder.appendingPathComponent(entry.path))
            XCTAssertTrue(entry.matchesInstalled(data), "\(entry.path) does not match its pin")
            XCTAssertNotNil(entry.facts, entry.path)
            XCTAssertTrue(LexiconFacts.isReduced(data), "\(entry.path) is not in canonical reduced form")
            let json = try JSONSerialization.jsonObject(with: data)
            XCTAssertEqual(Self.descriptions(in: json, isNameMap: false), [], entry.path)
            if hasUpstream {
                let source = entry.nsid.hasPrefix("network.bsky.jetstream.") ? jetstream : upstream
                let original = try Data(contentsOf: source.appendingPathComponent(entry.path))
                XCTAssertTrue(entry.matches(original), "\(entry.path): the pin is not the upstream file")
                XCTAssertEqual(try LexiconFacts.reduce(original, file: entry.path), data, entry.path)
            }
        }
        if !hasUpstream { print("note: ../shared/lexicons/atproto is absent; the upstream comparison was skipped") }
    }

    /// No sentence of the upstream lexicons is in the committed SDK: no generated doc comment line is
    /// (a line of) an upstream description. Skipped without the upstream lexicons beside the package.
    func testTheCommittedSDKHoldsNoUpstreamSentence() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let upstream = root.appendingPathComponent("../shared/lexicons/atproto").standardizedFileURL
        guard FileManager.default.fileExists(atPath: upstream.path) else {
            throw XCTSkip("../shared/lexicons/atproto is absent: nothing to compare the SDK with")
        }
        var sentences: Set<String> = []
        for path in try LexiconInstaller.jsonPaths(in: upstream) {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: upstream.appendingPathComponent(path)))
            Self.collectDescriptions(json, isNameMap: false, into: &sentences)
        }
        XCTAssertGreaterThan(sentences.count, 1000, "the upstream lexicons have their descriptions")
        var checked = 0
        for module in [
            "ComAtprotoLexicons", "AppBskyLexicons", "ChatBskyLexicons", "ToolsOzoneLexicons", "OtherAtprotoLexicons",
        ] {
            let folder = root.appendingPathComponent("Sources/\(module)/Generated")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift")
            {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasPrefix("///") else { continue }
                    checked += 1
                    let comment = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    XCTAssertFalse(sentences.contains(comment), "\(module)/\(name) carries upstream prose: \(comment)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }

    /// Every line (trimmed, at least three words) of every `description` annotation.
    static func collectDescriptions(_ value: Any, isNameMap: Bool, into sentences: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (key, child) in object {
                if !isNameMap, key == "description", let text = child as? String {
                    for line in text.split(separator: "\n") {
                        let trimmed = line.trimmingCharacters(in: .whitespaces)
                        if trimmed.split(separator: " ").count >= 3 { sentences.insert(trimmed) }
                    }
                }
                collectDescriptions(child, isNameMap: key == "properties" || key == "defs", into: &sentences)
            }
        } else if let array = value as? [Any] {
            for item in array { collectDescriptions(item, isNameMap: false, into: &sentences) }
        }
    }

    /// Paths of `description` annotations (string values not inside a `properties` or `defs` map).
    static func descriptions(in value: Any, isNameMap: Bool, path: String = "") -> [String] {
        if let object = value as? [String: Any] {
            var found: [String] = []
            for (key, child) in object {
                if !isNameMap, key == "description", child is String { found.append(path + "/description") }
                found += descriptions(
                    in: child, isNameMap: key == "properties" || key == "defs", path: path + "/" + key)
            }
            return found
        }
        if let array = value as? [Any] {
            return array.enumerated().flatMap { descriptions(in: $1, isNameMap: false, path: path + "/\($0)") }
        }
        return []
    }
}
