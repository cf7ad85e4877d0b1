import Foundation

/// Why a reference could not be measured.
package struct ReferenceUnavailable: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A Python child process that runs the reference side of a benchmark one round at a time, so that
/// its rounds alternate with ours.
///
/// The script given defines `tasks`, a dictionary of names to functions of no argument, from the
/// input file it receives as `sys.argv[1]` (`INPUT` in the script). The process answers each line
/// `name count` with the thread CPU seconds that `count` calls of `tasks[name]` took, or a line
/// starting `error:`.
package final class ReferenceProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    /// The python with the references' packages (libipld, coincurve, cryptography): $BENCH_PYTHON,
    /// or the venv of scripts/pds.sh.
    package static var python: String {
        ProcessInfo.processInfo.environment["BENCH_PYTHON"] ?? ".build/pds-venv/bin/python"
    }

    /// The loop around the caller's script.
    private static let driver = """
        import sys, time
        INPUT = sys.argv[1]
        %SCRIPT%
        for line in sys.stdin:
            name, count = line.split()
            task = tasks[name]
            try:
                start = time.thread_time()
                for _ in range(int(count)): task()
                print(time.thread_time() - start, flush=True)
            except Exception as error:
                print("error:", repr(error), flush=True)
        """

    /// Starts the child with `script`, reading `inputData` (written to a temporary file).
    package init(script: String, inputData: Data = Data()) throws {
        let python = Self.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ReferenceUnavailable("no \(python): run `scripts/pds.sh install` (or set BENCH_PYTHON)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try inputData.write(to: file)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.driver.replacingOccurrences(of: "%SCRIPT%", with: script), file.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Runs `count` calls of the task `name` and returns their CPU seconds.
    package func run(_ name: String, count: Int) throws -> Double {
        input.fileHandleForWriting.write(Data("\(name) \(count)\n".utf8))
        let line = try readLine()
        guard let seconds = Double(line) else { throw ReferenceUnavailable("the reference said: \(line)") }
        return seconds
    }

    private func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                throw ReferenceUnavailable("the reference process closed its output (see its errors above)")
            }
            pending.append(chunk)
        }
    }
}
