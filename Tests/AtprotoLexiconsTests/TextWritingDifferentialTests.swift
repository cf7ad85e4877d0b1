import AtprotoLexicons
import Foundation
import SeededRandom
import XCTest
@_spi(Generated) import XRPCCore

/// Values written as text straight from the generated types (`LexiconEncoder`, `jsonData()`,
/// `xrpcBody()`) give the bytes of their JSON form serialized (`lexiconJSON.serialized()`): keys
/// sorted the same way, unknown fields written back, numbers and strings written alike. Over the
/// upstream corpus's fixtures (as pages, posts, records and unknown values) and seeded random
/// timeline pages (unknown fields, nulls, unions of every kind).
final class TextWritingDifferentialTests: XCTestCase {
    /// Writes `value` both ways and compares: byte for byte with sorted keys, as equal JSON without.
    func assertWritesAgree<T: LexiconValue>(
        _ value: T, _ label: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let tree = value.lexiconJSON.serialized()
        let text = LexiconEncoder().encode(value)
        guard text == tree else {
            XCTFail(
                "\(label()): written as text\n  \(String(decoding: text, as: UTF8.self))\n"
                    + "through the tree\n  \(String(decoding: tree, as: UTF8.self))",
                file: file, line: line)
            return
        }
        XCTAssertEqual(value.jsonData(), tree, "\(label()): jsonData()", file: file, line: line)
        XCTAssertEqual(try value.xrpcBody()?.data, tree, "\(label()): xrpcBody()", file: file, line: line)
        let unsorted = LexiconEncoder(sortsKeys: false).encode(value)
        XCTAssertEqual(
            try JSONValue.parse(unsorted), value.lexiconJSON, "\(label()): unsorted", file: file, line: line)
        // As DAG-CBOR: the bytes of its JSON form read as the data model, or an error both ways.
        let cborThroughTree = try? DAGCBOR.encode(json: value.lexiconJSON)
        XCTAssertEqual(try? value.lexiconDAGCBOR(), cborThroughTree, "\(label()): DAG-CBOR", file: file, line: line)
    }

    /// Decodes `bytes` as `T` (keeping unknown fields) and compares its two writings; whether it decoded.
    @discardableResult
    func assertWritesAgree<T: LexiconValue>(
        _ type: T.Type, _ json: JSONValue, _ label: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        guard let value = try? T(lexiconJSON: json) else { return false }
        assertWritesAgree(value, label(), file: file, line: line)
        return true
    }

    func testTheUpstreamFixturesWriteTheSameBothWays() throws {
        var documents: [(String, JSONValue)] = []
        for file in ["data-model-fixtures.json", "data-model-valid.json"] {
            guard case .array(let items) = try TokenDecodingDifferentialTests.interopJSON("data-model/\(file)")
            else { continue }
            for (index, item) in items.enumerated() {
                if let json = item.objectValue?["json"] { documents.append(("\(file)[\(index)]", json)) }
            }
        }
        for file in ["record-data-valid.json", "record-data-invalid.json"] {
            guard case .array(let items) = try TokenDecodingDifferentialTests.interopJSON("lexicon/\(file)")
            else { continue }
            for (index, item) in items.enumerated() {
                if let data = item.objectValue?["data"] { documents.append(("\(file)[\(index)]", data)) }
            }
        }
        XCTAssertGreaterThan(documents.count, 50)
        var written = 0
        for (name, json) in documents {
            let fields = json.objectValue ?? ["value": json]
            var page = fields
            page["feed"] = .array([])
            var post = TokenDecodingDifferentialTests.minimalPost
            post["record"] = json
            var member = fields
            member["$type"] = .string("com.example.notListed")
            post["embed"] = .object(member)
            var item: [String: JSONValue] = ["post": .object(post)]
            item.merge(fields) { known, _ in known }
            if assertWritesAgree(AppBskyFeedGetTimeline.Output.self, .object(page), "\(name) as a page") {
                written += 1
            }
            assertWritesAgree(
                AppBskyFeedGetTimeline.Output.self, .object(["feed": .array([.object(item)])]), "\(name) in an item")
            assertWritesAgree(LexiconUnknownValue.self, json, "\(name) as an unknown value")
            assertWritesAgree(AppBskyFeedPost.self, json, "\(name) as a post")
            var record = fields
            record["$type"] = .string("app.bsky.feed.post")
            record["text"] = .string("hi")
            record["createdAt"] = .string("2024-01-01T00:00:00Z")
            assertWritesAgree(AppBskyFeedPost.self, .object(record), "\(name) as a post's unknown fields")
        }
        XCTAssertGreaterThan(written, documents.count / 2, "most fixtures should decode inside a page")
    }

    func testRandomPagesWriteTheSameBothWays() {
        var written = 0
        for seed in 0..<UInt64(300) {
            var random = RandomPage(seed: seed)
            guard let json = try? JSONValue.parse(Data(random.page())) else { continue }
            if assertWritesAgree(AppBskyFeedGetTimeline.Output.self, json, "random page, seed \(seed)") {
                written += 1
            }
        }
        XCTAssertGreaterThan(written, 100)
    }

    /// Built values: records among other records, defaults, nullable fields, keys needing escapes and
    /// out of order, an unknown field named like a known one, nested arrays.
    func testBuiltValuesWriteTheSameBothWays() throws {
        let post = AppBskyFeedPost(
            text: "tab\t \"quoted\" \u{1} ünï 🦋", createdAt: "2024-01-01T00:00:00Z", langs: ["en", "de"],
            tags: ["a", "b"],
            unknownFields: [
                "zzz": .number(2.5), "$type": .string("not.this"), "text": .string("shadowed"), "é": .integer(-4),
                "aaa": .object(["b": .null, "a": .array([.bool(true), .integer(1 << 60)])]), "": .string(""),
            ])
        assertWritesAgree(post, "a post with unknown fields")
        let skeleton = AppBskyFeedGetFeedSkeleton.Output(
            feed: (0..<20).map { index in
                AppBskyFeedDefs.SkeletonFeedPost(
                    post: ATURI(rawValue: "at://did:plc:a/app.bsky.feed.post/\(index)"),
                    feedContext: index % 3 == 0 ? "ctx \(index)" : nil,
                    reason: index % 4 == 1
                        ? .appBskyFeedDefsSkeletonReasonRepost(.init(repost: ATURI(rawValue: "at://r/\(index)")))
                        : nil)
            }, cursor: "c", reqId: "r")
        assertWritesAgree(skeleton, "a feed skeleton")
        assertWritesAgree(
            AppBskyFeedGetFeedSkeleton.Parameters(feed: "at://did:plc:a/app.bsky.feed.generator/f", limit: 30),
            "parameters")
        assertWritesAgree(AppBskyFeedGetFeedSkeleton.Output(feed: []), "an empty feed")
        assertWritesAgree([post, post], "an array of records")
    }
}
