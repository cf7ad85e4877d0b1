import Foundation
import LexGenSchema
import SHA2

/// A hash of what a lexicon says rather than how its file is written, so a lexicon pinned from a folder
/// can be recognised when it arrives over atproto (a record keeps no key order and no whitespace).
///
/// The canonical form: the JSON value without a top-level `$type`, object keys sorted by their UTF-8
/// bytes, no whitespace, strings escaping only `"`, `\` and control characters (`\u00XX`), integers in
/// decimal, other numbers as written. Its SHA-256, in lowercase hexadecimal, is the content hash.
public enum LexiconContentHash {
    /// The content hash of a lexicon file's bytes, or `nil` when they are not JSON.
    public static func of(_ data: Data) -> String? {
        guard var root = try? LocatedJSONParser.parse(Array(data)) else { return nil }
        if case .object(let fields) = root.value {
            root.value = .object(fields.filter { $0.key != "$type" })
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        write(root, to: &bytes)
        return SHA256.hexHash(bytes)
    }

    private static func write(_ node: JSONNode, to bytes: inout [UInt8]) {
        switch node.value {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array((value ? "true" : "false").utf8)
        case .number(let text, let integer): bytes += Array((integer.map(String.init) ?? text).utf8)
        case .string(let text): writeString(text, to: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, field) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(field.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(field.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
