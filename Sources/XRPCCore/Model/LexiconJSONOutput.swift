import AtprotoData

/// JSON text written straight from lexicon values, with no `JSONValue` tree in between: what a
/// ``LexiconObjectWriter`` writes to when it writes text (``LexiconEncoder``, `jsonData()`, request
/// and response bodies).
///
/// The bytes are those of `value.lexiconJSON.serialized(sortedKeys:)`: with sorting on, each object's
/// members are written as the struct writes them, then put in the order of their keys' UTF-8 bytes
/// when they are not in it already; without sorting, they stay in the order written. Values without a
/// text writing of their own (unions, blobs, links) are written through their JSON form.
@_spi(Generated) public struct LexiconJSONOutput: Sendable {
    /// The text so far.
    @usableFromInline var bytes: [UInt8] = []
    /// Whether object keys are sorted by their UTF-8 bytes, as `serialized(sortedKeys: true)` sorts them.
    @usableFromInline let sortsKeys: Bool
    /// Whether values are written here: `false` in a writer that builds a tree.
    @usableFromInline let isActive: Bool
    /// The members of the objects being written, the innermost object's last.
    @usableFromInline var members: [Member] = []
    /// Space reused for reordering an object's members.
    @usableFromInline var scratch: [UInt8] = []

    /// One member written: its key and where `"key":value` lies in ``bytes``.
    @usableFromInline struct Member: Sendable {
        let key: String
        let start: Int
        var end: Int
    }

    /// An output that writes nothing (a tree writer's).
    @inlinable init() {
        sortsKeys = true
        isActive = false
    }

    /// An output that writes text, keys sorted or in the order written.
    init(sortsKeys: Bool) {
        self.sortsKeys = sortsKeys
        self.isActive = true
        bytes.reserveCapacity(1024)
    }

    /// Writes a value as its JSON form would be written.
    @usableFromInline mutating func write(_ json: JSONValue) {
        json.write(to: &bytes, sortedKeys: sortsKeys)
    }

    /// Opens an object; returns its first member's place among ``members``.
    @usableFromInline mutating func beginObject() -> Int {
        bytes.append(UInt8(ascii: "{"))
        return members.count
    }

    /// Writes `"key":` of a member of the object opened at `object`; its value comes next.
    @usableFromInline mutating func beginMember(_ key: String, in object: Int) {
        if members.count > object { bytes.append(UInt8(ascii: ",")) }
        let start = bytes.count
        JSONValue.string(key).write(to: &bytes, sortedKeys: false)
        bytes.append(UInt8(ascii: ":"))
        members.append(Member(key: key, start: start, end: start))
    }

    /// Marks the end of the member begun last.
    @usableFromInline mutating func endMember() {
        members[members.count - 1].end = bytes.count
    }

    /// Whether the object opened at `object` has a member `key`.
    func hasMember(_ key: String, in object: Int) -> Bool {
        members[object...].contains { $0.key == key }
    }

    /// Writes the fields a struct kept without knowing them, except those it wrote itself.
    @usableFromInline mutating func writeUnknown(_ unknown: [String: JSONValue], in object: Int) {
        for (key, value) in unknown where !hasMember(key, in: object) {
            beginMember(key, in: object)
            write(value)
            endMember()
        }
    }

    /// Closes the object opened at `object`, its members sorted when sorting is on.
    @usableFromInline mutating func endObject(_ object: Int) {
        if sortsKeys && members.count - object > 1 && !isSorted(from: object) { sortMembers(from: object) }
        members.removeSubrange(object...)
        bytes.append(UInt8(ascii: "}"))
    }

    private func isSorted(from object: Int) -> Bool {
        for index in (object + 1)..<members.count
        where !JSONValue.keyPrecedes(members[index - 1].key, members[index].key) {
            return false
        }
        return true
    }

    /// Rewrites the members from `object` on in the order of their keys.
    private mutating func sortMembers(from object: Int) {
        let regionStart = members[object].start
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[regionStart...])
        bytes.removeSubrange(regionStart...)
        let order = members[object...].sorted { JSONValue.keyPrecedes($0.key, $1.key) }
        for (position, member) in order.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: scratch[(member.start - regionStart)..<(member.end - regionStart)])
        }
    }
}

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
