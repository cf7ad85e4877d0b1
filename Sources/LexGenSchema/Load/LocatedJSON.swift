/// A JSON value that remembers where it was in its file, so diagnostics can point at it.
package struct JSONNode: Sendable {
    /// A JSON value; objects keep their key order, which the generator uses for stable output.
    package indirect enum Value: Sendable {
        case null
        case bool(Bool)
        /// A number, with its source text and whether it is written as an integer.
        case number(text: String, integer: Int?)
        case string(String)
        case array([JSONNode])
        case object([(key: String, value: JSONNode)])
    }

    package var value: Value
    /// Byte offset of the node's first character in the file.
    package var offset: Int

    /// A name of the value's kind, for messages.
    package var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    package var stringValue: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    package var objectFields: [(key: String, value: JSONNode)]? {
        if case .object(let fields) = value { return fields }
        return nil
    }

    package var arrayItems: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    /// The value of a key of an object node, when the node is an object that has it.
    subscript(key: String) -> JSONNode? {
        guard case .object(let fields) = value else { return nil }
        return fields.first { $0.key == key }?.value
    }
}

/// A JSON syntax error at a byte offset.
package struct JSONSyntaxError: Error, Sendable {
    package var message: String
    package var offset: Int
}

/// Maps byte offsets of one file to 1-based line and column numbers.
package struct LineTable: Sendable {
    private var lineStarts: [Int] = [0]

    package init(_ bytes: [UInt8]) {
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lineStarts.append(index + 1)
        }
    }

    /// The line and column of a byte offset.
    package func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }
}

/// A small strict JSON parser that records the byte offset of every node.
package struct LocatedJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = LocatedJSONParser(bytes: bytes)
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw JSONSyntaxError(message: "unexpected text after the JSON value", offset: parser.index)
        }
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: offset ?? index)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw fail("unexpected end of file") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + length <= bytes.count && bytes[index..<index + length].elementsEqual(expected)
        }
        guard matches else { throw fail("invalid literal") }
        index += length
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 256 { throw fail("nesting deeper than 256 levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        try enter()
        index += 1
        var fields: [(key: String, value: JSONNode)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONNode(value: .object(fields), offset: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in object")
            }
            let keyOffset = index
            let key = try parseString()
            guard seen.insert(key).inserted else { throw fail("duplicate key \"\(key)\"", at: keyOffset) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            fields.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file in object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in object") }
            index += 1
            depth -= 1
            return JSONNode(value: .object(fields), offset: start)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        try enter()
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONNode(value: .array(items), offset: start)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file in array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in array") }
            index += 1
            depth -= 1
            return JSONNode(value: .array(items), offset: start)
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digitsStart else { throw fail("invalid number", at: start) }
        if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 {
            throw fail("leading zero in number", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw fail("invalid number", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponentStart else { throw fail("invalid number", at: start) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return JSONNode(value: .number(text: text, integer: isInteger ? Int(text) : nil), offset: start)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw fail("control character in string") }
            if byte == UInt8(ascii: "\\") {
                flushRun(index)
                index += 1
                guard index < bytes.count else { break }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
                default: throw fail("invalid escape in string", at: index - 2)
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw fail("unterminated string", at: start)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw fail("invalid \\u escape") }
            value = value * 16 + UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("unpaired surrogate in \\u escape") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw fail("invalid surrogate pair in \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw fail("unpaired surrogate in \\u escape") }
        return scalar
    }
}
