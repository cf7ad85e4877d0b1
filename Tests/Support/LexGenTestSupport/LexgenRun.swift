import Foundation

/// `lexgen` run as a user runs it: the binary built beside the tests, in a folder, with its output.
/// The one process runner of the test targets that depend on the `lexgen` executable.
package struct LexgenRun {
    /// The exit status.
    package var status: Int32
    /// What it wrote to standard output.
    package var output: String
    /// What it wrote to standard error.
    package var errors: String

    /// Why `lexgen` could not run.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `lexgen` with `arguments` in `folder` (the tests' own folder when `nil`); throws when the
    /// binary is not built beside the tests (every target using this depends on it).
    package static func run(_ arguments: [String], in folder: URL? = nil) throws -> LexgenRun {
        let binary = Bundle.main.bundleURL.appendingPathComponent("lexgen")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Missing(description: "lexgen is not built beside the tests at \(binary.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
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
    package static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
