import AtprotoLexicons
import Foundation
import SeededRandom
import XCTest
@_spi(Generated) import XRPCCore
import XRPCTesting

/// Typed values read straight from the text (`LexiconJSONTokens`, what `LexiconDecoder` does) and
/// read from a parsed tree (`T(lexiconJSON: JSONValue.parse(bytes))`) agree: the same values, written
/// back to the same bytes, the same invalid union members with the same reasons, and the same
/// documents rejected, with the same error through the public entry points. Over the upstream
/// corpus's data-model fixtures and over seeded random timeline pages (unknown fields, keys in any
/// order and escaped, nulls, unions of every kind, wrong shapes, broken text).
final class TokenDecodingDifferentialTests: XCTestCase {
    // MARK: The comparison

    /// What one path made of a document, compared across paths.
    struct Outcome: Equatable {
        var written: String?
        var invalidMembers: [LexiconInvalidUnionMember] = []
        var failed: Bool { written == nil }
    }

    static func outcome<T: LexiconValue>(_ result: Result<T, any Error>) -> Outcome {
        guard case .success(let value) = result else { return Outcome(written: nil) }
        var invalid: [LexiconInvalidUnionMember] = []
        collectInvalidMembers(value, into: &invalid)
        return Outcome(
            written: String(decoding: value.lexiconJSON.serialized(sortedKeys: true), as: UTF8.self),
            invalidMembers: invalid)
    }

    /// The invalid union members inside a value, in field order.
    static func collectInvalidMembers(_ value: Any, into members: inout [LexiconInvalidUnionMember]) {
        if let member = value as? LexiconInvalidUnionMember {
            members.append(member)
            return
        }
        if value is JSONValue || value is String { return }
        for child in Mirror(reflecting: value).children {
            collectInvalidMembers(child.value, into: &members)
        }
    }

    /// Decodes `bytes` as `T` through both paths, keeping and dropping unknown fields, and checks that
    /// they agree; returns whether the document decoded.
    @discardableResult
    func assertPathsAgree<T: LexiconValue>(
        _ type: T.Type, _ bytes: [UInt8], _ label: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        var decoded = false
        for keeping in [true, false] {
            let tree = Self.outcome(
                Result<T, any Error> {
                    let body = { try T(lexiconJSON: JSONValue.parse(bytes)) }
                    return keeping ? try body() : try LexiconDecoder.droppingUnknownFields(body)
                })
            let tokens = Self.outcome(
                Result<T, any Error> {
                    try bytes.withUnsafeBufferPointer {
                        try LexiconJSONTokens.decodeWithoutFallback(T.self, from: $0, keepsUnknownFields: keeping)
                    }
                })
            guard tree == tokens else {
                XCTFail(
                    "\(label()) (\(keeping ? "keeping" : "dropping") unknown fields): the tree path gave "
                        + "\(tree.written ?? "an error"), the token path \(tokens.written ?? "an error")"
                        + (tree.invalidMembers == tokens.invalidMembers
                            ? "" : "; invalid members \(tree.invalidMembers) against \(tokens.invalidMembers)")
                        + "\n  document: \(String(decoding: bytes, as: UTF8.self))",
                    file: file, line: line)
                return false
            }
            decoded = !tree.failed
        }
        // The public entry point reports the tree path's error.
        if !decoded {
            let treeError = Result { try T(lexiconJSON: JSONValue.parse(bytes)) }.errorDescription
            let publicError = Result { try LexiconDecoder().decode(T.self, from: Data(bytes)) }.errorDescription
            XCTAssertEqual(
                publicError, treeError, "\(label()): the public decoder reports another error", file: file, line: line)
        }
        return decoded
    }

    // MARK: The upstream corpus

    static func interopJSON(_ path: String) throws -> JSONValue {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../shared/interop/\(path)")
            .standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XCTSkip("interop fixtures not found at \(url.path); check out ../shared next to the package")
        }
        return try JSONValue.parse(data)
    }

    /// Every data-model fixture and every lexicon record-data case, as the value itself, as unknown
    /// fields of a page, as a post's record, as an unknown union member and as a listed member that
    /// does not decode, agrees.
    func testTheUpstreamFixturesDecodeTheSameThroughBothPaths() throws {
        var documents: [(String, JSONValue)] = []
        for file in ["data-model-fixtures.json", "data-model-valid.json", "data-model-invalid.json"] {
            guard case .array(let items) = try Self.interopJSON("data-model/\(file)") else { continue }
            for (index, item) in items.enumerated() {
                if let json = item.objectValue?["json"] { documents.append(("\(file)[\(index)]", json)) }
            }
        }
        for file in ["record-data-valid.json", "record-data-invalid.json"] {
            guard case .array(let items) = try Self.interopJSON("lexicon/\(file)") else { continue }
            for (index, item) in items.enumerated() {
                if let data = item.objectValue?["data"] { documents.append(("\(file)[\(index)]", data)) }
            }
        }
        XCTAssertGreaterThan(documents.count, 50)
        var decoded = 0
        for (name, json) in documents {
            let fields = json.objectValue ?? ["value": json]
            var page = fields
            page["feed"] = .array([])
            var post = Self.minimalPost
            post["record"] = json
            var unknownMember = fields
            unknownMember["$type"] = .string("com.example.notListed")
            var invalidMember = fields
            invalidMember["$type"] = .string("app.bsky.embed.external#view")
            post["embed"] = .object(unknownMember)
            var item: [String: JSONValue] = ["post": .object(post), "reason": .object(invalidMember)]
            item.merge(fields) { known, _ in known }
            let variants: [JSONValue] = [
                .object(page),
                .object(["feed": .array([.object(item), .object(["post": .object(post)])])]),
            ]
            for (index, variant) in variants.enumerated() {
                let bytes = Array(variant.serialized(sortedKeys: false))
                if assertPathsAgree(AppBskyFeedGetTimeline.Output.self, bytes, "\(name) variant \(index)") {
                    decoded += 1
                }
            }
            assertPathsAgree(LexiconUnknownValue.self, Array(json.serialized(sortedKeys: false)), name)
            assertPathsAgree(AppBskyFeedPost.self, Array(json.serialized(sortedKeys: false)), "\(name) as a post")
        }
        XCTAssertGreaterThan(decoded, documents.count, "most fixtures should decode inside a page")
    }

    static let minimalPost: [String: JSONValue] = [
        "uri": .string("at://did:plc:abc/app.bsky.feed.post/3k"), "cid": .string("bafyrei"),
        "indexedAt": .string("2024-01-01T00:00:00Z"),
        "author": .object(["did": .string("did:plc:abc"), "handle": .string("a.test")]),
        "record": .object([
            "$type": .string("app.bsky.feed.post"), "text": .string("hi"), "createdAt": .string("2024-01-01T00:00:00Z"),
        ]),
    ]

    // MARK: Random pages

    /// Seeded random timeline pages, valid and broken in every way the generator knows, agree.
    func testRandomPagesDecodeTheSameThroughBothPaths() {
        var decoded = 0
        let count = 400
        for seed in 0..<UInt64(count) {
            var random = RandomPage(seed: seed)
            let bytes = random.page()
            if assertPathsAgree(AppBskyFeedGetTimeline.Output.self, bytes, "random page, seed \(seed)") {
                decoded += 1
            }
        }
        // Some pages must decode, or the comparison proves little.
        XCTAssertGreaterThan(decoded, count / 2)
    }

    func testSmallDocumentsAtTheEdgesAgree() {
        let documents = [
            #"{"feed": []}"#, #" {"feed":[ ] } "#, #"{"feed": [], "feed": []}"#, #"{"feed": [],}"#,
            #"{"feed": [], "x": {"a": 1, "a": 2}}"#, #"{"f\u0065ed": [], "cursor": "c"}"#,
            #"{"feed": [], "\u0063ursor": null}"#, #"{"feed": null}"#, #"{"feed": [1,]}"#, #"{"feed": []} x"#,
            #"{"feed": [], "cursor": "\ud800"}"#, #"{"feed": [], "x": 1e400}"#, #"{"feed": [], "x": 1.0}"#,
            #"{"feed": [], "x": -0}"#, #"{"feed": [], "x": 9223372036854775808}"#, "{\"feed\": [], \"x\": \"\u{1}\"}",
            #"{"feed": [], "x": [[[[[]]]]]"#, #"[]"#, #""#, #"{"feed": [{"post": {}}]}"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            #"{"feed": [], "x": "#
                + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
            #"{"feed": [], "x": "#
                + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}",
        ]
        for document in documents {
            assertPathsAgree(AppBskyFeedGetTimeline.Output.self, Array(document.utf8), document)
        }
    }

    /// Many keys written with escapes agree, and are decoded once each rather than again for every
    /// field asked for while they wait unread (hostile input must not multiply the work).
    func testManyEscapedKeysAgreeAndStayCheap() {
        let unknown = (0..<5_000).map { #""\u0061k\#($0)": \#($0)"# }.joined(separator: ", ")
        let post =
            #"{"\u0075ri": "at://x", "cid": "b", "author": {"did": "d", "handle": "h"}, "#
            + #""record": {}, "indexedAt": "t", "#
            + (0..<2_000).map { #""\u0062\#($0)": null"# }.joined(separator: ", ") + "}"
        let document = #"{"feed": [{"post": "# + post + "}], " + unknown + "}"
        let start = Date()
        XCTAssertTrue(assertPathsAgree(AppBskyFeedGetTimeline.Output.self, Array(document.utf8), "escaped keys"))
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "escaped keys are compared decoded once")
    }
}

extension Result {
    var errorDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return "\(type(of: error)): \(error)"
    }
}

/// Writes random timeline pages as JSON text: members in random order, random whitespace, keys
/// sometimes escaped, unknown fields, nulls, fields missing or of the wrong shape, unions with
/// listed, unlisted and broken members, and now and then a break in the text itself.
struct RandomPage {
    var generator: SplitMix64
    /// How often (per object) something is out of place.
    let mischief: Double

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
        mischief = [0, 0.02, 0.1][Int(seed % 3)]
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[Int.random(in: 0..<items.count, using: &generator)]
    }

    /// A value in the making: text, an array or an object with its members in order.
    indirect enum Node {
        case text(String)
        case array([Node])
        case object([(String, Node)])
    }

    mutating func page() -> [UInt8] {
        let items = (0..<Int.random(in: 0...4, using: &generator)).map { _ in feedItem() }
        var text = render(object([("cursor", string("3l2pq")), ("feed", .array(items))]))
        if chance(mischief * 2), !text.isEmpty {
            // A break in the text: cut, a stray byte, or a byte changed.
            var bytes = Array(text.utf8)
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes.insert(pick(Array("{}[],:\"\\ 0-e.ntf".utf8)), at: at)
            default: bytes[at] = pick(Array("{}[],:\"\\x1".utf8))
            }
            return bytes
        }
        if chance(0.05) { text += pick([" ", "\n", " x"]) }
        return Array(text.utf8)
    }

    // MARK: Shapes

    mutating func feedItem() -> Node {
        var members: [(String, Node)] = [("post", postView())]
        if chance(0.3) { members.append(("reason", reason())) }
        if chance(0.3) {
            var reply: [(String, Node)] = [("root", replyMember()), ("parent", replyMember())]
            if chance(0.3) { reply.append(("grandparentAuthor", profile())) }
            members.append(("reply", object(reply)))
        }
        if chance(0.3) { members.append(("feedContext", string("ctx"))) }
        return object(members)
    }

    mutating func postView() -> Node {
        var members: [(String, Node)] = [
            ("uri", string("at://did:plc:abc/app.bsky.feed.post/3k")), ("cid", string("bafyrei")),
            ("author", profile()), ("record", anyValue(depth: 2)), ("indexedAt", string("2024-01-01T00:00:00Z")),
        ]
        if chance(0.6) { members.append(("embed", embed(depth: 0))) }
        for count in ["replyCount", "repostCount", "likeCount", "quoteCount", "bookmarkCount"] where chance(0.7) {
            members.append((count, number()))
        }
        if chance(0.5) {
            members.append(
                (
                    "viewer",
                    object([("like", string("at://x")), ("threadMuted", .text("false")), ("pinned", .text("true"))])
                ))
        }
        if chance(0.3) { members.append(("labels", .array((0..<2).map { _ in label() }))) }
        return object(members)
    }

    mutating func profile() -> Node {
        var members: [(String, Node)] = [("did", string("did:plc:abc")), ("handle", string("a.test"))]
        if chance(0.7) { members.append(("displayName", string("Ünïcödé 🦋 \"quoted\" \\ \n"))) }
        if chance(0.5) { members.append(("avatar", string("https://cdn.example/a.jpg"))) }
        if chance(0.5) {
            members.append(
                (
                    "viewer",
                    object([("muted", .text("false")), ("blockedBy", .text("false")), ("following", string("at://f"))])
                ))
        }
        if chance(0.3) { members.append(("labels", .array([label()]))) }
        if chance(0.3) { members.append(("createdAt", string("2023-04-10T12:34:56.789Z"))) }
        return object(members)
    }

    mutating func label() -> Node {
        var members: [(String, Node)] = [
            ("src", string("did:plc:labeler")), ("uri", string("at://x")), ("val", string("!warn")),
            ("cts", string("2024-06-01T10:00:00.000Z")),
        ]
        if chance(0.5) { members.append(("ver", .text("1"))) }
        if chance(0.3) { members.append(("sig", .object([("$bytes", string("fGxNdEsK3Wjx"))]))) }
        if chance(0.2) { members.append(("neg", .text("false"))) }
        return object(members)
    }

    mutating func reason() -> Node {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return object([("$type", string("app.bsky.feed.defs#reasonPin"))])
        case 1:
            return object([
                ("$type", string("app.bsky.feed.defs#reasonRepost")), ("by", profile()),
                ("indexedAt", string("2024-01-01T00:00:00Z")),
            ])
        case 2: return object([("$type", string("app.bsky.feed.defs#reasonFuture")), ("x", anyValue(depth: 2))])
        default: return object([("$type", string("app.bsky.feed.defs#reasonRepost")), ("by", string("nobody"))])
        }
    }

    mutating func replyMember() -> Node {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return withType("app.bsky.feed.defs#postView", postView())
        case 1:
            return object([
                ("$type", string("app.bsky.feed.defs#notFoundPost")), ("uri", string("at://x")),
                ("notFound", .text("true")),
            ])
        case 2: return object([("$type", string("app.bsky.feed.defs#blockedPost")), ("uri", string("at://x"))])
        default: return chance(mischief * 3) ? postView() : withType("app.bsky.feed.defs#postView", postView())
        }
    }

    mutating func embed(depth: Int) -> Node {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
            let image = object([
                ("thumb", string("https://t")), ("fullsize", string("https://f")), ("alt", string("alt \u{e9}")),
                ("aspectRatio", object([("width", number()), ("height", number())])),
            ])
            return object([("$type", string("app.bsky.embed.images#view")), ("images", .array([image, image]))])
        case 1:
            return object([
                ("$type", string("app.bsky.embed.external#view")),
                (
                    "external",
                    object([("uri", string("https://e")), ("title", string("t")), ("description", string("d"))])
                ),
            ])
        case 2 where depth < 2:
            let record = object([
                ("$type", string("app.bsky.embed.record#viewRecord")), ("uri", string("at://x")),
                ("cid", string("bafy")), ("author", profile()), ("value", anyValue(depth: 2)),
                ("indexedAt", string("2024-01-01T00:00:00Z")), ("embeds", .array([embed(depth: depth + 1)])),
            ])
            return object([("$type", string("app.bsky.embed.record#view")), ("record", record)])
        case 3: return object([("$type", string("app.bsky.embed.future#view")), ("data", anyValue(depth: 2))])
        default:
            return chance(mischief * 3)
                ? anyValue(depth: 1)
                : object([("$type", string("app.bsky.embed.images#view")), ("images", .array([]))])
        }
    }

    mutating func withType(_ type: String, _ node: Node) -> Node {
        guard case .object(var members) = node else { return node }
        members.insert(("$type", string(type)), at: Int.random(in: 0...members.count, using: &generator))
        return .object(members)
    }

    // MARK: Values

    mutating func string(_ value: String) -> Node {
        .text(quoted(value, escaping: chance(0.1)))
    }

    /// A count: an integer, now and then written as a float with no fraction.
    mutating func number() -> Node {
        .text(pick(["0", "7", "123", "-4", "1.0", "-0", "1e2", "9007199254740993"]))
    }

    mutating func anyNumber() -> Node {
        .text(pick(["0", "7", "-4", "1.0", "2.5", "1e2", "1E-2", "9007199254740993", "-0", "12345678901234567890"]))
    }

    mutating func anyValue(depth: Int) -> Node {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &generator) {
        case 0: return .text(pick(["null", "true", "false"]))
        case 1: return anyNumber()
        case 2, 3: return string(pick(["", "text", "ünï", "tab\there", "😀", "a\"b", "\\"]))
        case 4: return .object([("$link", string("bafyrei"))])
        case 5: return object([("$type", string("app.bsky.feed.post")), ("text", string("hi"))])
        case 6: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in anyValue(depth: depth - 1) })
        default:
            return object(
                (0..<Int.random(in: 0...4, using: &generator)).map { index in
                    (pick(["a", "b", "$type", "ü", "key\(index)"]) + "\(index)", anyValue(depth: depth - 1))
                })
        }
    }

    /// An object with its members shuffled and, now and then, something out of place.
    mutating func object(_ members: [(String, Node)]) -> Node {
        var members = members
        if chance(mischief) && !members.isEmpty {
            let index = Int.random(in: 0..<members.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: members.remove(at: index)
            case 1: members[index].1 = anyValue(depth: 1)
            case 2: members[index].1 = .text("null")
            case 3: members.append(members[index])
            default: members[index].1 = .array([members[index].1])
            }
        }
        if chance(0.3) { members.append(("unknown\(Int.random(in: 0..<100, using: &generator))", anyValue(depth: 2))) }
        members.shuffle(using: &generator)
        return .object(members)
    }

    // MARK: Text

    mutating func space() -> String {
        chance(0.7) ? "" : pick([" ", "\n", "\t", " \r\n "])
    }

    /// A JSON string; with `escaping`, some characters are written as escapes.
    mutating func quoted(_ value: String, escaping: Bool) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default:
                if escaping && chance(0.5) {
                    for unit in String(scalar).utf16 { text += "\\u" + String(format: "%04x", unit) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }

    mutating func render(_ node: Node) -> String {
        switch node {
        case .text(let text):
            return text
        case .array(let items):
            var parts: [String] = []
            for item in items { parts.append(space() + render(item) + space()) }
            return "[" + space() + parts.joined(separator: ",") + "]"
        case .object(let members):
            var parts: [String] = []
            for (key, value) in members {
                parts.append(
                    space() + quoted(key, escaping: chance(0.05)) + space() + ":" + space() + render(value) + space())
            }
            return "{" + space() + parts.joined(separator: ",") + "}"
        }
    }
}
