import AtprotoData

extension String: LexiconValue {
    @inlinable public init(lexiconJSON json: JSONValue) throws {
        guard case .string(let string) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "string", found: json)
        }
        self = string
    }

    public var lexiconJSON: JSONValue { .string(self) }
}

extension Int: LexiconValue {
    /// Reads an integer; a number with a zero fraction (`3.0`) counts as an integer, as in the data model.
    @inlinable public init(lexiconJSON json: JSONValue) throws {
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
    @inlinable public init(lexiconJSON json: JSONValue) throws {
        guard case .bool(let value) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "boolean", found: json)
        }
        self = value
    }

    public var lexiconJSON: JSONValue { .bool(self) }
}

extension Array: LexiconValue where Element: LexiconValue {
    /// Reads each element; an error names the element's index in its path. (The index is written
    /// out only for an error: formatting it for every element cost as much as reading a small one.)
    @inlinable public init(lexiconJSON json: JSONValue) throws {
        guard case .array(let items) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "array", found: json)
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for index in items.indices {
            do {
                result.append(try Element(lexiconJSON: items[index]))
            } catch let error as LexiconDecodingError {
                throw error.nested(in: String(index))
            }
        }
        self = result
    }

    // A closure, not the key path `\.lexiconJSON`: through the generic element, a key path is projected
    // at run time (`swift_getAtKeyPath`), which cost two thirds of writing a 50-post feed skeleton;
    // inlinable, as the reading side is, so generated modules specialize it for their element types.
    @inlinable public var lexiconJSON: JSONValue { .array(map { $0.lexiconJSON }) }

    /// Writes each element, with no tree (inlinable for the same reason).
    @_spi(Generated) @inlinable public func writeJSON(to output: inout LexiconJSONOutput) {
        output.beginArray(count: count)
        for index in indices {
            if index > startIndex { output.separateElement() }
            self[index].writeJSON(to: &output)
        }
        output.endArray()
    }
}

extension JSONValue: LexiconValue {
    public init(lexiconJSON json: JSONValue) throws {
        self = json
    }

    public var lexiconJSON: JSONValue { self }
}

extension Array: XRPCBody where Element: LexiconValue {}
