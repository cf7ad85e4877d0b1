import AtprotoSyntax
import Foundation

/// JSON text that is not valid: what is wrong and where.
public struct JSONParseError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input ends inside a value: an unterminated string, array or object, or no value at all.
        public static let unexpectedEnd: Code = "unexpectedEnd"
        /// A character JSON does not allow there: a stray byte, a trailing comma, a comment, a
        /// misspelt literal.
        public static let unexpectedCharacter: Code = "unexpectedCharacter"
        /// Something after the complete value.
        public static let trailingData: Code = "trailingData"
        /// A string with an unescaped control character, an invalid escape or an unpaired surrogate.
        public static let invalidString: Code = "invalidString"
        /// A string that is not valid UTF-8.
        public static let invalidUTF8: Code = "invalidUTF8"
        /// A number JSON does not allow (leading zeros, a missing digit) or too large for a `Double`.
        public static let invalidNumber: Code = "invalidNumber"
        /// The same key twice in an object, which the atproto data model forbids.
        public static let duplicateKey: Code = "duplicateKey"
        /// Arrays and objects nested deeper than the parser allows.
        public static let tooDeep: Code = "tooDeep"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// What is wrong, for a person to read.
    public var message: String
    /// Where, in bytes from the start of the input.
    public var offset: Int
    /// Where: the 1-based line, counting `\n` line breaks.
    public var line: Int
    /// Where: the 1-based column within ``line``, counting Unicode scalars.
    public var column: Int

    /// Creates an error at the given position.
    public init(_ code: Code, offset: Int, line: Int, column: Int, message: String) {
        self.code = code
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The error as `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects that ``parse(_:)-(Data)`` accepts (the default of
    /// ``parse(_:maximumDepth:)``, which takes another).
    public static let maximumParseDepth = 512

    /// Parses JSON text (RFC 8259, strictly) into a value.
    ///
    /// Rejects comments, trailing commas, leading zeros, unescaped control characters, invalid escapes,
    /// unpaired surrogates, invalid UTF-8, anything after the value, duplicate object keys (which the
    /// atproto data model forbids), numbers too large for a `Double`, and nesting deeper than
    /// ``maximumParseDepth``. A number without fraction or exponent that fits in 64 bits becomes
    /// ``integer(_:)``; every other number becomes ``number(_:)``.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try data.withUnsafeBytes { raw in
            JSONTextParser.parse(raw.assumingMemoryBound(to: UInt8.self))
        }.get()
    }

    /// Parses JSON text given as UTF-8 bytes; see ``parse(_:)-(Data)``.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({ JSONTextParser.parse($0) }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { JSONTextParser.parse($0) }.get()
    }

    /// Parses JSON text given as a string; see ``parse(_:)-(Data)``.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { JSONTextParser.parse($0) }.get()
    }

    /// Parses JSON text given as UTF-8 bytes with a nesting limit of the caller's choosing (for input
    /// that should be shallower than ``maximumParseDepth``, or an app's own deeper data); otherwise as
    /// ``parse(_:)-(Data)``. Nesting deeper than `maximumDepth` levels is a ``JSONParseError`` at the
    /// bracket that opens the level too many, found before anything deeper is read.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({
            JSONTextParser.parse($0, maximumDepth: maximumDepth)
        }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { JSONTextParser.parse($0, maximumDepth: maximumDepth) }.get()
    }
}

/// A stack of values with manual storage, so closing a container moves its elements out without
/// retaining and releasing each one.
struct MoveStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` on into an array.
    mutating func popArray(from start: Int) -> [Element] {
        let length = count - start
        let source = base + start
        count = start
        return [Element](unsafeUninitializedCapacity: length) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            target.moveInitialize(from: source, count: length)
            initialized = length
        }
    }

    /// Moves the last element out. The stack must not be empty.
    mutating func popLast() -> Element {
        count -= 1
        return (base + count).move()
    }

    /// Moves one element out; the caller must then call ``dropMoved(from:through:)``.
    mutating func move(at index: Int) -> Element { (base + index).move() }

    /// Forgets the elements from `start` on, of which those up to `last` were moved out already.
    mutating func dropMoved(from start: Int, through last: Int) {
        (base + last + 1).deinitialize(count: count - last - 1)
        count = start
    }
}

/// An open array or object while parsing.
struct OpenContainer {
    var isObject: Bool
    /// Where its elements (or member values) start on the value stack.
    var valueStart: Int
    /// Where its member keys start on the key stack.
    var keyStart: Int
}

enum ASCII {
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F, comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A, minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30, nine: UInt8 = 0x39, lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D, openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
}

/// A strict, non-recursive JSON parser over a buffer of UTF-8 bytes.
struct JSONTextParser: ~Copyable {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var values = MoveStack<JSONValue>(capacity: 64)
    var keys = MoveStack<(key: String, offset: Int)>(capacity: 32)
    var open: [OpenContainer] = []
    /// Reused storage for strings that contain escapes.
    var scratch: [UInt8] = []

    /// The deepest nesting accepted.
    var maximumDepth: Int

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONValue.maximumParseDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONValue.maximumParseDepth
    ) -> Result<JSONValue, JSONParseError> {
        var parser = JSONTextParser(bytes: bytes, maximumDepth: maximumDepth)
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error(.trailingData, "unexpected \(describe(bytes[index])) after the JSON value", at: index)
        }
        return value
    }

    /// Parses one value, holding open containers on explicit stacks instead of recursing.
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        nextValue: while true {
            guard index < bytes.count else {
                throw error(.unexpectedEnd, "unexpected end of input, expected a value", at: index)
            }
            let byte = bytes[index]
            if byte == ASCII.openBrace || byte == ASCII.openBracket {
                guard open.count < maximumDepth else {
                    throw error(.tooDeep, "nesting is deeper than \(maximumDepth) levels", at: index)
                }
                let isObject = byte == ASCII.openBrace
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    index += 1
                    values.push(isObject ? .object([:]) : .array([]))
                } else {
                    open.append(OpenContainer(isObject: isObject, valueStart: values.count, keyStart: keys.count))
                    if isObject { try parseMemberKey(afterComma: nil) }
                    continue nextValue
                }
            } else {
                values.push(try parseScalar(byte))
            }
            // A value is complete: close the containers it completes, or move on to the next element.
            while let container = open.last {
                skipWhitespace()
                let close = container.isObject ? ASCII.closeBrace : ASCII.closeBracket
                guard index < bytes.count else {
                    throw error(
                        .unexpectedEnd, "unexpected end of input, expected ',' or '\(UnicodeScalar(close))'", at: index)
                }
                let next = bytes[index]
                if next == ASCII.comma {
                    let comma = index
                    index += 1
                    skipWhitespace()
                    if container.isObject {
                        try parseMemberKey(afterComma: comma)
                    } else if index < bytes.count, bytes[index] == ASCII.closeBracket {
                        throw error(.unexpectedCharacter, "trailing comma before ']'", at: comma)
                    }
                    continue nextValue
                }
                guard next == close else {
                    let expected = container.isObject ? "',' or '}' after an object member" : "',' or ']'"
                    throw error(.unexpectedCharacter, "unexpected \(describe(next)), expected \(expected)", at: index)
                }
                index += 1
                open.removeLast()
                if container.isObject {
                    values.push(.object(try popObject(container)))
                } else {
                    values.push(.array(values.popArray(from: container.valueStart)))
                }
            }
            return values.popLast()
        }
    }

    /// Parses `"key" :` and the whitespace after it.
    mutating func parseMemberKey(afterComma comma: Int?) throws(JSONParseError) {
        guard index < bytes.count, bytes[index] == ASCII.quote else {
            if let comma, index < bytes.count, bytes[index] == ASCII.closeBrace {
                throw error(.unexpectedCharacter, "trailing comma before '}'", at: comma)
            }
            let found = index < bytes.count ? describe(bytes[index]) : "end of input"
            throw error(
                index < bytes.count ? .unexpectedCharacter : .unexpectedEnd,
                "unexpected \(found), expected a string key", at: index)
        }
        let offset = index
        keys.push((try parseString(), offset))
        skipWhitespace()
        guard index < bytes.count, bytes[index] == ASCII.colon else {
            let found = index < bytes.count ? describe(bytes[index]) : "end of input"
            throw error(
                index < bytes.count ? .unexpectedCharacter : .unexpectedEnd,
                "unexpected \(found), expected ':' after an object key", at: index)
        }
        index += 1
        skipWhitespace()
    }

    mutating func popObject(_ container: OpenContainer) throws(JSONParseError) -> [String: JSONValue] {
        let count = values.count - container.valueStart
        var fields = [String: JSONValue](minimumCapacity: count)
        for member in 0..<count {
            let (key, offset) = keys.move(at: container.keyStart + member)
            let value = values.move(at: container.valueStart + member)
            if fields.updateValue(value, forKey: key) != nil {
                keys.dropMoved(from: container.keyStart, through: container.keyStart + member)
                values.dropMoved(from: container.valueStart, through: container.valueStart + member)
                throw error(.duplicateKey, "duplicate object key \"\(key)\"", at: offset)
            }
        }
        keys.dropMoved(from: container.keyStart, through: keys.count - 1)
        values.dropMoved(from: container.valueStart, through: values.count - 1)
        return fields
    }

    mutating func parseScalar(_ byte: UInt8) throws(JSONParseError) -> JSONValue {
        switch byte {
        case ASCII.quote: return .string(try parseString())
        case ASCII.minus, ASCII.zero...ASCII.nine: return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case ASCII.slash: throw error(.unexpectedCharacter, "comments are not allowed in JSON", at: index)
        default: throw error(.unexpectedCharacter, "unexpected \(describe(byte)), expected a value", at: index)
        }
    }

    mutating func parseLiteral(_ literal: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length,
            UnsafeBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(
                UnsafeBufferPointer(start: literal.utf8Start, count: length))
        else { throw error(.unexpectedCharacter, "invalid literal, expected '\(literal)'", at: index) }
        index += length
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        while index < bytes.count, case let digit = bytes[index] &- ASCII.zero, digit < 10 {
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount > 0 else { throw error(.invalidNumber, "expected a digit after '-'", at: index) }
        if bytes[digitsStart] == ASCII.zero, digitCount > 1 {
            throw error(.invalidNumber, "leading zeros are not allowed in numbers", at: digitsStart)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == ASCII.dot {
            index += 1
            guard skipDigits() else {
                throw error(.invalidNumber, "expected a digit after the decimal point", at: index)
            }
            isInteger = false
        }
        if index < bytes.count, bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE {
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            guard skipDigits() else { throw error(.invalidNumber, "expected a digit in the exponent", at: index) }
            isInteger = false
        }
        if isInteger {
            if digitCount <= 18 { return .integer(negative ? -Int(magnitude) : Int(magnitude)) }
            if let exact = exactInteger(digitsStart, negative: negative) { return .integer(exact) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw error(.invalidNumber, "number \(text) is out of range", at: start)
        }
        return .number(double)
    }

    /// Skips a run of digits, returning whether there was at least one.
    mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] &- ASCII.zero < 10 { index += 1 }
        return index > start
    }

    /// The integer whose digits run from `start` to `index`, or `nil` when it does not fit in an `Int`.
    func exactInteger(_ start: Int, negative: Bool) -> Int? {
        var magnitude: UInt64 = 0
        for position in start..<index {
            let (product, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carried) = product.addingReportingOverflow(UInt64(bytes[position] &- ASCII.zero))
            if overflowed || carried { return nil }
            magnitude = sum
        }
        if !negative { return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil }
        return magnitude <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- magnitude) : nil
    }
}
