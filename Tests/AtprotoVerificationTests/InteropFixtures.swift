import Foundation
import XCTest
import XRPCRuntime

/// The official interop files in ../shared/interop, read in place (never copied).
enum InteropFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/interop")

    /// The JSON of `path` under interop/, or a skip saying what is missing.
    static func json(_ path: String) throws -> JSONValue {
        let url = folder.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else {
            throw XCTSkip("\(url.path) is absent: the interop tests need ../shared beside the repository")
        }
        return try JSONValue.parse(data)
    }

    static func text(_ path: String) throws -> String {
        let url = folder.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else {
            throw XCTSkip("\(url.path) is absent: the interop tests need ../shared beside the repository")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONValue {
    subscript(_ key: String) -> JSONValue? { objectValue?[key] }

    var arrayItems: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
