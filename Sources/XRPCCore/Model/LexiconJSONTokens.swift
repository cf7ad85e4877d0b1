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
/// The tokens come from JSON text or from a decoded DAG-CBOR value (``LexiconValue/init(dataModel:)``),
/// where bytes and links are read as they were decoded, with no base64 or `$link` text in between.
@_spi(Generated) public struct LexiconJSONTokens: @unchecked Sendable {
    enum Source {
        case text(UnsafeMutablePointer<JSONTokenReader>)
        case dataModel(UnsafeMutablePointer<DataModelTokenReader>)
    }
    let source: Source
    /// Whether objects keep the fields their schema does not know.
    @usableFromInline let keepsUnknownFields: Bool

    /// Decodes a value of `type` from `bytes`, the whole text. The error thrown, if any, is the first
    /// problem met, not necessarily the one the tree path reports; ``decode(_:from:)`` reports that one.
    package static func decodeWithoutFallback<T: LexiconValue>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, keepsUnknownFields: Bool
    ) throws -> T {
        var reader = JSONTokenReader(bytes: bytes)
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            let tokens = LexiconJSONTokens(source: .text(pointer), keepsUnknownFields: keepsUnknownFields)
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

    /// Decodes a value of `type` from a decoded DAG-CBOR value, its bytes and links as decoded. The
    /// error thrown, if any, need not be the one the tree path reports.
    package static func decodeWithoutFallback<T: LexiconValue>(
        _ type: T.Type, fromDataModel value: AtprotoDataModelValue, keepsUnknownFields: Bool
    ) throws -> T {
        var reader = DataModelTokenReader(value)
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            try T(lexiconTokens: LexiconJSONTokens(source: .dataModel(pointer), keepsUnknownFields: keepsUnknownFields))
        }
    }

    /// Decodes a value of `type` from a decoded DAG-CBOR value, reporting any error as
    /// `T(lexiconJSON: value.json)` does (on an error the value is decoded that way).
    static func decode<T: LexiconValue>(_ type: T.Type, fromDataModel value: AtprotoDataModelValue) throws -> T {
        do {
            return try decodeWithoutFallback(
                T.self, fromDataModel: value, keepsUnknownFields: LexiconDecoder.keepsUnknownFields)
        } catch {
            return try T(lexiconJSON: value.json)
        }
    }

    /// Decodes a value of `type` from an event-stream message's decoded body with its `$type` beside
    /// it, as ``decodeWithoutFallback(_:fromDataModel:keepsUnknownFields:)`` decodes the body with
    /// `$type` set, without copying the body to set it. `body` must have no `$type` of its own.
    package static func decodeWithoutFallback<T: LexiconValue>(
        _ type: T.Type, fromMessageBody body: [String: AtprotoDataModelValue], type messageType: String,
        keepsUnknownFields: Bool
    ) throws -> T {
        var reader = DataModelTokenReader(body: body, type: messageType)
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            try T(lexiconTokens: LexiconJSONTokens(source: .dataModel(pointer), keepsUnknownFields: keepsUnknownFields))
        }
    }

    /// ``decodeWithoutFallback(_:fromMessageBody:type:keepsUnknownFields:)``, reporting any error as
    /// `T(lexiconJSON:)` of the body with `$type` set does (on an error the body is decoded that way).
    static func decode<T: LexiconValue>(
        _ type: T.Type, fromMessageBody body: [String: AtprotoDataModelValue], type messageType: String
    ) throws -> T {
        do {
            return try decodeWithoutFallback(
                T.self, fromMessageBody: body, type: messageType, keepsUnknownFields: LexiconDecoder.keepsUnknownFields)
        } catch {
            var body = body
            body["$type"] = .string(messageType)
            return try T(lexiconJSON: AtprotoDataModelValue.map(body).json)
        }
    }

    /// ``decode(_:from:)-(_,UnsafeBufferPointer<UInt8>)`` for bytes in a `Data`.
    static func decode<T: LexiconValue>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { raw in try decode(T.self, from: raw.assumingMemoryBound(to: UInt8.self)) }
    }

    // MARK: Values

    /// Reads the next value whole, as a tree.
    @usableFromInline func readJSONValue() throws -> JSONValue {
        switch source {
        case .text(let reader): return try reader.pointee.readValue()
        case .dataModel(let reader): return reader.pointee.readValue()
        }
    }

    @usableFromInline func readString() throws -> String {
        let string: String?
        switch source {
        case .text(let reader): string = try reader.pointee.readString()
        case .dataModel(let reader): string = reader.pointee.readString()
        }
        guard let string else { throw Self.mismatch("string") }
        return string
    }

    /// Reads bytes as decoded from DAG-CBOR; `nil` (reading nothing) from text or for other values.
    func readDecodedBytes() -> Data? {
        guard case .dataModel(let reader) = source else { return nil }
        return reader.pointee.readBytes()
    }

    /// Reads a link as decoded from DAG-CBOR; `nil` (reading nothing) from text or for other values.
    func readDecodedLink() -> CID? {
        guard case .dataModel(let reader) = source else { return nil }
        return reader.pointee.readLink()
    }

    /// Reads a blob of the current form as decoded from DAG-CBOR; `nil` (reading nothing) otherwise.
    func readDecodedBlob() -> (ref: CID, mimeType: String, size: Int)? {
        guard case .dataModel(let reader) = source else { return nil }
        return reader.pointee.readBlob()
    }

    @usableFromInline func readInt() throws -> Int {
        let number: JSONValue?
        switch source {
        case .text(let reader): number = try reader.pointee.readNumber()
        case .dataModel(let reader): number = reader.pointee.readInteger().map(JSONValue.integer)
        }
        switch number {
        case .integer(let value)?:
            return value
        case .number(let value)? where value.rounded() == value && abs(value) < 9.007_199_254_740_992e15:
            return Int(value)
        default:
            throw Self.mismatch("integer")
        }
    }

    @usableFromInline func readBool() throws -> Bool {
        let value: Bool?
        switch source {
        case .text(let reader): value = try reader.pointee.readBool()
        case .dataModel(let reader): value = reader.pointee.readBool()
        }
        guard let value else { throw Self.mismatch("boolean") }
        return value
    }

    /// Reads a `null` and returns `true`, or returns `false` when the next value is something else.
    @usableFromInline func readNull() throws -> Bool {
        switch source {
        case .text(let reader): return try reader.pointee.readNull()
        case .dataModel(let reader): return reader.pointee.readNull()
        }
    }

    // MARK: Arrays

    @usableFromInline func beginArray() throws {
        let began: Bool
        switch source {
        case .text(let reader): began = try reader.pointee.beginArray()
        case .dataModel(let reader): began = reader.pointee.beginArray()
        }
        guard began else { throw Self.mismatch("array") }
    }

    /// Moves to the next element and returns `true`, or reads the end of the array.
    @usableFromInline func nextElement(first: Bool) throws -> Bool {
        switch source {
        case .text(let reader): return try reader.pointee.nextElement(first: first)
        case .dataModel(let reader): return reader.pointee.nextElement()
        }
    }

    // MARK: Objects

    @usableFromInline func beginObject() throws {
        let began: Bool
        switch source {
        case .text(let reader): began = try reader.pointee.beginObject()
        case .dataModel(let reader): began = reader.pointee.beginObject()
        }
        guard began else { throw Self.mismatch("object") }
    }

    /// Moves to the value of the open object's member `key` and says what is there (a `null` is read).
    /// One call per field, for what three calls found.
    @usableFromInline func seekField(_ key: String) throws -> LexiconTokenField {
        guard case .text(let reader) = source else { return seekDecodedField(key) }
        guard let slot = try reader.pointee.seekMember(key) else {
            return LexiconTokenField(slot: -1, isNull: false, isOutOfOrder: false)
        }
        let isNull = try reader.pointee.readNull()
        return LexiconTokenField(slot: slot, isNull: isNull, isOutOfOrder: reader.pointee.isReadingOutOfOrder)
    }

    private func seekDecodedField(_ key: String) -> LexiconTokenField {
        guard case .dataModel(let reader) = source, let slot = reader.pointee.seekMember(key) else {
            return LexiconTokenField(slot: -1, isNull: false, isOutOfOrder: false)
        }
        return LexiconTokenField(slot: slot, isNull: reader.pointee.readNull(), isOutOfOrder: false)
    }

    /// Returns to the text after a member read out of order (checking that it was read whole).
    @usableFromInline func endMember() throws {
        if case .text(let reader) = source { try reader.pointee.endMember() }
    }

    @usableFromInline func keepUnread(_ slot: Int) {
        switch source {
        case .text(let reader): reader.pointee.keepUnread(slot)
        case .dataModel(let reader): reader.pointee.keepUnread(slot)
        }
    }

    /// The open object's members not read, read to its end; an error is kept for ``closeObject()``.
    @usableFromInline func remainingFields() -> [String: JSONValue] {
        switch source {
        case .dataModel(let reader):
            return reader.pointee.finishObject(collecting: keepsUnknownFields)
        case .text(let reader):
            do {
                return try reader.pointee.finishObject(collecting: keepsUnknownFields)
            } catch {
                reader.pointee.deferredError = error
                return [:]
            }
        }
    }

    @usableFromInline func closeObject() throws {
        guard case .text(let reader) = source else {
            if case .dataModel(let reader) = source { reader.pointee.closeObject() }
            return
        }
        if let error = reader.pointee.deferredError { throw error }
        try reader.pointee.closeObject()
    }

    // MARK: Unions

    /// The `$type` of the object that is the next value, read without moving.
    func peekType() throws -> String? {
        switch source {
        case .text(let reader): return try reader.pointee.peekType()
        case .dataModel(let reader): return reader.pointee.peekType()
        }
    }

    /// A place to return to, to read a value again as a tree.
    enum Mark {
        case text(JSONTokenReader.Mark)
        case dataModel(DataModelTokenReader.Mark)
    }

    var mark: Mark {
        switch source {
        case .text(let reader): return .text(reader.pointee.mark)
        case .dataModel(let reader): return .dataModel(reader.pointee.mark)
        }
    }

    func rewind(to mark: Mark) {
        switch (source, mark) {
        case (.text(let reader), .text(let mark)): reader.pointee.rewind(to: mark)
        case (.dataModel(let reader), .dataModel(let mark)): reader.pointee.rewind(to: mark)
        default: break
        }
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
