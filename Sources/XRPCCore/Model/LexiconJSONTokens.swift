import AtprotoData
import Foundation

// @unchecked Sendable: it points at a reader used by one thread inside one decoding call, never shared.
/// JSON text being read straight into lexicon values, with no `JSONValue` tree in between: the
/// source generated types read from when they are decoded from bytes (``LexiconDecoder``,
/// ``LexiconValue/init(jsonData:)``, XRPC responses).
///
/// Values read their own JSON from it (``LexiconValue/init(lexiconTokens:)``); objects read their
/// fields through a ``LexiconObjectReader`` over it. Only what no type takes (unknown fields, `unknown`
/// values, open-union members of types not listed) is built as a tree.
///
/// It points at a reader that lives only for one decoding call and is used by one thread, inside
/// that call; it is `Sendable` only so that ``LexiconObjectReader`` stays `Sendable`.
@_spi(Generated) public struct LexiconJSONTokens: @unchecked Sendable {
    let reader: UnsafeMutablePointer<JSONTokenReader>
    /// Whether objects keep the fields their schema does not know.
    @usableFromInline let keepsUnknownFields: Bool

    /// Decodes a value of `type` from `bytes`, the whole text. The error thrown, if any, is the first
    /// problem met, not necessarily the one the tree path reports; ``decode(_:from:)`` reports that one.
    package static func decodeWithoutFallback<T: LexiconValue>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, keepsUnknownFields: Bool
    ) throws -> T {
        var reader = JSONTokenReader(bytes: bytes)
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            let tokens = LexiconJSONTokens(reader: pointer, keepsUnknownFields: keepsUnknownFields)
            let value = try T(lexiconTokens: tokens)
            try pointer.pointee.end()
            return value
        }
    }

    /// Decodes a value of `type` from JSON bytes, reporting any error as the tree path
    /// (`T(lexiconJSON: JSONValue.parse(bytes))`) does: on an error the bytes are decoded that way.
    static func decode<T: LexiconValue>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        do {
            return try decodeWithoutFallback(
                T.self, from: bytes, keepsUnknownFields: LexiconDecoder.keepsUnknownFields)
        } catch {
            return try T(lexiconJSON: JSONValue.parse(bytes))
        }
    }

    /// ``decode(_:from:)-(_,UnsafeBufferPointer<UInt8>)`` for bytes in a `Data`.
    static func decode<T: LexiconValue>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { raw in try decode(T.self, from: raw.assumingMemoryBound(to: UInt8.self)) }
    }

    // MARK: Values

    /// Reads the next value whole, as a tree.
    @usableFromInline func readJSONValue() throws -> JSONValue {
        try reader.pointee.readValue()
    }

    @usableFromInline func readString() throws -> String {
        guard let string = try reader.pointee.readString() else { throw Self.mismatch("string") }
        return string
    }

    @usableFromInline func readInt() throws -> Int {
        switch try reader.pointee.readNumber() {
        case .integer(let value)?:
            return value
        case .number(let value)? where value.rounded() == value && abs(value) < 9.007_199_254_740_992e15:
            return Int(value)
        default:
            throw Self.mismatch("integer")
        }
    }

    @usableFromInline func readBool() throws -> Bool {
        guard let value = try reader.pointee.readBool() else { throw Self.mismatch("boolean") }
        return value
    }

    /// Reads a `null` and returns `true`, or returns `false` when the next value is something else.
    @usableFromInline func readNull() throws -> Bool {
        try reader.pointee.readNull()
    }

    // MARK: Arrays

    @usableFromInline func beginArray() throws {
        guard try reader.pointee.beginArray() else { throw Self.mismatch("array") }
    }

    /// Moves to the next element and returns `true`, or reads the end of the array.
    @usableFromInline func nextElement(first: Bool) throws -> Bool {
        try reader.pointee.nextElement(first: first)
    }

    // MARK: Objects

    @usableFromInline func beginObject() throws {
        guard try reader.pointee.beginObject() else { throw Self.mismatch("object") }
    }

    /// Moves to the value of the open object's member `key` and says what is there (a `null` is read).
    /// One call per field, for what three calls found.
    @usableFromInline func seekField(_ key: String) throws -> LexiconTokenField {
        guard let slot = try reader.pointee.seekMember(key) else {
            return LexiconTokenField(slot: -1, isNull: false, isOutOfOrder: false)
        }
        let isNull = try reader.pointee.readNull()
        return LexiconTokenField(slot: slot, isNull: isNull, isOutOfOrder: reader.pointee.isReadingOutOfOrder)
    }

    /// Returns to the text after a member read out of order (checking that it was read whole).
    @usableFromInline func endMember() throws {
        try reader.pointee.endMember()
    }

    @usableFromInline func keepUnread(_ slot: Int) {
        reader.pointee.keepUnread(slot)
    }

    /// The open object's members not read, read to its end; an error is kept for ``closeObject()``.
    @usableFromInline func remainingFields() -> [String: JSONValue] {
        do {
            return try reader.pointee.finishObject(collecting: keepsUnknownFields)
        } catch {
            reader.pointee.deferredError = error
            return [:]
        }
    }

    @usableFromInline func closeObject() throws {
        if let error = reader.pointee.deferredError { throw error }
        try reader.pointee.closeObject()
    }

    // MARK: Unions

    /// The `$type` of the object that is the next value, read without moving.
    func peekType() throws -> String? {
        try reader.pointee.peekType()
    }

    var mark: JSONTokenReader.Mark { reader.pointee.mark }

    func rewind(to mark: JSONTokenReader.Mark) {
        reader.pointee.rewind(to: mark)
    }

    @usableFromInline static func mismatch(_ expected: String) -> LexiconDecodingError {
        LexiconDecodingError(.typeMismatch, message: "expected \(expected)")
    }
}

/// Where ``LexiconJSONTokens/seekField(_:)`` found a field.
@usableFromInline struct LexiconTokenField {
    /// The member's slot, or -1 when the object has no such member.
    @usableFromInline let slot: Int
    /// Whether the value is `null` (and has been read).
    @usableFromInline let isNull: Bool
    /// Whether the member was found among those skipped: ``LexiconJSONTokens/endMember()`` must follow
    /// its value.
    @usableFromInline let isOutOfOrder: Bool
}

extension LexiconValue {
    /// Reads the value whole as a tree and then from that: what types do that have no reading of
    /// their own from tokens.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        try self.init(lexiconJSON: tokens.readJSONValue())
    }
}

extension LexiconObject {
    /// Reads the object's fields through a ``LexiconObjectReader`` over the tokens.
    @_spi(Generated) @inlinable public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        var reader = try LexiconObjectReader(tokens: tokens)
        try self.init(reading: &reader)
        try tokens.closeObject()
    }
}

extension LexiconStringValue {
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self.init(rawValue: try tokens.readString())
    }
}

extension LexiconStringFormat where Self: LexiconValue {
    /// Reads a JSON string; its syntax is not checked here.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self.init(rawValue: try tokens.readString())
    }
}

extension String {
    @_spi(Generated) @inlinable public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self = try tokens.readString()
    }
}

extension Int {
    @_spi(Generated) @inlinable public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self = try tokens.readInt()
    }
}

extension Bool {
    @_spi(Generated) @inlinable public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self = try tokens.readBool()
    }
}

extension Array where Element: LexiconValue {
    /// Reads each element from the tokens.
    @_spi(Generated) @inlinable public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        try tokens.beginArray()
        var result: [Element] = []
        var first = true
        while try tokens.nextElement(first: first) {
            first = false
            result.append(try Element(lexiconTokens: tokens))
        }
        self = result
    }
}

extension JSONValue {
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self = try tokens.readJSONValue()
    }
}

extension LexiconUnknownValue {
    /// Keeps the value as read, built as a tree.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        self.init(try tokens.readJSONValue())
    }
}
