import Foundation
import XCTest

/// Reading the test data: interop files from `../shared` (never copied into the repository; a test
/// that needs one is skipped when it is absent) and this target's own files, by paths from #filePath.
enum TestData {
    /// The folder of this file: Tests/AtprotoCryptoTests.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The contents of `../shared/interop/crypto/<name>`, or an XCTSkip when it is not there.
    static func interop(_ name: String) throws -> Data {
        let url = folder.appendingPathComponent("../../../shared/interop/crypto/\(name)").standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XCTSkip("interop file \(url.path) is absent (it lives in the shared folder beside the repository)")
        }
        return data
    }

    /// The contents of a file in this test target's folder.
    static func local(_ name: String) throws -> Data {
        let url = folder.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestDataError("missing \(url.path)")
        }
        return data
    }

    /// Bytes from hexadecimal text.
    static func hex(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { throw TestDataError("odd-length hex \(text)") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw TestDataError("not hex: \(text)")
            }
            return byte
        }
    }

    /// Bytes from base64 or base64url text, with or without padding.
    static func base64(_ text: String) throws -> [UInt8] {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { throw TestDataError("not base64: \(text)") }
        return Array(data)
    }
}

/// A problem with the test data itself.
struct TestDataError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
