/// A JSON value as it appears on the wire, before it is given a lexicon type.
///
/// `XRPCRuntime` parses every JSON body into this tree first; generated types read their fields
/// from it, and fields or union members they do not know stay here untouched, so writing a value
/// back reproduces what was read.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int)
    /// Any other number. The atproto data model has no floats; such values are kept, not interpreted.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order carries no meaning.
    case object([String: JSONValue])
}

extension JSONValue {
    /// A short name of the value's kind, used in error messages ("expected string, found integer").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The object's fields, or `nil` when the value is not an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The string, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}
