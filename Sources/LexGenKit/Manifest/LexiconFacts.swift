import Foundation
import LexGenSchema

/// A lexicon reduced to its facts: every `description` removed and everything else kept (types,
/// constraints, known values, refs, defaults, encodings, errors, tokens), written in one canonical
/// form. This is the form `lexgen install` writes, so that a project can commit the lexicons it
/// depends on without committing prose written by others.
///
/// What is removed: a string-valued `description` of the document, of any schema node, body (`input`,
/// `output`, `message`) or declared error. A property or def that is *named* `description` is a fact
/// and is kept: the keys of `properties` and `defs` are names, never annotations. A top-level `$type`
/// (the record form of a lexicon published over atproto) is removed too.
///
/// The canonical form is deterministic and diff-friendly: object keys sorted by their UTF-8 bytes, two
/// spaces of indentation, an array of scalars on one line, strings escaping only `"`, `\` and control
/// characters, numbers as written, a trailing newline. The same lexicon from a folder or a record
/// reduces to the same bytes.
public enum LexiconFacts {
    /// The reduced, canonical form of a lexicon file's bytes.
    ///
    /// - Throws: ``InstallError`` naming `file` when the bytes are not a JSON object.
    public static func reduce(_ data: Data, file: String) throws -> Data {
        let root: JSONNode
        do {
            root = try LocatedJSONParser.parse(Array(data))
        } catch {
            throw InstallError(file: file, message: "not a lexicon: invalid JSON (\(error))")
        }
        guard case .object(let fields) = root.value else {
            throw InstallError(file: file, message: "not a lexicon: expected a JSON object at the top level")
        }
        var kept = root
        kept.value = .object(fields.filter { $0.key != "$type" })
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        write(withoutDescriptions(kept), indent: 0, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }

    /// Whether `data` is already in reduced, canonical form (what ``reduce(_:file:)`` would write).
    public static func isReduced(_ data: Data) -> Bool {
        (try? reduce(data, file: "")) == data
    }

    /// The node without the `description` annotations of it and its descendants. The values of
    /// `properties` and `defs` are maps from names to schemas: their keys are kept, whatever they are.
    private static func withoutDescriptions(_ node: JSONNode) -> JSONNode {
        var node = node
        switch node.value {
        case .object(let fields):
            var kept: [(key: String, value: JSONNode)] = []
            for field in fields {
                if field.key == "description", case .string = field.value.value { continue }
                if field.key == "properties" || field.key == "defs", case .object(let named) = field.value.value {
                    var map = field.value
                    map.value = .object(named.map { (key: $0.key, value: withoutDescriptions($0.value)) })
                    kept.append((field.key, map))
                } else {
                    kept.append((field.key, withoutDescriptions(field.value)))
                }
            }
            node.value = .object(kept)
        case .array(let items):
            node.value = .array(items.map(withoutDescriptions))
        default:
            break
        }
        return node
    }

    private static func write(_ node: JSONNode, indent: Int, to bytes: inout [UInt8]) {
        func newline(_ depth: Int) {
            bytes.append(UInt8(ascii: "\n"))
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: depth * 2)
        }
        switch node.value {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array((value ? "true" : "false").utf8)
        case .number(let text, let integer): bytes += Array((integer.map(String.init) ?? text).utf8)
        case .string(let text): LexiconContentHash.writeString(text, to: &bytes)
        case .array(let items):
            guard !items.isEmpty else { return bytes += Array("[]".utf8) }
            let scalars = items.allSatisfy {
                switch $0.value {
                case .array, .object: return false
                default: return true
                }
            }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes += scalars ? Array(", ".utf8) : [UInt8(ascii: ",")] }
                if !scalars { newline(indent + 1) }
                write(item, indent: indent + 1, to: &bytes)
            }
            if !scalars { newline(indent) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            guard !fields.isEmpty else { return bytes += Array("{}".utf8) }
            bytes.append(UInt8(ascii: "{"))
            let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, field) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                LexiconContentHash.writeString(field.key, to: &bytes)
                bytes += Array(": ".utf8)
                write(field.value, indent: indent + 1, to: &bytes)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
