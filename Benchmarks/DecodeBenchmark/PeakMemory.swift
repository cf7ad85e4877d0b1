import AtprotoLexicons
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The peak memory of decoding one big page, each path in a fresh child process of this benchmark:
/// the child reads the page from a file (into a buffer of its size), notes its peak resident memory
/// (the kernel's high-water mark, reset first where it can be), decodes the page once with the value
/// kept alive, and notes the peak again. The difference is what decoding needed at its peak: the tree
/// path's tree and value, or the text path's value and the members it holds out of order.
enum PeakMemory {
    /// The child side: `--peak-memory typed|tree <file>` prints the peak growth in bytes.
    static func runChild(_ arguments: [String]) -> Never {
        guard arguments.count == 2, let data = readFile(arguments[1]) else {
            print("error: expected --peak-memory typed|tree <file>")
            exit(2)
        }
        let before = peakResidentBytes(resetting: true)
        do {
            let page: AppBskyFeedGetTimeline.Output
            if arguments[0] == "tree" {
                page = try AppBskyFeedGetTimeline.Output(lexiconJSON: JSONValue.parse(data))
            } else {
                page = try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
            }
            let after = peakResidentBytes()
            withExtendedLifetime(page) { print(after - before) }
            if ProcessInfo.processInfo.environment["PEAK_MEMORY_DEBUG"] != nil {
                FileHandle.standardError.write(Data("\(arguments[0]): peak \(before) -> \(after)\n".utf8))
            }
        } catch {
            print("error: \(error)")
            exit(1)
        }
        exit(0)
    }

    /// The file's bytes, read straight into a buffer of its size: no copy on the way that would
    /// raise the peak before decoding starts.
    static func readFile(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return size == 0 }
            var done = 0
            while done < size {
                let count = read(descriptor, base + done, size - done)
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? data : nil
    }

    /// The process's peak resident memory so far. On Linux it is the kernel's high-water mark of this
    /// address space (`VmHWM`), first reset to the current size: `getrusage`'s `ru_maxrss` would start
    /// at the parent's size, which it keeps across `fork` and `exec`.
    static func peakResidentBytes(resetting reset: Bool = false) -> Int {
        #if canImport(Darwin)
            var usage = rusage()
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #else
            if reset { try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8) }
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            else {
                var usage = rusage()
                getrusage(RUSAGE_SELF.rawValue, &usage)
                return Int(usage.ru_maxrss) * 1024
            }
            return kilobytes * 1024
        #endif
    }

    /// Writes a page of about `megabytes` MB and measures both paths `runs` times each, alternating;
    /// returns the lines to print.
    static func report(megabytes size: Int, runs: Int) throws -> [String] {
        let postBytes = Data(TimelinePage.json(posts: 100).utf8).count / 100
        let posts = size * 1_000_000 / postBytes
        let page = Data(TimelinePage.json(posts: posts).utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lexicon-decode-bench-page.json")
        try page.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var typed: [Int] = []
        var tree: [Int] = []
        for _ in 0..<runs {
            typed.append(try child("typed", file))
            tree.append(try child("tree", file))
        }
        let typedMedian = typed.sorted()[runs / 2]
        let treeMedian = tree.sorted()[runs / 2]
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return [
            "peak memory of decoding one page of \(posts) posts, \(megabytes(page.count)) (median of \(runs) "
                + "child processes each, growth of the peak resident memory):",
            "  typed decode from the text (LexiconDecoder): \(megabytes(typedMedian)) "
                + "(\(typed.sorted().map(megabytes).joined(separator: ", ")))",
            "  typed decode through a tree (JSONValue.parse, then the types): \(megabytes(treeMedian)) "
                + "(\(tree.sorted().map(megabytes).joined(separator: ", ")))",
            String(
                format: "  the text path needs %.2fx the tree path's memory (target <= 0.5x)",
                Double(typedMedian) / Double(treeMedian)),
        ]
    }

    private static func child(_ path: String, _ file: URL) throws -> Int {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--peak-memory", path, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw PeakMemoryError(description: "the \(path) child failed: \(text)")
        }
        return bytes
    }
}

struct PeakMemoryError: Error, CustomStringConvertible {
    var description: String
}
