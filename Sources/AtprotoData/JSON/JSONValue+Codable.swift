/// `JSONValue` as a `Codable` value, so it can sit inside types read and written by `JSONDecoder` and
/// `JSONEncoder` (or any other coder).
///
/// The runtime itself reads and writes JSON with ``JSONValue/parse(_:)-(Data)`` and
/// ``JSONValue/serialized(sortedKeys:)``, which keep the difference between `1` and `1.0`. Through
/// `Codable` that difference depends on the coder: `JSONDecoder` reads `1.0` and `1e2` as
/// ``JSONValue/integer(_:)``, and `JSONEncoder` writes `.number(1.0)` as `1`.
extension JSONValue: Codable {
    /// Reads whichever JSON kind the decoder holds.
    ///
    /// A `Decoder` cannot say which kind it holds, so each wrong guess costs a thrown error; the
    /// guesses go by how often each kind occurs in atproto data: string, object, array, integer,
    /// boolean, number. (Generated types read through this, so `JSONDecoder` on them works; the fast
    /// path is `LexiconDecoder` (XRPCCore) or `init(jsonData:)`, which skip `Codable` altogether.)
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let object = try? decoder.container(keyedBy: JSONKey.self) {
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(object.allKeys.count)
            for key in object.allKeys {
                fields[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(fields)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Writes the value as the matching JSON kind. A ``number(_:)`` that is not finite is written as a
    /// `Double`, which `JSONEncoder` rejects unless given a non-conforming float strategy.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let fields): try container.encode(fields)
        }
    }
}

/// Any key of a JSON object, for reading objects through `Codable`.
private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
