// String and UTF-8 handling of the JSON parser, and its error helpers.

extension JSONTextParser {
    /// Parses a string starting at its opening quote. Without escapes, the string is made straight from
    /// the input bytes; with them, it is assembled in ``scratch``.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = index + 1
        var position = start
        var runStart = start
        var seen: UInt8 = 0
        var escaped = false
        while true {
            position = skipPlainStringBytes(from: position, seen: &seen)
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated string", at: start - 1) }
            let byte = bytes[position]
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
            if byte == ASCII.quote {
                if seen >= 0x80 { try validateUTF8(from: start, to: position) }
                index = position + 1
                guard escaped else { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            }
            guard byte == ASCII.backslash else {
                throw error(.invalidString, "unescaped control character U+00\(hex(byte)) in string", at: position)
            }
            if !escaped {
                scratch.removeAll(keepingCapacity: true)
                escaped = true
            }
            scratch.append(contentsOf: run)
            position = try decodeEscape(at: position)
            runStart = position
        }
    }

    /// Checks the string starting at its opening quote as ``parseString()`` does and moves past it
    /// without building it; returns whether it holds escapes.
    mutating func skipString() throws(JSONParseError) -> Bool {
        let start = index + 1
        var position = start
        var seen: UInt8 = 0
        var escaped = false
        while true {
            position = skipPlainStringBytes(from: position, seen: &seen)
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated string", at: start - 1) }
            let byte = bytes[position]
            if byte == ASCII.quote {
                if seen >= 0x80 { try validateUTF8(from: start, to: position) }
                index = position + 1
                return escaped
            }
            guard byte == ASCII.backslash else {
                throw error(.invalidString, "unescaped control character U+00\(hex(byte)) in string", at: position)
            }
            if !escaped {
                scratch.removeAll(keepingCapacity: true)
                escaped = true
            }
            position = try decodeEscape(at: position)
        }
    }

    /// The position of the first quote, backslash or control character from `position` on, or the end
    /// of the input; adds the bytes skipped to `seen`.
    func skipPlainStringBytes(from position: Int, seen: inout UInt8) -> Int {
        var position = position
        if let base = bytes.baseAddress {
            // Eight bytes at a time while none of them is a quote, a backslash or a control character.
            let ones: UInt64 = 0x0101_0101_0101_0101
            var seenWord: UInt64 = 0
            while position + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let quotes = word ^ (ones &* UInt64(ASCII.quote))
                let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
                let special =
                    ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    | ((word &- ones &* 0x20) & ~word)
                if special & (ones &* 0x80) != 0 { break }
                seenWord |= word
                position += 8
            }
            if seenWord & (ones &* 0x80) != 0 { seen |= 0x80 }
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 { break }
            seen |= byte
            position += 1
        }
        return position
    }

    /// Decodes the escape at `position` into ``scratch``, returning the position after it.
    mutating func decodeEscape(at position: Int) throws(JSONParseError) -> Int {
        guard position + 1 < bytes.count else { throw error(.unexpectedEnd, "unterminated string", at: position) }
        let decoded: UInt8
        switch bytes[position + 1] {
        case ASCII.quote, ASCII.backslash, ASCII.slash: decoded = bytes[position + 1]
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try decodeUnicodeEscape(at: position)
        default:
            throw error(
                .invalidString, "invalid escape sequence: '\\' followed by \(describe(bytes[position + 1]))",
                at: position)
        }
        scratch.append(decoded)
        return position + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uXXXX\uXXXX`, at `position`.
    mutating func decodeUnicodeEscape(at position: Int) throws(JSONParseError) -> Int {
        let first = try hexQuad(at: position + 2, escape: position)
        var code = first
        var end = position + 6
        if first & 0xFC00 == 0xDC00 {
            throw error(.invalidString, "unpaired low surrogate in \\u escape", at: position)
        } else if first & 0xFC00 == 0xD800 {
            guard end + 1 < bytes.count, bytes[end] == ASCII.backslash, bytes[end + 1] == UInt8(ascii: "u"),
                case let second = try hexQuad(at: end + 2, escape: end), second & 0xFC00 == 0xDC00
            else { throw error(.invalidString, "unpaired high surrogate in \\u escape", at: position) }
            code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        }
        guard let scalar = Unicode.Scalar(code) else { throw error(.invalidString, "invalid \\u escape", at: position) }
        UTF8.encode(scalar) { scratch.append($0) }
        return end
    }

    /// The four hexadecimal digits at `position`, of the `\u` escape at `escape`.
    func hexQuad(at position: Int, escape: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for position in position..<position + 4 {
            let byte = position < bytes.count ? bytes[position] : 0
            let letter = (byte | 0x20) &- UInt8(ascii: "a")
            let digit = byte &- ASCII.zero < 10 ? byte &- ASCII.zero : letter < 6 ? letter + 10 : 0xFF
            guard digit < 16 else {
                throw error(.invalidString, "invalid \\u escape, expected four hexadecimal digits", at: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Checks that the bytes from `start` to `end` are well-formed UTF-8.
    func validateUTF8(from start: Int, to end: Int) throws(JSONParseError) {
        var position = start
        while position < end {
            let lead = bytes[position]
            if lead < 0x80 {
                position += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xED: (length, high) = (3, 0x9F)
            case 0xE1...0xEF: length = 3
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF4: (length, high) = (4, 0x8F)
            case 0xF1...0xF3: length = 4
            default: throw error(.invalidUTF8, "invalid UTF-8 byte 0x\(hex(lead)) in string", at: position)
            }
            guard end - position >= length, (low...high).contains(bytes[position + 1]) else {
                throw error(.invalidUTF8, "invalid UTF-8 sequence in string", at: position)
            }
            for continuation in position + 2..<position + length where bytes[continuation] & 0xC0 != 0x80 {
                throw error(.invalidUTF8, "invalid UTF-8 sequence in string", at: position)
            }
            position += length
        }
    }

    // MARK: Errors

    /// An error at `offset`, with its line and column worked out.
    func error(_ code: JSONParseError.Code, _ message: String, at offset: Int) -> JSONParseError {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        var column = 1
        for position in lineStart..<end where bytes[position] & 0xC0 != 0x80 { column += 1 }
        return JSONParseError(code, offset: offset, line: line, column: column, message: message)
    }

    func describe(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? "'\(UnicodeScalar(byte))'" : "byte 0x\(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
