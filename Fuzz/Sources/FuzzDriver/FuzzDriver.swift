import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fuzz target: runs one input through a parser. Throwing is fine (a typed error is the expected
/// answer to most inputs); crashing, hanging or tripping a sanitizer is a finding.
public struct FuzzTarget: Sendable {
    /// The name given on the command line.
    public var name: String
    /// What it covers, for `list`.
    public var summary: String
    /// Runs one input.
    public var run: @Sendable ([UInt8]) -> Void

    /// Creates a target.
    public init(_ name: String, _ summary: String, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }
}

/// The environment variable that names the target, so that libFuzzer's child processes (`-fork`,
/// `-jobs`, `-merge`) run the same one.
public let fuzzTargetVariable = "ATPROTO_FUZZ_TARGET"

nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// The program: `<executable> <target> [libFuzzer flags and corpus folders]`, or `<executable> list`.
/// The target may also come from `ATPROTO_FUZZ_TARGET` (then every argument goes to libFuzzer).
public func runFuzzer(_ targets: [FuzzTarget]) -> Never {
    var arguments = CommandLine.arguments
    var name = getenv(fuzzTargetVariable).map { String(cString: $0) }
    if name == nil, arguments.count > 1, !arguments[1].hasPrefix("-") {
        name = arguments.remove(at: 1)
    }
    guard let name, name != "list", let target = targets.first(where: { $0.name == name }) else {
        for target in targets { print("\(target.name)\t\(target.summary)") }
        exit(name == "list" ? 0 : 2)
    }
    setenv(fuzzTargetVariable, name, 1)
    selectedTarget = target

    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var count = Int32(arguments.count)
    let status = cArguments.withUnsafeMutableBufferPointer { buffer in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &argv) { data, size in
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            selectedTarget?.run(bytes)
            return 0
        }
    }
    exit(status)
}

/// Reads bytes from the front of an input: structure for harnesses that need more than one value.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Wraps an input.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    public var isEmpty: Bool { position >= bytes.count }

    /// One byte (0 once the input is used up).
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Up to `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] { take(bytes.count) }
}

/// Stops the run with a finding when a property of the parser does not hold (a round trip that
/// changes the value, say): libFuzzer saves the input as a crash.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    // abort() does not flush stdout: the message goes to stderr, unbuffered.
    let text = Array("fuzz property failed: \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
