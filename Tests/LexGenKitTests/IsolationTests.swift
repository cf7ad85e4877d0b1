import Foundation
import XCTest

@testable import LexGenKit

/// Generated code is `nonisolated` whatever the default isolation of the module that compiles it: an
/// app target with MainActor default isolation (Xcode 26's default) compiles it and uses its types off
/// the main actor (`GeneratedIsolation`).
final class IsolationTests: XCTestCase {
    private let golden = packageRoot.appendingPathComponent("Tests/LexGenKitTests/Golden/lexicons")

    /// The golden set (records, objects, unions, tokens, string values, every endpoint kind) and a
    /// record whose own field is boxed (a nested struct of the golden set has one too).
    private func generateSet() throws -> GenerationResult {
        var sources = try LexiconFileSystem.sources(in: golden.path)
        sources.append(
            source(
                """
                {"lexicon": 1, "id": "com.example.isolation.holder", "defs": {"main": {"type": "record",
                  "key": "any", "record": {"type": "object", "required": ["post"], "properties": {
                    "post": {"type": "ref", "ref": "com.example.golden.post"}}}}}}
                """, path: "holder.json"))
        let result = LexiconGenerator.generate(sources, moduleName: "IsolationCheck")
        XCTAssertEqual(result.diagnostics.all.map(\.description), [])
        return result
    }

    func testEveryDeclaredTypeAndExtensionIsNonisolated() throws {
        let result = try generateSet()
        let declaration = try NSRegularExpression(
            pattern: #"^ *(?:public |package )?(nonisolated )?(?:indirect )?(struct|enum|protocol|extension) "#)
        var kinds: Set<String> = []
        var unmarked: [String] = []
        for file in result.files {
            for line in file.contents.components(separatedBy: "\n") {
                guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                    let kind = Range(match.range(at: 2), in: line).map({ String(line[$0]) })
                else { continue }
                kinds.insert(kind)
                if match.range(at: 1).location == NSNotFound { unmarked.append("\(file.name): \(line)") }
            }
            // Property wrappers are refused in a nonisolated type (GeneratedIsolation); `nonisolated` on
            // a typealias is refused too.
            XCTAssertFalse(file.contents.contains("@XRPCCore._LexiconBoxed"), file.name)
            XCTAssertFalse(file.contents.contains("nonisolated typealias"), file.name)
        }
        XCTAssertEqual(unmarked, [], "declarations without `nonisolated`")
        XCTAssertEqual(kinds, ["struct", "enum", "extension"])
        let holder = try XCTUnwrap(result.files.first { $0.name == "holder.swift" }?.contents)
        assertContainsLines(
            holder,
            """
            public nonisolated struct ComExampleIsolationHolder: XRPCCore.LexiconRecord, XRPCCore.LexiconValidatable {
            """)
        assertContainsLines(
            holder,
            """
            public var post: ComExampleGoldenPost { get { _post.wrappedValue } set { _post.wrappedValue = newValue } }
            private var _post: XRPCCore._LexiconBoxed<ComExampleGoldenPost>
            """)
        assertContainsLines(
            holder,
            """
            public static var lexiconCatalog: XRPCCore.LexiconSchemaCatalog { IsolationCheckSchemas.catalog }
            """)
    }

    /// Compiled as an app target compiles it (`-default-isolation MainActor`), then used from a
    /// `nonisolated` function and a detached task; the old output failed on every conformance. And
    /// compiled as a library compiles it (no default), where a `nonisolated` type with a property
    /// wrapper fails too.
    func testGeneratedSwiftCompilesAndIsUsableOffTheMainActorUnderEitherDefaultIsolation() throws {
        let result = try generateSet()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-iso-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try LexiconFileSystem.write(result.files, to: folder.path, removeStale: false)
        let usage = folder.appendingPathComponent("Usage.swift")
        try Data(Self.usage.utf8).write(to: usage)
        let files = result.files.map { folder.appendingPathComponent($0.name).path } + [usage.path]
        for isolation in ["MainActor", "nonisolated"] {
            let (status, text) = try typecheckAgainstBuiltModules(
                files, moduleName: "IsolationCheck", arguments: ["-default-isolation", isolation])
            XCTAssertEqual(status, 0, "-default-isolation \(isolation):\n\(text)")
            XCTAssertFalse(text.contains("warning:"), "-default-isolation \(isolation):\n\(text)")
        }
    }

    /// App code in the MainActor-default module: every generated kind built, validated, encoded and
    /// decoded where the main actor is not (a synchronous `nonisolated` function, a detached task).
    private static let usage = """
        import Foundation
        import XRPCRuntime

        nonisolated func roundTrip() throws -> Bool {
            let quote = ComExampleGoldenPost.Quote(uri: "at://did:plc:abc/com.example.golden.post/1")
            let post = ComExampleGoldenPost(
                text: "hi", createdAt: LexiconDatetime(rawValue: "2024-05-01T12:00:00.000Z"),
                embed: .comExampleGoldenPostQuote(quote), mood: .happy)
            try post.validate()
            let holder = ComExampleIsolationHolder(post: try ComExampleGoldenPost(jsonData: post.jsonData()))
            try holder.validate()
            let back = try LexiconDecoder().decode(ComExampleIsolationHolder.self, from: LexiconEncoder().encode(holder))
            let tags: [ComExampleGoldenDefs.Image.TagsItem] = [.a, .b]
            let list: [ComExampleGoldenDefs.ListItem] = []
            _ = (tags, list, ComExampleGoldenDefs.Sleepy.value, ComExampleGoldenPost.collection)
            _ = ComExampleGoldenGetPosts.Error(name: "AuthorNotFound").name
            _ = ComExampleGoldenStream.Message.lexiconDefinition
            _ = IsolationCheckSchemas.catalog
            return back == holder && back.post == post
        }

        func detached() async throws -> Bool {
            try await Task.detached { try roundTrip() }.value
        }

        nonisolated func call(_ client: XRPCClient) async throws -> Int {
            let page = try await client.com.example.golden.getPosts(author: "alice.test")
            _ = client.com.example.golden.stream(cursor: 1)
            return page.lexiconJSON == .null ? 0 : 1
        }
        """
}
