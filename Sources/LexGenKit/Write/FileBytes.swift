#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain POSIX reads and writes for the generator's output files.
///
/// Foundation's `Data.write(to:)` and `FileManager.contents(atPath:)` cost two to three times as much
/// per file here (measured: writing the 403 files of the standard SDK took 0.16-0.21 s through
/// Foundation on two threads, 0.07-0.08 s with these calls, what a plain loop in any language gets).
enum FileBytes {
    /// Whether the file at `path` holds exactly `bytes`; `false` when it does not exist or differs.
    static func fileHolds(_ bytes: UnsafeRawBufferPointer, path: String) -> Bool {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == bytes.count else { return false }
        var existing = [UInt8](repeating: 0, count: bytes.count + 1)
        var filled = 0
        while filled < existing.count {
            let count = existing.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        // One byte more than expected was asked for, so a file that grew since fstat still differs.
        guard filled == bytes.count else { return false }
        guard let expected = bytes.baseAddress else { return true }
        return existing.withUnsafeBytes { buffer in
            buffer.baseAddress.map { memcmp($0, expected, bytes.count) == 0 } ?? false
        }
    }

    /// Replaces the contents of the file at `path` (creating it) with `bytes`.
    static func replaceContents(of path: String, with bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(code: errno) }
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                throw FileWriteError(code: code)
            }
            written += count
        }
        guard close(descriptor) == 0 else { throw FileWriteError(code: errno) }
    }
}

/// A failed POSIX call while writing a file, with the system's message.
struct FileWriteError: Error, CustomStringConvertible {
    var code: Int32

    var description: String { String(cString: strerror(code)) }
}
