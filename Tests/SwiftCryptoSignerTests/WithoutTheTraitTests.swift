import Foundation
import XCTest

/// Without their trait (the default build), the trait-gated products still declare their public
/// names, unavailable with a message naming the trait to enable: an app that depends on the product
/// but forgot the trait reads what to do instead of "cannot find in scope". Each test type-checks an
/// app's use of the names against the modules just built, as the app's compiler would.
final class WithoutTheTraitTests: XCTestCase {
    #if !SwiftCryptoSigner
        func testTheSignerSaysWhichTraitToEnable() throws {
            let errors = try typeCheckErrors(
                "import SwiftCryptoSigner\nlet factory = SwiftCryptoES256KeyFactory()\nprint(factory)\n")
            XCTAssertTrue(errors.contains("error: 'SwiftCryptoES256KeyFactory' is unavailable"), errors)
            XCTAssertTrue(errors.contains("enable the SwiftCryptoSigner trait"), errors)
        }
    #endif

    #if !NIOWebSocketTransport
        func testTheNIOTransportSaysWhichTraitToEnable() throws {
            let errors = try typeCheckErrors(
                "import NIOWebSocketTransport\nlet transport = NIOWebSocketTransport()\nprint(transport)\n")
            XCTAssertTrue(errors.contains("error: 'NIOWebSocketTransport' is unavailable"), errors)
            XCTAssertTrue(errors.contains("enable the NIOWebSocketTransport trait"), errors)
        }
    #endif

    /// What `swiftc -typecheck` prints for `source` against the modules beside the tests.
    private func typeCheckErrors(_ source: String) throws -> String {
        let modules = Bundle.main.bundleURL.appendingPathComponent("Modules")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0, "the use type-checked without the trait: \(text)")
        return text
    }
}
