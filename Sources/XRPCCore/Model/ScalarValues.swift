import AtprotoData

extension String: LexiconValue {
    public init(lexiconJSON json: JSONValue) throws {
        guard case .string(let string) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "string", found: json)
        }
        self = string
    }

    public var lexiconJSON: JSONValue { .string(self) }
}

extension Int: LexiconValue {
    /// Reads an integer; a number with a zero fraction (`3.0`) counts as an integer, as in the data model.
    public init(lexiconJSON json: JSONValue) throws {
        switch json {
        case .integer(let value):
            self = value
        case .number(let value) where value.rounded() == value && abs(value) < 9.007_199_254_740_992e15:
            self = Int(value)
        default:
            throw LexiconDecodingError.typeMismatch(expected: "integer", found: json)
        }
    }

    public var lexiconJSON: JSONValue { .integer(self) }
}

extension Bool: LexiconValue {
    public init(lexiconJSON json: JSONValue) throws {
        guard case .bool(let value) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "boolean", found: json)
        }
        self = value
    }

    public var lexiconJSON: JSONValue { .bool(self) }
}

extension Array: LexiconValue where Element: LexiconValue {
    public init(lexiconJSON json: JSONValue) throws {
        guard case .array(let items) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "array", found: json)
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try decoding(at: String(index)) { try Element(lexiconJSON: item) })
        }
        self = result
    }

    public var lexiconJSON: JSONValue { .array(map(\.lexiconJSON)) }
}

extension JSONValue: LexiconValue {
    public init(lexiconJSON json: JSONValue) throws {
        self = json
    }

    public var lexiconJSON: JSONValue { self }
}

extension Array: XRPCBody where Element: LexiconValue {}
