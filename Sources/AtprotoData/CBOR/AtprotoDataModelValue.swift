import Foundation

/// A value of the atproto data model as DAG-CBOR holds it: bytes and links are their own kinds.
///
/// In JSON the same values are written with the data model's conventions: bytes as
/// `{"$bytes": "<base64>"}` and links as `{"$link": "<cid>"}`. ``json`` and ``init(json:)``
/// convert between the two forms; ``DAGCBOR`` reads and writes this one.
public enum AtprotoDataModelValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A signed integer (64 bits).
    case integer(Int)
    /// A UTF-8 string.
    case string(String)
    /// Raw bytes.
    case bytes(Data)
    /// A link to other content by CID.
    case link(CID)
    /// An array.
    case array([AtprotoDataModelValue])
    /// A map with string keys; key order carries no meaning.
    case map([String: AtprotoDataModelValue])
}

extension AtprotoDataModelValue {
    /// A short name of the value's kind, used in error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .string: return "string"
        case .bytes: return "bytes"
        case .link: return "link"
        case .array: return "array"
        case .map: return "map"
        }
    }

    /// The map's entries, or `nil` when the value is not a map.
    public var mapValue: [String: AtprotoDataModelValue]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The string, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The entry for `key` when the value is a map.
    public subscript(key: String) -> AtprotoDataModelValue? {
        mapValue?[key]
    }

    /// The value in the data model's JSON form: bytes become `{"$bytes": "<base64 without padding>"}`
    /// and links `{"$link": "<cid>"}`.
    public var json: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .string(let value): return .string(value)
        case .bytes(let data): return AtprotoDataModel.bytesObject(data)
        case .link(let cid): return .object(["$link": .string(cid.string)])
        case .array(let items): return .array(items.map(\.json))
        case .map(let entries): return .object(entries.mapValues(\.json))
        }
    }

    /// Reads a value in the data model's JSON form.
    ///
    /// An object whose only key is `$bytes` (a base64 string) becomes ``bytes(_:)``; one whose only
    /// key is `$link` (a CID string) becomes ``link(_:)``. A number written with a fraction or
    /// exponent is an integer if it is a whole number below 2^53 in magnitude (`123.0`); any other
    /// such number is an error, since the data model has no floats.
    ///
    /// - Throws: ``LexiconDecodingError`` naming the faulty value.
    public init(json: JSONValue) throws(LexiconDecodingError) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        case .number(let number):
            guard number.rounded(.towardZero) == number, abs(number) < 9.007_199_254_740_992e15 else {
                throw LexiconDecodingError(message: "floats are not allowed in the data model: \(number)")
            }
            self = .integer(Int(number))
        case .array(let items):
            var values: [AtprotoDataModelValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                do throws(LexiconDecodingError) {
                    values.append(try AtprotoDataModelValue(json: item))
                } catch {
                    throw error.nested(in: String(index))
                }
            }
            self = .array(values)
        case .object(let fields):
            if fields.count == 1, let special = try AtprotoDataModelValue.special(fields) {
                self = special
                return
            }
            var entries: [String: AtprotoDataModelValue] = [:]
            entries.reserveCapacity(fields.count)
            for (key, value) in fields {
                do throws(LexiconDecodingError) {
                    entries[key] = try AtprotoDataModelValue(json: value)
                } catch {
                    throw error.nested(in: key)
                }
            }
            self = .map(entries)
        }
    }

    /// The bytes or link that a one-key object stands for, or `nil` for an ordinary object.
    private static func special(_ fields: [String: JSONValue]) throws(LexiconDecodingError) -> AtprotoDataModelValue? {
        if fields["$bytes"] != nil {
            return .bytes(try AtprotoDataModel.bytesObject(.object(fields)).data)
        }
        if let link = fields["$link"] {
            guard case .string(let text) = link else {
                throw LexiconDecodingError(
                    .typeMismatch, path: ["$link"], message: "expected a CID string, found \(link.kindName)")
            }
            do {
                return .link(try CID(text))
            } catch {
                throw LexiconDecodingError(path: ["$link"], message: "not a valid CID: \(error)")
            }
        }
        return nil
    }
}
