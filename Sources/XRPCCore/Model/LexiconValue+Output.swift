import AtprotoData
import Foundation

// How each kind of lexicon value writes itself to a `LexiconJSONOutput`, as JSON text or as DAG-CBOR.

extension LexiconValue {
    /// Writes the value's JSON form (the default: through ``lexiconJSON``).
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(lexiconJSON)
    }

    /// The value as JSON text, written straight from it: the bytes of
    /// `lexiconJSON.serialized(sortedKeys: true)`; without sorting, keys in the order written.
    func lexiconJSONText(sortsKeys: Bool = true) -> [UInt8] {
        var output = LexiconJSONOutput(sortsKeys: sortsKeys)
        writeJSON(to: &output)
        return output.bytes
    }

    /// The value as canonical DAG-CBOR, written straight from it: the bytes of
    /// `DAGCBOR.encode(json: lexiconJSON)`.
    ///
    /// - Throws: `LexiconDecodingError` when the value is not in the data model (a float among its
    ///   unknown fields, a link that is not a CID, malformed `$bytes`).
    package func lexiconDAGCBOR() throws(LexiconDecodingError) -> [UInt8] {
        var output = LexiconJSONOutput(dagCBORMessage: false)
        writeJSON(to: &output)
        if let failure = output.failure { throw failure }
        return output.bytes
    }
}

extension LexiconValue {
    /// The value written straight as an event-stream message: as DAG-CBOR, the body with its `$type`
    /// taken out (returned beside it), the bytes of `DAGCBOR.encode(json:)` for the rest of its JSON
    /// form; as text, the whole message with sorted keys. `nil` when the value is not written field by
    /// field (a value kept as JSON, such as an unknown union member): its JSON form is then the way.
    ///
    /// - Throws: `LexiconDecodingError` when the message has no string `$type`, or is not in the data
    ///   model (DAG-CBOR).
    package func eventStreamMessage(
        asDAGCBOR: Bool
    ) throws(LexiconDecodingError) -> (type: String?, bytes: [UInt8])? {
        var output =
            asDAGCBOR ? LexiconJSONOutput(dagCBORMessage: true) : LexiconJSONOutput(sortsKeys: true, isMessage: true)
        writeJSON(to: &output)
        guard output.closedTopLevelObject else { return nil }
        if let failure = output.failure { throw failure }
        return (output.messageType, output.bytes)
    }
}

extension LexiconObject {
    /// Writes the object field by field, with no tree.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        var writer = LexiconObjectWriter(writingTo: &output)
        write(to: &writer)
        writer.finish(into: &output)
    }
}

extension LexiconRecord {
    /// Writes the record with its `$type` first, as ``lexiconJSON`` does.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        var writer = LexiconObjectWriter(writingTo: &output)
        writer.write("$type", Self.collection.rawValue)
        write(to: &writer)
        writer.finish(into: &output)
    }
}

extension LexiconStringValue {
    /// Writes the string.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(string: rawValue)
    }
}

extension String {
    /// Writes the string.
    @_spi(Generated) @inlinable public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(string: self)
    }
}

extension Int {
    /// Writes the integer.
    @_spi(Generated) @inlinable public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(integer: self)
    }
}

extension Bool {
    /// Writes the boolean.
    @_spi(Generated) @inlinable public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(bool: self)
    }
}

extension CIDLink {
    /// Writes the link: a link decoded from DAG-CBOR (or made from a `CID`) goes back to DAG-CBOR
    /// without its text form.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        if case .binary(let cid) = form {
            output.write(link: cid)
        } else {
            output.write(lexiconJSON)
        }
    }
}

extension LexiconBytes {
    /// Writes the bytes: as they are in DAG-CBOR, as `{"$bytes": ...}` in text.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(bytes: data, json: lexiconJSON)
    }
}

/// Writes a union member that is an object with its `$type` (unless it carries one of its own, kept
/// from reading): what ``lexiconUnionMemberJSON(_:type:)`` gives, with no tree. Generated unions call
/// it from their `writeJSON(to:)`.
@_spi(Generated) public func writeLexiconUnionMember<T: LexiconObject>(
    _ value: T, type: String, to output: inout LexiconJSONOutput
) {
    var writer = LexiconObjectWriter(writingTo: &output)
    value.write(to: &writer)
    writer.finish(into: &output, addingType: type)
}

/// Writes a union member that is a record: its `$type` is its collection.
@_spi(Generated) public func writeLexiconUnionMember<T: LexiconRecord>(
    _ value: T, type: String, to output: inout LexiconJSONOutput
) {
    value.writeJSON(to: &output)
}

/// Writes a union member of any other kind through its JSON form.
@_spi(Generated) public func writeLexiconUnionMember<T: LexiconValue>(
    _ value: T, type: String, to output: inout LexiconJSONOutput
) {
    output.write(lexiconUnionMemberJSON(value, type: type))
}
