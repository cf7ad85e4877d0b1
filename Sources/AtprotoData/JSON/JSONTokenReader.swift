// Reading JSON text value by value, for typed decoding without a JSONValue tree.

/// Reads JSON text one value at a time, for typed readers that know what they expect: strings,
/// numbers, arrays and objects are read straight from the bytes, and only what a typed reader does not
/// take (unknown members, `unknown` values) is built into a `JSONValue`.
///
/// An object's members are read in the order a typed reader asks for them. A member asked for before
/// the members that precede it in the text is found by skipping those, whose place is kept so they
/// are read when asked for (or collected as unknown members) without scanning from the start again.
///
/// It accepts exactly the text ``JSONValue/parse(_:)-(Data)`` accepts, in the end. Skipping only finds
/// where a value ends (strings, brackets, the run of a number or literal); every skipped value is read
/// later, as a type, as an unknown member or (when unknown members are dropped) just to check it, and
/// must end where the skip ended. Errors are thrown at the first problem met, which need not be the
/// first in the text; callers that report errors parse the text again as a tree to report the same
/// error as the tree path.
package struct JSONTokenReader: ~Copyable {
    var text: JSONTextParser
    /// The members of the objects open, innermost last.
    var spans: UnsafeMutablePointer<JSONMemberSpan>
    var spanCapacity = 16
    var spanCount = 0
    /// The innermost object open, and the ones around it.
    var current = JSONObjectFrame(memberBase: 0)
    var outer: [JSONObjectFrame] = []
    /// Arrays and objects open, read by typed readers.
    var depth = 0
    /// An error met where it could not be thrown, to throw at the next chance.
    package var deferredError: JSONParseError?
    /// The keys written with escapes, decoded, by where they start.
    var escapedKeys: [Int: String] = [:]

    /// Reads `bytes`, which must stay valid while the reader is used.
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        text = JSONTextParser(bytes: bytes)
        spans = .allocate(capacity: spanCapacity)
        text.skipWhitespace()
    }

    deinit {
        spans.deallocate()
    }

    @inline(__always) mutating func push(_ span: JSONMemberSpan) {
        if spanCount == spanCapacity { growSpans() }
        (spans + spanCount).initialize(to: span)
        spanCount += 1
    }

    @inline(never) private mutating func growSpans() {
        let grown = UnsafeMutablePointer<JSONMemberSpan>.allocate(capacity: spanCapacity * 2)
        grown.initialize(from: spans, count: spanCount)
        spans.deallocate()
        spans = grown
        spanCapacity *= 2
    }

    /// Skips whitespace, calling the parser's loop only when there is some.
    @inline(__always) mutating func skipSpace() {
        if text.index < text.bytes.count, text.bytes[text.index] <= 0x20 { text.skipWhitespace() }
    }

    /// The position in the text.
    package var position: Int {
        get { text.index }
        set { text.index = newValue }
    }

    /// Checks that nothing but whitespace follows the value read.
    package mutating func end() throws(JSONParseError) {
        text.skipWhitespace()
        guard text.index == text.bytes.count else {
            throw text.error(.trailingData, "unexpected data after the JSON value", at: text.index)
        }
    }

    /// The byte the next value starts with, or 0 at the end.
    var next: UInt8 { text.index < text.bytes.count ? text.bytes[text.index] : 0 }

    // MARK: Scalars

    /// Reads a string, or returns `nil` (reading nothing) when the next value is not one.
    package mutating func readString() throws(JSONParseError) -> String? {
        guard next == ASCII.quote else { return nil }
        return try text.parseString()
    }

    /// Reads a number as ``JSONValue/integer(_:)`` or ``JSONValue/number(_:)``, or returns `nil`.
    package mutating func readNumber() throws(JSONParseError) -> JSONValue? {
        let byte = next
        guard byte == ASCII.minus || byte &- ASCII.zero < 10 else { return nil }
        return try text.parseNumber()
    }

    /// Reads `true` or `false`, or returns `nil`.
    package mutating func readBool() throws(JSONParseError) -> Bool? {
        switch next {
        case UInt8(ascii: "t"): return try text.parseLiteral("true", .bool(true)) == .bool(true)
        case UInt8(ascii: "f"): return try text.parseLiteral("false", .bool(false)) == .bool(true)
        default: return nil
        }
    }

    /// Whether the next value is `null`; it is read when it is.
    package mutating func readNull() throws(JSONParseError) -> Bool {
        guard next == UInt8(ascii: "n") else { return false }
        _ = try text.parseLiteral("null", .null)
        return true
    }

    /// Reads the next value whole, as a tree.
    package mutating func readValue() throws(JSONParseError) -> JSONValue {
        text.open.removeAll(keepingCapacity: true)
        text.maximumDepth = JSONValue.maximumParseDepth - depth
        return try text.parseValue()
    }

    // MARK: Arrays

    /// Reads the opening bracket of an array, or returns `false` when the next value is not one.
    package mutating func beginArray() throws(JSONParseError) -> Bool {
        guard next == ASCII.openBracket else { return false }
        try enter()
        text.index += 1
        skipSpace()
        return true
    }

    /// Moves to the array's next element and returns `true`, or reads its closing bracket and returns
    /// `false`. `first` is whether no element has been read yet.
    package mutating func nextElement(first: Bool) throws(JSONParseError) -> Bool {
        if !first { skipSpace() }
        guard text.index < text.bytes.count else {
            throw text.error(.unexpectedEnd, "unexpected end of input, expected ',' or ']'", at: text.index)
        }
        if text.bytes[text.index] == ASCII.closeBracket {
            text.index += 1
            depth -= 1
            return false
        }
        if !first {
            guard text.bytes[text.index] == ASCII.comma else {
                throw text.error(.unexpectedCharacter, "expected ',' or ']'", at: text.index)
            }
            text.index += 1
            skipSpace()
        }
        return true
    }

    mutating func enter() throws(JSONParseError) {
        guard depth < JSONValue.maximumParseDepth else {
            throw text.error(.tooDeep, "nesting is deeper than \(JSONValue.maximumParseDepth) levels", at: text.index)
        }
        depth += 1
    }

    // MARK: Objects

    /// Reads the opening brace of an object, which becomes the one ``seekMember(_:)`` looks in until
    /// ``closeObject()``; returns `false` (reading nothing) when the next value is not an object.
    package mutating func beginObject() throws(JSONParseError) -> Bool {
        guard next == ASCII.openBrace else { return false }
        try enter()
        text.index += 1
        skipSpace()
        outer.append(current)
        current = JSONObjectFrame(memberBase: spanCount)
        if next == ASCII.closeBrace {
            text.index += 1
            current.isEnded = true
        }
        return true
    }

    /// Moves to the value of the open object's member `name` and returns the member's slot, or returns
    /// `nil` when the object has no such member. Call ``endMember()`` after reading the value.
    package mutating func seekMember(_ name: String) throws(JSONParseError) -> Int? {
        let key = JSONMemberKey(name)
        if current.unreadCount > 0, current.unreadKeys & key.bit != 0 {
            var slot = current.memberBase
            while slot < spanCount {
                let span = spans + slot
                if !span.pointee.isRead && matches(span, key) {
                    span.pointee.isRead = true
                    current.unreadCount -= 1
                    current.resume = text.index
                    current.resumeSlot = slot
                    text.index = span.pointee.valueStart
                    return slot
                }
                slot += 1
            }
        }
        while try nextMember() {
            let slot = spanCount - 1
            if matches(spans + slot, key) {
                spans[slot].isRead = true
                return slot
            }
            try skipValue()
            spans[slot].valueEnd = text.index
            noteUnread(slot)
        }
        return nil
    }

    @inline(__always) mutating func noteUnread(_ slot: Int) {
        let span = spans + slot
        current.unreadCount += 1
        current.unreadKeys |= JSONMemberKey.bit(prefix: span.pointee.keyPrefix, length: Int(span.pointee.keyLength))
    }

    /// Whether the member being read was found among those skipped (``endMember()`` then returns).
    package var isReadingOutOfOrder: Bool { current.resume >= 0 }

    /// Returns to the text after the value of a member read out of order, checking that the value
    /// read is the value skipped.
    package mutating func endMember() throws(JSONParseError) {
        guard current.resume >= 0 else { return }
        guard text.index == spans[current.resumeSlot].valueEnd else {
            throw text.error(.unexpectedCharacter, "unexpected data after a value", at: text.index)
        }
        text.index = current.resume
        current.resume = -1
    }

    /// Counts the member in `slot`, whose value was just read, as not read, so that it is among the
    /// unknown fields (a `null` where the schema allows none).
    package mutating func keepUnread(_ slot: Int) {
        guard spans[slot].isRead else { return }
        spans[slot].isRead = false
        if spans[slot].valueEnd < 0 { spans[slot].valueEnd = text.index }
        noteUnread(slot)
    }

    /// Reads the open object to its end, checks its keys, and returns the members not read, built as
    /// trees (or checks and drops them when `collecting` is `false`).
    package mutating func finishObject(collecting: Bool) throws(JSONParseError) -> [String: JSONValue] {
        while try nextMember() {
            try skipValue()
            spans[spanCount - 1].valueEnd = text.index
            noteUnread(spanCount - 1)
        }
        let base = current.memberBase
        try checkDuplicateKeys(from: base)
        current.isFinished = true
        let unread = current.unreadCount
        guard unread > 0 else { return [:] }
        let resume = text.index
        var fields = [String: JSONValue](minimumCapacity: collecting ? unread : 0)
        for slot in base..<spanCount where !spans[slot].isRead {
            let span = spans[slot]
            text.index = span.valueStart
            let value = try readValue()
            guard text.index == span.valueEnd else {
                throw text.error(.unexpectedCharacter, "unexpected data after a value", at: text.index)
            }
            if collecting { fields[try key(span)] = value }
        }
        text.index = resume
        return fields
    }

    /// Reads what is left of the open object (dropping its unknown members unless
    /// ``finishObject(collecting:)`` collected them) and closes it.
    package mutating func closeObject() throws(JSONParseError) {
        if !current.isFinished { _ = try finishObject(collecting: false) }
        spanCount = current.memberBase
        current = outer.removeLast()
        depth -= 1
    }

    /// The `$type` of the object that is the next value, when it has one that is a string; reads
    /// nothing. Returns `nil` when the next value is not an object or has no string `$type`.
    package mutating func peekType() throws(JSONParseError) -> String? {
        guard next == ASCII.openBrace else { return nil }
        let start = text.index
        defer { text.index = start }
        let type = JSONMemberKey("$type")
        text.index += 1
        skipSpace()
        if next == ASCII.closeBrace { return nil }
        var first = true
        while true {
            if !first {
                skipSpace()
                guard next == ASCII.comma else { return nil }
                text.index += 1
                skipSpace()
            }
            first = false
            guard var span = try readKey() else { return nil }
            if withUnsafeMutablePointer(to: &span, { matches($0, type) }) { return try readString() }
            try skipValue()
        }
    }

    /// A place to return to after a value failed to read as a type, to read it as a tree instead.
    package struct Mark {
        let position: Int
        let spanCount: Int
        let outerCount: Int
        let current: JSONObjectFrame
        let depth: Int
    }

    /// Where the reader is now.
    package var mark: Mark {
        Mark(position: text.index, spanCount: spanCount, outerCount: outer.count, current: current, depth: depth)
    }

    /// Returns to `mark`, forgetting the objects opened since.
    package mutating func rewind(to mark: Mark) {
        text.index = mark.position
        spanCount = mark.spanCount
        if outer.count > mark.outerCount { outer.removeSubrange(mark.outerCount...) }
        current = mark.current
        depth = mark.depth
        deferredError = nil
    }
}
