/// `JSONValue` as a `Codable` value, so it can sit inside types read and written by `JSONDecoder` and
/// `JSONEncoder` (or any other coder).
///
/// The runtime itself reads and writes JSON with ``JSONValue/parse(_:)-(Data)`` and
/// ``JSONValue/serialized(sortedKeys:)``, which keep the difference between `1` and `1.0`. Through
/// `Codable` that difference depends on the coder: `JSONDecoder` reads `1.0` and `1e2` as
/// ``JSONValue/integer(_:)``, and `JSONEncoder` writes `.number(1.0)` as `1`.
extension JSONValue: Codable {
    /// Reads whichever JSON kind the decoder holds, trying null, boolean, integer, number, string,
    /// array and object in that order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let fields = try? container.decode([String: JSONValue].self) {
            self = .object(fields)
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
