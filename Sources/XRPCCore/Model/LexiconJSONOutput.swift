import AtprotoData
import Foundation

/// A lexicon value written straight from its generated type, with no `JSONValue` tree in between:
/// JSON text, or the same value in the data model as canonical DAG-CBOR. What a
/// ``LexiconObjectWriter`` writes to when it writes bytes (``LexiconEncoder``, `jsonData()`, request
/// and response bodies, the server's event-stream frames).
///
/// As text, the bytes are those of `value.lexiconJSON.serialized(sortedKeys:)`: with sorting on, each
/// object's members are written as the struct writes them, then put in the order of their keys' UTF-8
/// bytes when they are not in it already; without sorting, they stay in the order written. As
/// DAG-CBOR, the bytes are those of `DAGCBOR.encode(json: value.lexiconJSON)`: bytes and links in
/// their binary form, each map's members in canonical key order behind a header counting them.
/// Values without a writing of their own (blobs, unknown values) are written through their JSON form.
@_spi(Generated) public struct LexiconJSONOutput: Sendable {
    /// The bytes so far.
    @usableFromInline var bytes: [UInt8] = []
    /// Whether object keys are sorted by their UTF-8 bytes, as `serialized(sortedKeys: true)` sorts them.
    @usableFromInline let sortsKeys: Bool
    /// Whether values are written here: `false` in a writer that builds a tree.
    @usableFromInline let isActive: Bool
    /// Whether the bytes are DAG-CBOR instead of JSON text.
    @usableFromInline let writesDAGCBOR: Bool
    /// Whether the top-level object is an event-stream message: it must have a string `$type`, which
    /// DAG-CBOR takes out of it into ``messageType`` (a frame carries it in its header).
    @usableFromInline let isMessage: Bool
    /// The `$type` taken out of the top-level object of a message written as DAG-CBOR.
    @usableFromInline var messageType: String? = nil
    /// Whether the top-level object was written field by field and closed (a value written whole
    /// through its JSON form is not).
    @usableFromInline var closedTopLevelObject = false
    /// How many objects and arrays are open.
    @usableFromInline var depth = 0
    /// The first value that could not be written (DAG-CBOR has no floats; a link must be a CID).
    @usableFromInline var failure: LexiconDecodingError? = nil
    /// The members of the objects being written, the innermost object's last.
    @usableFromInline var members: [Member] = []
    /// Space reused for reordering an object's members.
    @usableFromInline var scratch: [UInt8] = []

    /// One member written: its key and where it lies in ``bytes`` (`"key":value`, or the key's
    /// string and the value in DAG-CBOR).
    @usableFromInline struct Member: Sendable {
        let key: String
        let start: Int
        var end: Int
    }

    /// An output that writes nothing (a tree writer's).
    @inlinable init() {
        sortsKeys = true
        isActive = false
        writesDAGCBOR = false
        isMessage = false
    }

    /// An output that writes text, keys sorted or in the order written; `isMessage` for an
    /// event-stream message.
    init(sortsKeys: Bool, isMessage: Bool = false) {
        self.sortsKeys = sortsKeys
        self.isActive = true
        self.writesDAGCBOR = false
        self.isMessage = isMessage
        bytes.reserveCapacity(1024)
    }

    /// An output that writes DAG-CBOR; with `isMessage`, the top-level object's `$type` is left out
    /// and kept in ``messageType``.
    init(dagCBORMessage isMessage: Bool) {
        self.sortsKeys = true
        self.isActive = true
        self.writesDAGCBOR = true
        self.isMessage = isMessage
        bytes.reserveCapacity(1024)
    }

    /// Writes a value as its JSON form would be written (as DAG-CBOR: that form read as the data model).
    @_spi(Generated) public mutating func write(_ json: JSONValue) {
        guard writesDAGCBOR else {
            json.write(to: &bytes, sortedKeys: sortsKeys)
            return
        }
        do throws(LexiconDecodingError) {
            DAGCBOR.append(try AtprotoDataModelValue(json: json), to: &bytes)
        } catch {
            fail(error)
        }
    }

    /// Writes a string.
    @usableFromInline mutating func write(string: String) {
        if writesDAGCBOR {
            DAGCBOR.appendText(string, to: &bytes)
        } else {
            JSONValue.string(string).write(to: &bytes, sortedKeys: false)
        }
    }

    /// Writes an integer.
    @usableFromInline mutating func write(integer: Int) {
        if writesDAGCBOR {
            DAGCBOR.appendInteger(integer, to: &bytes)
        } else {
            JSONValue.integer(integer).write(to: &bytes, sortedKeys: false)
        }
    }

    /// Writes a boolean.
    @usableFromInline mutating func write(bool: Bool) {
        if writesDAGCBOR {
            bytes.append(bool ? 0xF5 : 0xF4)
        } else {
            JSONValue.bool(bool).write(to: &bytes, sortedKeys: false)
        }
    }

    /// Writes a link: in DAG-CBOR its CID (tag 42), in text `{"$link": "..."}`.
    mutating func write(link: CID) {
        if writesDAGCBOR {
            DAGCBOR.appendLink(link, to: &bytes)
        } else {
            write(.object(["$link": .string(link.string)]))
        }
    }

    /// Writes bytes: in DAG-CBOR as a byte string, in text as `json` (their `{"$bytes": ...}` form).
    mutating func write(bytes data: Data, json: @autoclosure () -> JSONValue) {
        guard writesDAGCBOR else {
            write(json())
            return
        }
        DAGCBOR.appendHeader(major: 2, data.count, to: &bytes)
        bytes.append(contentsOf: data)
    }

    /// Keeps the first failure, with the key of the member being written (the innermost one still
    /// open) as its place.
    mutating func fail(_ error: LexiconDecodingError) {
        guard failure == nil else { return }
        failure = members.last { $0.end == $0.start }.map { error.nested(in: $0.key) } ?? error
    }

    /// Keeps the failure of a message without a string `$type`.
    private mutating func failForMissingType() {
        if failure == nil {
            failure = LexiconDecodingError(message: "an event-stream message must be an object with a string $type")
        }
    }

    /// Opens an array of `count` elements.
    @usableFromInline mutating func beginArray(count: Int) {
        depth += 1
        if writesDAGCBOR {
            DAGCBOR.appendHeader(major: 4, count, to: &bytes)
        } else {
            bytes.append(UInt8(ascii: "["))
        }
    }

    /// Separates an element from the one before it.
    @usableFromInline mutating func separateElement() {
        if !writesDAGCBOR { bytes.append(UInt8(ascii: ",")) }
    }

    /// Closes an array.
    @usableFromInline mutating func endArray() {
        depth -= 1
        if !writesDAGCBOR { bytes.append(UInt8(ascii: "]")) }
    }

    /// Opens an object; returns its first member's place among ``members``. (In DAG-CBOR the map's
    /// header, which counts the members, is written when the object closes.)
    @usableFromInline mutating func beginObject() -> Int {
        depth += 1
        if !writesDAGCBOR { bytes.append(UInt8(ascii: "{")) }
        return members.count
    }

    /// Writes the key of a member of the object opened at `object` (`"key":` in text); its value
    /// comes next.
    @usableFromInline mutating func beginMember(_ key: String, in object: Int) {
        if !writesDAGCBOR && members.count > object { bytes.append(UInt8(ascii: ",")) }
        let start = bytes.count
        write(string: key)
        if !writesDAGCBOR { bytes.append(UInt8(ascii: ":")) }
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
        let isTopLevel = depth == 1
        depth -= 1
        if writesDAGCBOR {
            endMap(object, isTopLevel: isTopLevel)
            return
        }
        if sortsKeys && members.count - object > 1 && !isSorted(from: object, by: JSONValue.keyPrecedes) {
            sortMembers(from: object)
        }
        if isTopLevel {
            closedTopLevelObject = true
            if isMessage && !hasMember("$type", in: object) {
                failForMissingType()
            }
        }
        members.removeSubrange(object...)
        bytes.append(UInt8(ascii: "}"))
    }

    private func isSorted(from object: Int, by precedes: (String, String) -> Bool) -> Bool {
        for index in (object + 1)..<members.count where !precedes(members[index - 1].key, members[index].key) {
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

    /// Closes a DAG-CBOR map: its header (the count) goes before its members, which are put in
    /// canonical key order when they are not in it already. A message's top-level `$type` is taken out.
    private mutating func endMap(_ object: Int, isTopLevel: Bool) {
        if isTopLevel { closedTopLevelObject = true }
        guard members.count > object else {
            if isMessage && isTopLevel {
                failForMissingType()
            }
            bytes.append(0xA0)
            return
        }
        let regionStart = members[object].start
        var taken: Int?
        if isMessage && isTopLevel {
            taken = members.firstIndex { $0.key == "$type" }
            guard let taken, let type = textValue(of: members[taken]) else {
                failForMissingType()
                members.removeSubrange(object...)
                return
            }
            messageType = type
        }
        let count = members.count - object - (taken == nil ? 0 : 1)
        if taken == nil && isSorted(from: object, by: DAGCBOR.keyPrecedes) {
            var header: [UInt8] = []
            DAGCBOR.appendHeader(major: 5, count, to: &header)
            bytes.insert(contentsOf: header, at: regionStart)
        } else {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[regionStart...])
            bytes.removeSubrange(regionStart...)
            DAGCBOR.appendHeader(major: 5, count, to: &bytes)
            var order = Array(members.indices.dropFirst(object))
            if let taken { order.removeAll { $0 == taken } }
            order.sort { DAGCBOR.keyPrecedes(members[$0].key, members[$1].key) }
            for index in order {
                bytes.append(
                    contentsOf: scratch[(members[index].start - regionStart)..<(members[index].end - regionStart)])
            }
        }
        members.removeSubrange(object...)
    }

    /// The text a `$type` member holds as its value, when it is a text string. (The member is the key
    /// as DAG-CBOR text, one header byte and five bytes, then the value.)
    private func textValue(of member: Member) -> String? {
        guard member.start + 6 < member.end,
            case .string(let text)? = try? DAGCBOR.decode(Array(bytes[(member.start + 6)..<member.end]))
        else { return nil }
        return text
    }
}
