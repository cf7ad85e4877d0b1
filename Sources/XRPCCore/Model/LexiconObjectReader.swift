import AtprotoData

/// Reads the fields of one JSON object into a generated struct.
///
/// The reader notes each field the struct reads, so what remains after the struct has read its
/// schema's fields are the fields it does not know (``remainingFields``), which the struct keeps for
/// writing back. The object's fields are only looked up, never copied: when the struct knows every
/// field present (the common case), keeping the unknown ones costs nothing. Inside
/// ``LexiconDecoder/droppingUnknownFields(_:)`` the reader notes nothing and keeps nothing.
///
/// A reader over ``LexiconJSONTokens`` (decoding from bytes) reads each field from the text as the
/// struct asks for it, and builds as trees only the fields left for ``remainingFields``.
@_spi(Generated) public struct LexiconObjectReader: Sendable {
    @usableFromInline let fields: [String: JSONValue]
    /// The text, when reading from it instead of from `fields`.
    @usableFromInline let tokens: LexiconJSONTokens?
    /// For objects of at most ``scanLimit`` fields: the positions (in the dictionary's order) of the
    /// fields read, one bit each.
    @usableFromInline var readPositions: UInt32 = 0
    /// The position of the field read last, so that it can be un-noted.
    @usableFromInline var lastReadPosition = 0
    /// For larger objects: the keys read.
    @usableFromInline var readKeys = ReadKeys()
    @usableFromInline let keepsUnknownFields: Bool

    /// Objects up to this many fields are looked up by comparing keys in turn, which costs less than
    /// hashing the key (a short key compares as two words), and note their reads as bits.
    @usableFromInline static var scanLimit: Int { 16 }

    /// Creates a reader over an object's fields.
    public init(fields: [String: JSONValue]) {
        self.fields = fields
        self.tokens = nil
        self.keepsUnknownFields = LexiconDecoder.keepsUnknownFields
    }

    /// Creates a reader over the object that is the next value of `tokens`, reading its opening brace;
    /// ``LexiconJSONTokens/closeObject()`` reads the rest once the struct has read its fields.
    @usableFromInline init(tokens: LexiconJSONTokens) throws {
        try tokens.beginObject()
        self.fields = [:]
        self.tokens = tokens
        self.keepsUnknownFields = tokens.keepsUnknownFields
    }

    /// The fields not read: the ones the schema does not know, once the struct has read its own.
    /// Empty when decoding drops unknown fields.
    public var remainingFields: [String: JSONValue] {
        if let tokens { return tokens.remainingFields() }
        guard keepsUnknownFields else { return [:] }
        guard fields.count <= Self.scanLimit else { return remainingOfLargeObject }
        let readCount = readPositions.nonzeroBitCount
        if readCount == fields.count { return [:] }
        if readCount == 0 { return fields }
        var remaining = [String: JSONValue](minimumCapacity: fields.count - readCount)
        var position = 0
        for (key, value) in fields {
            if readPositions & (1 << position) == 0 { remaining[key] = value }
            position += 1
        }
        return remaining
    }

    private var remainingOfLargeObject: [String: JSONValue] {
        guard readKeys.count < fields.count else { return [:] }
        if readKeys.count == 0 { return fields }
        return fields.filter { !readKeys.contains($0.key) }
    }

    /// Looks a field up and notes it as read.
    @inlinable mutating func take(_ key: String) -> JSONValue? {
        guard fields.count <= Self.scanLimit else {
            guard let value = fields[key] else { return nil }
            if keepsUnknownFields { readKeys.append(key) }
            return value
        }
        var index = fields.startIndex
        var position = 0
        while index != fields.endIndex {
            if fields.keys[index] == key {
                if keepsUnknownFields {
                    readPositions |= 1 << position
                    lastReadPosition = position
                }
                return fields.values[index]
            }
            fields.formIndex(after: &index)
            position += 1
        }
        return nil
    }

    /// Un-notes the field read last, so it stays among the unknown fields (a `null` where none is allowed).
    @inlinable mutating func keepLastAsUnknown() {
        guard keepsUnknownFields else { return }
        if fields.count <= Self.scanLimit {
            readPositions &= ~(1 << lastReadPosition)
        } else {
            readKeys.removeLast()
        }
    }

    /// Reads a field the schema requires. Absent or `null` is an error.
    @inlinable public mutating func required<T: LexiconValue>(_ key: String) throws -> T {
        if let tokens {
            let field = try tokens.seekField(key)
            guard field.slot >= 0, !field.isNull else { throw LexiconJSONTokens.mismatch("field \(key)") }
            let value = try T(lexiconTokens: tokens)
            if field.isOutOfOrder { try tokens.endMember() }
            return value
        }
        guard let json = take(key) else {
            throw LexiconDecodingError(.missingField, path: [key], message: "required field is missing")
        }
        if case .null = json {
            throw LexiconDecodingError(.typeMismatch, path: [key], message: "required field is null but not nullable")
        }
        return try decoding(at: key) { try T(lexiconJSON: json) }
    }

    /// Reads an optional field: absent gives `nil`. A `null` (not allowed for a field that is not
    /// nullable) also gives `nil`, and stays among the unknown fields so it is written back as read.
    @inlinable public mutating func optional<T: LexiconValue>(_ key: String) throws -> T? {
        if let tokens {
            let field = try tokens.seekField(key)
            guard field.slot >= 0 else { return nil }
            if field.isNull {
                tokens.keepUnread(field.slot)
                if field.isOutOfOrder { try tokens.endMember() }
                return nil
            }
            let value = try T(lexiconTokens: tokens)
            if field.isOutOfOrder { try tokens.endMember() }
            return value
        }
        guard let json = take(key) else { return nil }
        if case .null = json {
            keepLastAsUnknown()
            return nil
        }
        return try decoding(at: key) { try T(lexiconJSON: json) }
    }

    /// Reads an optional field that has a lexicon `default`: absent (or a stray `null`, kept among the
    /// unknown fields) reads as `defaultValue`, and the key is added to `absentKeys` so that writing
    /// can leave it out again (``LexiconObjectWriter/write(_:_:default:absentKeys:)``).
    @inlinable public mutating func optional<T: LexiconValue>(
        _ key: String,
        default defaultValue: T,
        absentKeys: inout Set<String>
    ) throws -> T {
        if let value: T = try optional(key) { return value }
        absentKeys.insert(key)
        return defaultValue
    }

    /// Reads a field that is required and nullable: it must be present, and may be `null` (`nil`).
    @inlinable public mutating func requiredNullable<T: LexiconValue>(_ key: String) throws -> T? {
        if let tokens {
            let field = try tokens.seekField(key)
            guard field.slot >= 0 else { throw LexiconJSONTokens.mismatch("field \(key)") }
            let value: T? = field.isNull ? nil : try T(lexiconTokens: tokens)
            if field.isOutOfOrder { try tokens.endMember() }
            return value
        }
        guard let json = take(key) else {
            throw LexiconDecodingError(.missingField, path: [key], message: "required field is missing")
        }
        if case .null = json { return nil }
        return try decoding(at: key) { try T(lexiconJSON: json) }
    }

    /// Reads a field that is optional and nullable: absent (`nil`), `null` (`.null`) or a value.
    @inlinable public mutating func optionalNullable<T: LexiconValue>(_ key: String) throws -> LexiconNullable<T>? {
        if let tokens {
            let field = try tokens.seekField(key)
            guard field.slot >= 0 else { return nil }
            let value: LexiconNullable<T> = field.isNull ? .null : .value(try T(lexiconTokens: tokens))
            if field.isOutOfOrder { try tokens.endMember() }
            return value
        }
        guard let json = take(key) else { return nil }
        if case .null = json { return .null }
        return try decoding(at: key) { .value(try T(lexiconJSON: json)) }
    }
}

/// Writes the fields of a generated struct into a JSON object, or as JSON text straight into a
/// ``LexiconJSONOutput`` (the writer then keeps no `fields`).
@_spi(Generated) public struct LexiconObjectWriter: Sendable {
    /// The fields written so far (when building a tree).
    public var fields: [String: JSONValue]
    /// Where text is written, when it is (``LexiconJSONOutput/isActive``).
    @usableFromInline var output: LexiconJSONOutput
    /// The object's first member among the output's members.
    @usableFromInline var object = 0

    /// Creates an empty writer.
    @inlinable public init() {
        self.fields = [:]
        self.output = LexiconJSONOutput()
    }

    /// A writer that takes `output` over, opening an object in it; ``finish(into:)`` closes the object
    /// and hands the output back.
    init(writingTo output: inout LexiconJSONOutput) {
        self.fields = [:]
        self.output = LexiconJSONOutput()
        swap(&self.output, &output)
        object = self.output.beginObject()
    }

    /// Closes the object and hands the output back.
    mutating func finish(into output: inout LexiconJSONOutput) {
        self.output.endObject(object)
        swap(&self.output, &output)
    }

    /// Closes the object of a union member, adding `$type` when the object did not write one (from
    /// the fields it kept as read), and hands the output back.
    mutating func finish(into output: inout LexiconJSONOutput, addingType type: String) {
        if !self.output.hasMember("$type", in: object) { write("$type", type) }
        finish(into: &output)
    }

    /// Writes a field. (The writes are inlinable, as the reader's reads are: generated modules then
    /// specialize them for their field types instead of calling them generically.)
    @inlinable public mutating func write<T: LexiconValue>(_ key: String, _ value: T) {
        guard output.isActive else {
            fields[key] = value.lexiconJSON
            return
        }
        output.beginMember(key, in: object)
        value.writeJSON(to: &output)
        output.endMember()
    }

    /// Writes a field when it has a value; `nil` writes nothing.
    @inlinable public mutating func write<T: LexiconValue>(_ key: String, _ value: T?) {
        if let value { write(key, value) }
    }

    /// Writes a field that has a lexicon `default`. A field that was absent when read and still holds
    /// the default is left out, so data written back is the data read; any other value is written.
    @inlinable public mutating func write<T: LexiconValue>(
        _ key: String, _ value: T, default defaultValue: T, absentKeys: Set<String>
    ) {
        if absentKeys.contains(key) && value == defaultValue { return }
        write(key, value)
    }

    /// Writes a required nullable field: `nil` is written as `null`.
    @inlinable public mutating func writeNullable<T: LexiconValue>(_ key: String, _ value: T?) {
        if let value { write(key, value) } else { writeNull(key) }
    }

    /// Writes an optional nullable field: `nil` writes nothing, `.null` writes `null`.
    @inlinable public mutating func write<T: LexiconValue>(_ key: String, _ value: LexiconNullable<T>?) {
        switch value {
        case nil: break
        case .null?: writeNull(key)
        case .value(let wrapped)?: write(key, wrapped)
        }
    }

    @usableFromInline mutating func writeNull(_ key: String) {
        guard output.isActive else {
            fields[key] = .null
            return
        }
        output.beginMember(key, in: object)
        output.write(.null)
        output.endMember()
    }

    /// Writes the fields a struct kept from reading without knowing them. Known fields win.
    @inlinable public mutating func writeUnknown(_ unknown: [String: JSONValue]) {
        guard !unknown.isEmpty else { return }
        guard output.isActive else {
            for (key, value) in unknown where fields[key] == nil {
                fields[key] = value
            }
            return
        }
        output.writeUnknown(unknown, in: object)
    }
}

/// A value of an optional and nullable field, present either as `null` or as a value.
///
/// Such a field is `LexiconNullable<T>?`: `nil` means absent, `.null` means present as JSON `null`.
public enum LexiconNullable<Wrapped: LexiconValue>: Sendable, Hashable {
    /// Present as `null`.
    case null
    /// Present with a value.
    case value(Wrapped)

    /// The value, or `nil` for `.null`.
    public var wrapped: Wrapped? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension LexiconDecoder {
    @TaskLocal static var keepsUnknownFields = true

    /// Runs `body` with decoding that drops the fields a schema does not know instead of keeping them
    /// in `unknownFields`.
    ///
    /// For data an app only reads and never writes back, this saves the memory of the unknown fields
    /// and a little time. Values decoded this way write back without those fields: do not use it for
    /// records that are read, edited and put back. Unknown union members are still kept whole.
    public static func droppingUnknownFields<T>(_ body: () throws -> T) rethrows -> T {
        try $keepsUnknownFields.withValue(false, operation: body)
    }
}
