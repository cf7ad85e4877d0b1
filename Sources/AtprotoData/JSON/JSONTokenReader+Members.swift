extension JSONTokenReader {
    /// Reads the separator and key of the open object's next member, leaving the position at its
    /// value; returns `false` after reading the closing brace (or when it was read already).
    mutating func nextMember() throws(JSONParseError) -> Bool {
        guard !current.isEnded else { return false }
        if spanCount > current.memberBase {
            skipSpace()
            guard text.index < text.bytes.count else {
                throw text.error(.unexpectedEnd, "unexpected end of input, expected ',' or '}'", at: text.index)
            }
            if text.bytes[text.index] == ASCII.closeBrace {
                text.index += 1
                current.isEnded = true
                return false
            }
            guard text.bytes[text.index] == ASCII.comma else {
                throw text.error(.unexpectedCharacter, "expected ',' or '}' after an object member", at: text.index)
            }
            text.index += 1
            skipSpace()
        }
        guard let span = try readKey() else {
            throw text.error(.unexpectedCharacter, "expected a string key", at: text.index)
        }
        push(span)
        return true
    }

    /// Reads `"key" :` and the whitespace after it (checking the key as a string), or returns `nil`
    /// when the next byte does not start a key.
    mutating func readKey() throws(JSONParseError) -> JSONMemberSpan? {
        guard next == ASCII.quote else { return nil }
        let keyStart = text.index + 1
        let escaped = try text.skipString()
        var length = text.index - 1 - keyStart
        var keyPrefix: UInt64
        if _slowPath(escaped) {
            // Decoded once here, so that comparing it later costs what any other key costs.
            let end = text.index
            text.index = keyStart - 1
            let decoded = try text.parseString()
            text.index = end
            let key = JSONMemberKey(decoded)
            (length, keyPrefix) = (key.length, key.prefix)
            escapedKeys[keyStart] = decoded
        } else {
            keyPrefix = prefix(at: keyStart, length: length)
        }
        skipSpace()
        guard next == ASCII.colon else {
            throw text.error(.unexpectedCharacter, "expected ':' after an object key", at: text.index)
        }
        text.index += 1
        skipSpace()
        return JSONMemberSpan(
            keyPrefix: keyPrefix, keyStart: keyStart, valueStart: text.index, valueEnd: -1,
            keyLength: Int32(truncatingIfNeeded: length), keyIsEscaped: escaped, isRead: false)
    }

    /// The first eight bytes (or fewer) from `start`, the first in the low byte.
    @inline(__always) func prefix(at start: Int, length: Int) -> UInt64 {
        let bytes = text.bytes
        if start + 8 <= bytes.count, let base = bytes.baseAddress {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
            return length >= 8 ? word : word & ((1 &<< (8 &* UInt64(length))) &- 1)
        }
        var word: UInt64 = 0
        for offset in 0..<min(length, 8) { word |= UInt64(bytes[start + offset]) << (8 * UInt64(offset)) }
        return word
    }

    @inline(__always) func matches(_ span: UnsafeMutablePointer<JSONMemberSpan>, _ key: JSONMemberKey) -> Bool {
        guard span.pointee.keyPrefix == key.prefix, Int(span.pointee.keyLength) == key.length else { return false }
        if _slowPath(span.pointee.keyIsEscaped) { return escapedKeys[span.pointee.keyStart] == key.string }
        return key.length <= 8 || restOfKey(span.pointee, equals: key)
    }

    /// Whether the bytes after the first eight match (the lengths and first eight do).
    func restOfKey(_ span: JSONMemberSpan, equals key: JSONMemberKey) -> Bool {
        let bytes = text.bytes
        let start = span.keyStart
        let matched = key.string.utf8.withContiguousStorageIfAvailable { utf8 in
            var offset = 8
            while offset < utf8.count {
                if bytes[start + offset] != utf8[offset] { return false }
                offset += 1
            }
            return true
        }
        return matched ?? key.string.utf8.elementsEqual(bytes[start..<start + key.length])
    }

    mutating func key(_ span: JSONMemberSpan) throws(JSONParseError) -> String {
        let end = span.keyStart + Int(span.keyLength)
        guard span.keyIsEscaped else {
            return String(decoding: UnsafeBufferPointer(rebasing: text.bytes[span.keyStart..<end]), as: UTF8.self)
        }
        if let decoded = escapedKeys[span.keyStart] { return decoded }
        let resume = text.index
        defer { text.index = resume }
        text.index = span.keyStart - 1
        return try text.parseString()
    }

    /// Fails on a key that appears twice among the members from `base` on, as the tree parser does.
    mutating func checkDuplicateKeys(from base: Int) throws(JSONParseError) {
        let count = spanCount - base
        guard count > 1 else { return }
        var simple = count <= 16
        if simple {
            for slot in base..<spanCount where spans[slot].keyIsEscaped { simple = false }
        }
        if simple {
            let bytes = text.bytes
            for later in base + 1..<spanCount {
                let span = spans[later]
                for earlier in base..<later {
                    let other = spans[earlier]
                    guard other.keyLength == span.keyLength, other.keyPrefix == span.keyPrefix else { continue }
                    var same = true
                    if span.keyLength > 8 {
                        for offset in 8..<Int(span.keyLength)
                        where bytes[span.keyStart + offset] != bytes[other.keyStart + offset] {
                            same = false
                            break
                        }
                    }
                    if same { throw text.error(.duplicateKey, "duplicate object key", at: span.keyStart - 1) }
                }
            }
            return
        }
        var seen = Set<String>(minimumCapacity: count)
        for slot in base..<spanCount {
            let span = spans[slot]
            guard seen.insert(try key(span)).inserted else {
                throw text.error(.duplicateKey, "duplicate object key", at: span.keyStart - 1)
            }
        }
    }
}
