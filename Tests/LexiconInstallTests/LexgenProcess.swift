import Foundation
import XCTest

/// `lexgen` run as a user runs it: the binary built beside the tests, in a folder, with its output.
struct LexgenRun {
    var status: Int32
    var output: String
    var errors: String

    /// Runs `lexgen` with `arguments` in `folder`; skips the test when the binary is not built.
    static func run(_ arguments: [String], in folder: URL) throws -> LexgenRun {
        let binary = Bundle.main.bundleURL.appendingPathComponent("lexgen")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("lexgen is not built beside the tests at \(binary.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return LexgenRun(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            errors: String(decoding: errData, as: UTF8.self))
    }

    /// A new empty folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
