// Reading JSON text value by value, for typed decoding without a JSONValue tree.

/// Where one member of an object being read lies in the text.
package struct JSONMemberSpan {
    /// The first byte of the key, after its opening quote.
    var keyStart: Int
    /// The key's closing quote.
    var keyEnd: Int
    /// The first byte of the value.
    var valueStart: Int
    /// Whether the key holds escapes (then it is compared decoded).
    var keyIsEscaped: Bool
    /// Whether a typed reader has taken the member; the others are the object's unknown fields.
    var isRead: Bool
}

/// An object a typed reader has open.
struct JSONObjectFrame {
    /// Where its members start in ``JSONTokenReader/members``.
    var memberBase: Int
    /// Members seen (and skipped) but not read.
    var unreadCount = 0
    /// Whether its closing brace has been read.
    var isEnded = false
    /// Whether its unknown members have been collected (or checked and dropped).
    var isFinished = false
    /// Where the text resumes after a member read out of order, or -1.
    var resume = -1
}

/// Reads JSON text one value at a time, for typed readers that know what they expect: strings,
/// numbers, arrays and objects are read straight from the bytes, and only what a typed reader does not
/// take (unknown members, `unknown` values) is built into a `JSONValue`.
///
/// An object's members are read in the order a typed reader asks for them. A member asked for before
/// the members that precede it in the text is found by skipping those, whose place is kept so they
/// are read when asked for (or collected as unknown members) without scanning from the start again.
///
/// It accepts exactly the text ``JSONValue/parse(_:)-(Data)`` accepts, in the end: a skipped value is
/// checked as it is skipped, except for duplicate keys in its objects, which are checked when it is
/// read. Errors are thrown at the first problem met, which need not be the first in the text; callers
/// that report errors parse the text again as a tree to report the same error as the tree path.
package struct JSONTokenReader: ~Copyable {
    var text: JSONTextParser
    /// The members of the objects open, innermost last.
    var members: [JSONMemberSpan] = []
    var frames: [JSONObjectFrame] = []
    /// Open containers of skipped values: `true` for an object.
    var skipping: [Bool] = []
    /// Arrays and objects open, read by typed readers.
    var depth = 0
    /// An error met where it could not be thrown, to throw at the next chance.
    package var deferredError: JSONParseError?

    /// Reads `bytes`, which must stay valid while the reader is used.
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        text = JSONTextParser(bytes: bytes)
        text.skipWhitespace()
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
        text.skipWhitespace()
        return true
    }

    /// Moves to the array's next element and returns `true`, or reads its closing bracket and returns
    /// `false`. `first` is whether no element has been read yet.
    package mutating func nextElement(first: Bool) throws(JSONParseError) -> Bool {
        if !first { text.skipWhitespace() }
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
            text.skipWhitespace()
        }
        return true
    }

    private mutating func enter() throws(JSONParseError) {
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
        text.skipWhitespace()
        var frame = JSONObjectFrame(memberBase: members.count)
        if next == ASCII.closeBrace {
            text.index += 1
            frame.isEnded = true
        }
        frames.append(frame)
        return true
    }

    /// Moves to the value of the open object's member `key` and returns the member's slot, or returns
    /// `nil` when the object has no such member. Call ``endMember()`` after reading the value.
    package mutating func seekMember(_ key: String) throws(JSONParseError) -> Int? {
        let frame = frames.count - 1
        if frames[frame].unreadCount > 0 {
            for slot in frames[frame].memberBase..<members.count where !members[slot].isRead {
                if keyEquals(members[slot], key) {
                    members[slot].isRead = true
                    frames[frame].unreadCount -= 1
                    frames[frame].resume = text.index
                    text.index = members[slot].valueStart
                    return slot
                }
            }
        }
        while try nextMember(frame) {
            let slot = members.count - 1
            if keyEquals(members[slot], key) {
                members[slot].isRead = true
                return slot
            }
            try skipValue()
            frames[frame].unreadCount += 1
        }
        return nil
    }

    /// Returns to the text after the value of a member read out of order.
    package mutating func endMember() {
        let frame = frames.count - 1
        if frames[frame].resume >= 0 {
            text.index = frames[frame].resume
            frames[frame].resume = -1
        }
    }

    /// Counts the member in `slot` as not read, so that it is among the unknown fields (a `null` where
    /// the schema allows none).
    package mutating func keepUnread(_ slot: Int) {
        guard members[slot].isRead else { return }
        members[slot].isRead = false
        frames[frames.count - 1].unreadCount += 1
    }

    /// Reads the open object to its end, checks its keys, and returns the members not read, built as
    /// trees (or checks and drops them when `collecting` is `false`).
    package mutating func finishObject(collecting: Bool) throws(JSONParseError) -> [String: JSONValue] {
        let frame = frames.count - 1
        while try nextMember(frame) {
            try skipValue()
            frames[frame].unreadCount += 1
        }
        let base = frames[frame].memberBase
        try checkDuplicateKeys(from: base)
        frames[frame].isFinished = true
        let unread = frames[frame].unreadCount
        guard unread > 0 else { return [:] }
        let resume = text.index
        defer { text.index = resume }
        var fields = [String: JSONValue](minimumCapacity: collecting ? unread : 0)
        for slot in base..<members.count where !members[slot].isRead {
            let span = members[slot]
            text.index = span.valueStart
            if collecting {
                let name = try key(span)
                fields[name] = try readValue()
            } else if next == ASCII.openBrace || next == ASCII.openBracket {
                // Skipping checked everything but duplicate keys inside.
                _ = try readValue()
            }
        }
        return fields
    }

    /// Reads what is left of the open object (dropping its unknown members unless
    /// ``finishObject(collecting:)`` collected them) and closes it.
    package mutating func closeObject() throws(JSONParseError) {
        let frame = frames.count - 1
        if !frames[frame].isFinished { _ = try finishObject(collecting: false) }
        members.removeSubrange(frames[frame].memberBase...)
        frames.removeLast()
        depth -= 1
    }

    /// The `$type` of the object that is the next value, when it has one that is a string; reads
    /// nothing. Returns `nil` when the next value is not an object or has no string `$type`.
    package mutating func peekType() throws(JSONParseError) -> String? {
        guard next == ASCII.openBrace else { return nil }
        let start = text.index
        defer { text.index = start }
        text.index += 1
        text.skipWhitespace()
        if next == ASCII.closeBrace { return nil }
        var first = true
        while true {
            if !first {
                text.skipWhitespace()
                guard next == ASCII.comma else { return nil }
                text.index += 1
                text.skipWhitespace()
            }
            first = false
            guard next == ASCII.quote else { return nil }
            let keyStart = text.index + 1
            let escaped = try text.skipString()
            let span = JSONMemberSpan(
                keyStart: keyStart, keyEnd: text.index - 1, valueStart: 0, keyIsEscaped: escaped, isRead: false)
            text.skipWhitespace()
            guard next == ASCII.colon else { return nil }
            text.index += 1
            text.skipWhitespace()
            if keyEquals(span, "$type") { return try readString() }
            try skipValue()
        }
    }

    /// A place to return to after a value failed to read as a type, to read it as a tree instead.
    package struct Mark {
        let position: Int
        let memberCount: Int
        let frameCount: Int
        let depth: Int
    }

    /// Where the reader is now.
    package var mark: Mark {
        Mark(position: text.index, memberCount: members.count, frameCount: frames.count, depth: depth)
    }

    /// Returns to `mark`, forgetting the objects opened since.
    package mutating func rewind(to mark: Mark) {
        text.index = mark.position
        if members.count > mark.memberCount { members.removeSubrange(mark.memberCount...) }
        if frames.count > mark.frameCount { frames.removeSubrange(mark.frameCount...) }
        depth = mark.depth
        deferredError = nil
    }

    // MARK: Members

    /// Reads the separator and key of the open object's next member, leaving the position at its
    /// value; returns `false` after reading the closing brace (or when it was read already).
    private mutating func nextMember(_ frame: Int) throws(JSONParseError) -> Bool {
        guard !frames[frame].isEnded else { return false }
        if members.count > frames[frame].memberBase {
            text.skipWhitespace()
            guard text.index < text.bytes.count else {
                throw text.error(.unexpectedEnd, "unexpected end of input, expected ',' or '}'", at: text.index)
            }
            if text.bytes[text.index] == ASCII.closeBrace {
                text.index += 1
                frames[frame].isEnded = true
                return false
            }
            guard text.bytes[text.index] == ASCII.comma else {
                throw text.error(.unexpectedCharacter, "expected ',' or '}' after an object member", at: text.index)
            }
            text.index += 1
            text.skipWhitespace()
        }
        guard next == ASCII.quote else {
            throw text.error(.unexpectedCharacter, "expected a string key", at: text.index)
        }
        let keyStart = text.index + 1
        let escaped = try text.skipString()
        let keyEnd = text.index - 1
        text.skipWhitespace()
        guard next == ASCII.colon else {
            throw text.error(.unexpectedCharacter, "expected ':' after an object key", at: text.index)
        }
        text.index += 1
        text.skipWhitespace()
        members.append(
            JSONMemberSpan(
                keyStart: keyStart, keyEnd: keyEnd, valueStart: text.index, keyIsEscaped: escaped, isRead: false))
        return true
    }

    private func keyEquals(_ span: JSONMemberSpan, _ key: String) -> Bool {
        let length = span.keyEnd - span.keyStart
        if span.keyIsEscaped {
            var copy = JSONTextParser(bytes: text.bytes)
            copy.index = span.keyStart - 1
            return (try? copy.parseString()) == key
        }
        let utf8 = key.utf8
        guard utf8.count == length else { return false }
        let raw = UnsafeBufferPointer(rebasing: text.bytes[span.keyStart..<span.keyEnd])
        return utf8.withContiguousStorageIfAvailable { $0.elementsEqual(raw) } ?? utf8.elementsEqual(raw)
    }

    private mutating func key(_ span: JSONMemberSpan) throws(JSONParseError) -> String {
        guard span.keyIsEscaped else {
            return String(
                decoding: UnsafeBufferPointer(rebasing: text.bytes[span.keyStart..<span.keyEnd]), as: UTF8.self)
        }
        let resume = text.index
        defer { text.index = resume }
        text.index = span.keyStart - 1
        return try text.parseString()
    }

    /// Fails on a key that appears twice among the members from `base` on, as the tree parser does.
    private mutating func checkDuplicateKeys(from base: Int) throws(JSONParseError) {
        let count = members.count - base
        guard count > 1 else { return }
        if count <= 16, !members[base...].contains(where: \.keyIsEscaped) {
            for later in base + 1..<members.count {
                let span = members[later]
                let length = span.keyEnd - span.keyStart
                for earlier in base..<later where members[earlier].keyEnd - members[earlier].keyStart == length {
                    let other = members[earlier]
                    if UnsafeBufferPointer(rebasing: text.bytes[span.keyStart..<span.keyEnd]).elementsEqual(
                        UnsafeBufferPointer(rebasing: text.bytes[other.keyStart..<other.keyEnd]))
                    {
                        throw text.error(.duplicateKey, "duplicate object key", at: span.keyStart - 1)
                    }
                }
            }
            return
        }
        var seen = Set<String>(minimumCapacity: count)
        for slot in base..<members.count {
            let span = members[slot]
            guard seen.insert(try key(span)).inserted else {
                throw text.error(.duplicateKey, "duplicate object key", at: span.keyStart - 1)
            }
        }
    }

    // MARK: Skipping

    /// Skips the next value, checking it as the tree parser would except for duplicate keys.
    package mutating func skipValue() throws(JSONParseError) {
        skipping.removeAll(keepingCapacity: true)
        nextValue: while true {
            let byte = next
            if byte == ASCII.openBrace || byte == ASCII.openBracket {
                guard depth + skipping.count < JSONValue.maximumParseDepth else {
                    throw text.error(
                        .tooDeep, "nesting is deeper than \(JSONValue.maximumParseDepth) levels", at: text.index)
                }
                let isObject = byte == ASCII.openBrace
                text.index += 1
                text.skipWhitespace()
                if next == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    text.index += 1
                } else {
                    skipping.append(isObject)
                    if isObject { try skipKey() }
                    continue nextValue
                }
            } else if byte == ASCII.quote {
                _ = try text.skipString()
            } else if text.index < text.bytes.count {
                _ = try text.parseScalar(byte)
            } else {
                throw text.error(.unexpectedEnd, "unexpected end of input, expected a value", at: text.index)
            }
            while let isObject = skipping.last {
                text.skipWhitespace()
                let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
                let byte = next
                if byte == ASCII.comma {
                    text.index += 1
                    text.skipWhitespace()
                    if isObject {
                        try skipKey()
                    } else if next == ASCII.closeBracket {
                        throw text.error(.unexpectedCharacter, "trailing comma before ']'", at: text.index)
                    }
                    continue nextValue
                }
                guard byte == close, text.index < text.bytes.count else {
                    throw text.error(.unexpectedCharacter, "expected ',' or a closing bracket", at: text.index)
                }
                text.index += 1
                skipping.removeLast()
            }
            return
        }
    }

    private mutating func skipKey() throws(JSONParseError) {
        guard next == ASCII.quote else {
            throw text.error(.unexpectedCharacter, "expected a string key", at: text.index)
        }
        _ = try text.skipString()
        text.skipWhitespace()
        guard next == ASCII.colon else {
            throw text.error(.unexpectedCharacter, "expected ':' after an object key", at: text.index)
        }
        text.index += 1
        text.skipWhitespace()
    }
}
