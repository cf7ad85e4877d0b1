import Foundation
import XCTest

/// The build-tool plugin is `LexiconGen`, the name the design gives it: a package applying
/// `.plugin(name: "LexiconGen", package: ...)` finds the product (named otherwise, SwiftPM stops with
/// "product 'LexiconGen' ... not found"). The generator's own modules keep their `LexGen` names.
final class PluginNameTests: XCTestCase {
    /// The manifest as SwiftPM reads it (`swift package dump-package`, in a scratch folder of its own).
    func testThePackageDeclaresTheBuildToolPluginAsLexiconGen() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "package", "dump-package", "--package-path", packageRoot.path, "--scratch-path", scratch.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let products = try XCTUnwrap(manifest["products"] as? [[String: Any]])
        let plugins = products.filter { ($0["type"] as? [String: Any])?.keys.contains("plugin") == true }
        XCTAssertEqual(Set(plugins.compactMap { $0["name"] as? String }), ["LexiconGen", "InstallLexicons"])
        let product = try XCTUnwrap(plugins.first { $0["name"] as? String == "LexiconGen" })
        XCTAssertEqual(product["targets"] as? [String], ["LexiconGen"])
        let targets = try XCTUnwrap(manifest["targets"] as? [[String: Any]])
        let target = try XCTUnwrap(targets.first { $0["name"] as? String == "LexiconGen" })
        XCTAssertEqual(target["type"] as? String, "plugin")
        XCTAssertNotNil((target["pluginCapability"] as? [String: Any])?["buildTool"], "a build-tool plugin")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Plugins/LexiconGen").path))
    }

    /// The example packages (which CI builds) apply it by that name, as the docs show it.
    func testTheExamplesApplyItByThatName() throws {
        for example in ["CustomLexicons", "FeedReader", "SignIn", "MainActorApp"] {
            let manifest = try String(
                contentsOf: packageRoot.appendingPathComponent("Examples/\(example)/Package.swift"), encoding: .utf8)
            XCTAssertTrue(
                manifest.contains(#".plugin(name: "LexiconGen", package: "swift-atproto-lexicons")"#), example)
            XCTAssertFalse(manifest.contains(#".plugin(name: "LexGen""#), example)
        }
    }
}
