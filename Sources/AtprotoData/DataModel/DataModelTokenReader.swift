import Foundation

/// Reads a decoded DAG-CBOR value (an ``AtprotoDataModelValue``) value by value, with the operations of
/// ``JSONTokenReader``, for typed readers that know what they expect: strings, integers, arrays and
/// maps are taken from the tree as they are, and bytes and links are handed over as they were decoded
/// (``readBytes()``, ``readLink()``). Only what a typed reader does not take (unknown members,
/// `unknown` values) is converted to the JSON form, where bytes become `{"$bytes": ...}` and links
/// `{"$link": ...}`.
///
/// The value was checked when it was decoded (canonical DAG-CBOR, no duplicate keys), so reading
/// it meets no syntax errors: a value of the wrong kind reads as `nil` or `false`, and the caller
/// reports the mismatch.
///
/// Not copyable, as ``JSONTokenReader`` is not: typed readers reach it through a pointer, and a read
/// that does not move it (``readString()``, ``readNull()``, ...) then borrows it in place, where a
/// copyable one was copied whole (its value and its stacks retained and released) at every read.
package struct DataModelTokenReader: ~Copyable {
    /// A map open: its entries and the members read.
    ///
    /// A map of up to ``scanLimit`` members (nearly all) is searched by comparing keys in turn,
    /// which costs less than hashing the key, and its reads are bits by position (the slot); a
    /// larger one is looked up by hash, and its slots index `readKeys`.
    struct MapFrame {
        let entries: [String: AtprotoDataModelValue]
        var readBits: UInt64 = 0
        /// For a large map, the keys read in the order sought; a slot given back is `nil`.
        var readKeys: [String?] = []
        var readCount = 0
        /// A `$type` the map is read with beside its entries (``init(body:type:)``), and whether it was read.
        var extraType: String?
        var extraRead = false
    }

    static var scanLimit: Int { 64 }

    /// The slot of a map's `$type` given beside its entries.
    static var extraSlot: Int { Int.max }

    /// The value the next read takes.
    var next: AtprotoDataModelValue
    /// The arrays open, innermost last: the elements and the index of the next. (Typed readers
    /// nest their reads, so arrays and maps keep stacks of their own.)
    var arrays: [(items: [AtprotoDataModelValue], next: Int)] = []
    /// The maps open, innermost last.
    var maps: [MapFrame] = []
    /// The `$type` the first value (a map) is read with beside its entries (``init(body:type:)``).
    let rootType: String?
    /// Whether `next` is that first value.
    var nextIsRoot = false

    /// Reads `value`.
    package init(_ value: AtprotoDataModelValue) {
        next = value
        rootType = nil
    }

    /// Reads the map `body` with `$type` set to `type`, as ``init(_:)`` reads that map, without
    /// copying `body` to set it: an event-stream message's body, whose type comes in the frame's
    /// header. `body` must have no `$type` of its own.
    package init(body: [String: AtprotoDataModelValue], type: String) {
        next = .map(body)
        rootType = type
        nextIsRoot = true
    }

    // MARK: Scalars

    /// Reads a string, or returns `nil` when the next value is not one.
    // Not inlined into callers across modules: Swift 6.3.1 crashes (SIL ownership verifier, CopyPropagation)
    // on these reads of a borrowed `pointee` inlined into `LexiconJSONTokens` in an optimized build with
    // sanitizers (the fuzz build). The call costs next to nothing beside the value's switch.
    @inline(never)
    package func readString() -> String? {
        if case .string(let string) = next { return string }
        return nil
    }

    /// Reads an integer, or returns `nil`.
    @inline(never)
    package func readInteger() -> Int? {
        if case .integer(let value) = next { return value }
        return nil
    }

    /// Reads `true` or `false`, or returns `nil`.
    @inline(never)
    package func readBool() -> Bool? {
        if case .bool(let value) = next { return value }
        return nil
    }

    /// Whether the next value is `null` (which is then read).
    @inline(never)
    package func readNull() -> Bool {
        if case .null = next { return true }
        return false
    }

    /// Reads a byte string as the bytes it is, or returns `nil`.
    @inline(never)
    package func readBytes() -> Data? {
        if case .bytes(let data) = next { return data }
        return nil
    }

    /// Reads a link as the CID it is, or returns `nil`.
    @inline(never)
    package func readLink() -> CID? {
        if case .link(let cid) = next { return cid }
        return nil
    }

    /// Reads a blob in its current form (`$type` `blob`, a link `ref`, a string `mimeType` and an
    /// integer `size`; other members ignored, as blobs read them), or returns `nil`.
    @inline(never)
    package func readBlob() -> (ref: CID, mimeType: String, size: Int)? {
        guard case .map(let entries) = next, entries["$type"] == .string("blob"), case .link(let ref)? = entries["ref"],
            case .string(let mimeType)? = entries["mimeType"], case .integer(let size)? = entries["size"]
        else { return nil }
        return (ref, mimeType, size)
    }

    /// Reads the next value whole, in the data model's JSON form.
    @inline(never)
    package func readValue() -> JSONValue {
        let json = next.json
        guard nextIsRoot, let rootType, case .object(var fields) = json else { return json }
        fields["$type"] = .string(rootType)
        return .object(fields)
    }

    // MARK: Arrays

    /// Opens the array that is the next value, or returns `false` when the next value is not one.
    package mutating func beginArray() -> Bool {
        guard case .array(let items) = next else { return false }
        arrays.append((items, 0))
        return true
    }

    /// Moves to the open array's next element and returns `true`, or closes the array and returns
    /// `false` after its last element.
    package mutating func nextElement() -> Bool {
        guard let top = arrays.indices.last else { return false }
        let index = arrays[top].next
        guard index < arrays[top].items.count else {
            arrays.removeLast()
            return false
        }
        arrays[top].next = index + 1
        next = arrays[top].items[index]
        nextIsRoot = false
        return true
    }

    // MARK: Maps

    /// Opens the map that is the next value, which becomes the one ``seekMember(_:)`` looks in until
    /// ``closeObject()``; returns `false` when the next value is not a map.
    package mutating func beginObject() -> Bool {
        guard case .map(let entries) = next else { return false }
        var frame = MapFrame(entries: entries)
        if nextIsRoot { frame.extraType = rootType }
        maps.append(frame)
        return true
    }

    /// Moves to the value of the open map's member `name` and returns the member's slot, or returns
    /// `nil` when the map has no such member.
    package mutating func seekMember(_ name: String) -> Int? {
        guard let top = maps.indices.last else { return nil }
        if let type = maps[top].extraType, name == "$type" {
            maps[top].extraRead = true
            next = .string(type)
            nextIsRoot = false
            return Self.extraSlot
        }
        let entries = maps[top].entries
        guard entries.count <= Self.scanLimit else {
            guard let value = entries[name] else { return nil }
            maps[top].readKeys.append(name)
            maps[top].readCount += 1
            next = value
            nextIsRoot = false
            return maps[top].readKeys.count - 1
        }
        var index = entries.startIndex
        var position = 0
        while index != entries.endIndex {
            if entries.keys[index] == name {
                maps[top].readBits |= 1 &<< UInt64(position)
                maps[top].readCount += 1
                next = entries.values[index]
                nextIsRoot = false
                return position
            }
            entries.formIndex(after: &index)
            position += 1
        }
        return nil
    }

    /// Counts the member in `slot` as not read, so that it is among the unknown fields.
    package mutating func keepUnread(_ slot: Int) {
        guard let top = maps.indices.last, slot >= 0 else { return }
        if slot == Self.extraSlot {
            maps[top].extraRead = false
            return
        }
        if maps[top].entries.count <= Self.scanLimit {
            guard slot < Self.scanLimit, maps[top].readBits & (1 &<< UInt64(slot)) != 0 else { return }
            maps[top].readBits &= ~(1 &<< UInt64(slot))
        } else {
            guard slot < maps[top].readKeys.count, maps[top].readKeys[slot] != nil else { return }
            maps[top].readKeys[slot] = nil
        }
        maps[top].readCount -= 1
    }

    /// The open map's members not read, in the JSON form (none when `collecting` is `false`).
    @inline(never)
    package func finishObject(collecting: Bool) -> [String: JSONValue] {
        guard collecting, let frame = maps.last else { return [:] }
        let extra = frame.extraRead ? nil : frame.extraType
        guard frame.readCount < frame.entries.count || extra != nil else { return [:] }
        var fields = [String: JSONValue](
            minimumCapacity: frame.entries.count - frame.readCount + (extra == nil ? 0 : 1))
        if let extra { fields["$type"] = .string(extra) }
        guard frame.entries.count <= Self.scanLimit else {
            var read = Set<String>(minimumCapacity: frame.readCount)
            for case let key? in frame.readKeys { read.insert(key) }
            for (key, value) in frame.entries where !read.contains(key) { fields[key] = value.json }
            return fields
        }
        var position: UInt64 = 0
        for (key, value) in frame.entries {
            if frame.readBits & (1 &<< position) == 0 { fields[key] = value.json }
            position += 1
        }
        return fields
    }

    /// Closes the open map.
    package mutating func closeObject() {
        if !maps.isEmpty { maps.removeLast() }
    }

    /// The `$type` of the map that is the next value, when it has one that is a string.
    @inline(never)
    package func peekType() -> String? {
        if nextIsRoot, let rootType { return rootType }
        return next["$type"]?.stringValue
    }

    // MARK: Returning

    /// A place to return to after a value failed to read as a type, to read it as a tree instead.
    package struct Mark {
        let next: AtprotoDataModelValue
        let arrayCount: Int
        let mapCount: Int
        let nextIsRoot: Bool
    }

    /// Where the reader is now.
    package var mark: Mark {
        Mark(next: next, arrayCount: arrays.count, mapCount: maps.count, nextIsRoot: nextIsRoot)
    }

    /// Returns to `mark`, forgetting the arrays and maps opened since.
    package mutating func rewind(to mark: Mark) {
        next = mark.next
        nextIsRoot = mark.nextIsRoot
        if arrays.count > mark.arrayCount { arrays.removeSubrange(mark.arrayCount...) }
        if maps.count > mark.mapCount { maps.removeSubrange(mark.mapCount...) }
    }
}
