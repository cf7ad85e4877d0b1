import Foundation
import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// Names the TypeScript generator accepts (`com.example.4-2.unsafeDefs`: an NSID segment that starts
/// with a digit, defs named `9`, `2fa` and `ob-je-c$t`) generate valid Swift, checked by the compiler.
final class UnsafeNameTests: XCTestCase {
    private let sources = [
        source(
            #"""
            {"lexicon": 1, "id": "com.example.4-2.unsafeDefs", "defs": {
              "ob-je-c$t": {"type": "object", "properties": {"foo": {"type": "string"}}},
              "9": {"type": "integer"},
              "2fa": {"type": "object", "properties": {"next": {"type": "ref", "ref": "#9"}}},
              "$x-y": {"type": "string", "knownValues": ["a-b", "9"]},
              "main": {"type": "object", "properties": {
                "item": {"type": "ref", "ref": "#ob-je-c$t"},
                "any": {"type": "union", "refs": ["#ob-je-c$t", "#2fa"]},
                "count": {"type": "ref", "ref": "com.example.4-2.unsafeDefs#9"},
                "kind": {"type": "ref", "ref": "#$x-y"}
              }}
            }}
            """#, path: "com/example/4-2/unsafeDefs.json"),
        source(
            #"""
            {"lexicon": 1, "id": "com.example.4-2.getThing", "defs": {"main": {"type": "query",
              "output": {"encoding": "application/json",
                         "schema": {"type": "ref", "ref": "com.example.4-2.unsafeDefs#ob-je-c$t"}}}}}
            """#, path: "com/example/4-2/getThing.json"),
    ]

    func testUnsafeDefNamesAndSegmentsGetSwiftNames() throws {
        let result = LexiconGenerator.generate(sources)
        XCTAssertEqual(result.diagnostics.all.map(\.description), [])
        let defs = try XCTUnwrap(result.files.first { $0.name == "com.example.4-2.unsafeDefs.swift" }?.contents)
        XCTAssertTrue(defs.contains("public nonisolated struct ComExample42UnsafeDefs: "), defs)
        XCTAssertTrue(defs.contains("    public nonisolated struct ObJeCT: "))
        XCTAssertTrue(defs.contains(#"{ "com.example.4-2.unsafeDefs#ob-je-c$t" }"#), "the $type keeps the def's name")
        XCTAssertTrue(defs.contains("    public typealias _9 = Swift.Int"))
        XCTAssertTrue(defs.contains("    public nonisolated struct _2fa: "))
        XCTAssertTrue(defs.contains("case comExample42UnsafeDefsObJeCT(ComExample42UnsafeDefs.ObJeCT)"))
        let namespaces = try XCTUnwrap(
            result.files.first { $0.name == LexiconOutputNaming.namespacesFileName }?.contents)
        XCTAssertTrue(namespaces.contains("public var _42: Namespace_42 { Namespace_42(client: client) }"), namespaces)
    }

    func testTheGeneratedSwiftCompiles() throws {
        let result = LexiconGenerator.generate(sources)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-unsafe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try LexiconFileSystem.write(result.files, to: folder.path, removeStale: false)
        let files = result.files.map { folder.appendingPathComponent($0.name).path }
        let (status, text) = try typecheckAgainstBuiltModules(files + [try usage(in: folder)], moduleName: "UnsafeDefs")
        XCTAssertEqual(status, 0, text)
        XCTAssertFalse(text.contains("warning:"), text)
    }

    /// A file that uses the generated names as an app would.
    private func usage(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("Usage.swift")
        let code = """
            import XRPCRuntime

            func use(_ client: XRPCClient) async throws -> Int? {
                let thing: ComExample42UnsafeDefs.ObJeCT = try await client.com.example._42.getThing()
                let value = ComExample42UnsafeDefs(count: 9, item: thing, kind: .ab)
                let second = ComExample42UnsafeDefs._2fa(next: value.count)
                _ = ComExample42UnsafeDefs.Any_.comExample42UnsafeDefs2fa(second)
                return second.next
            }
            """
        try Data(code.utf8).write(to: path)
        return path.path
    }
}
