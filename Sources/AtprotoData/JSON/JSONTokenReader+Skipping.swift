extension JSONTokenReader {
    /// Moves past the next value, finding only where it ends: the end of a string, the matching
    /// bracket, or the end of a run of number and literal bytes. The value is checked when it is read.
    package mutating func skipValue() throws(JSONParseError) {
        let bytes = text.bytes
        var index = text.index
        var nesting = 0
        scan: while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case ASCII.quote:
                index = try endOfString(from: index + 1)
                if nesting == 0 { break scan }
            case ASCII.openBrace, ASCII.openBracket:
                nesting += 1
                index += 1
            case ASCII.closeBrace, ASCII.closeBracket:
                if nesting == 0 { break scan }
                nesting -= 1
                index += 1
                if nesting == 0 { break scan }
            default:
                if nesting == 0 {
                    let letter = byte | 0x20
                    let isScalar =
                        byte &- ASCII.zero < 10 || byte == ASCII.minus || byte == ASCII.plus || byte == ASCII.dot
                        || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
                    guard isScalar else { break scan }
                }
                index += 1
            }
        }
        guard nesting == 0 else {
            throw text.error(.unexpectedEnd, "unexpected end of input inside a value", at: index)
        }
        text.index = index
    }

    /// The position after the closing quote of the string whose contents start at `start`.
    private func endOfString(from start: Int) throws(JSONParseError) -> Int {
        let bytes = text.bytes
        var position = start
        while position < bytes.count {
            if let base = bytes.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101
                while position + 8 <= bytes.count {
                    let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                    let quotes = word ^ (ones &* UInt64(ASCII.quote))
                    let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
                    let found = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    if found & (ones &* 0x80) != 0 { break }
                    position += 8
                }
            }
            while position < bytes.count, bytes[position] != ASCII.quote, bytes[position] != ASCII.backslash {
                position += 1
            }
            guard position < bytes.count else { break }
            if bytes[position] == ASCII.quote { return position + 1 }
            position += 2
        }
        throw text.error(.unexpectedEnd, "unterminated string", at: start - 1)
    }
}
