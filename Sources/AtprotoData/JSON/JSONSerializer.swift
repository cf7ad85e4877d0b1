import Foundation

extension JSONValue {
    /// The value as compact JSON text (no whitespace), UTF-8 encoded.
    ///
    /// - Parameter sortedKeys: Whether to write object keys sorted by their UTF-8 bytes, so equal
    ///   values always give the same bytes. Otherwise keys come in the dictionary's order.
    ///
    /// Strings escape only `"`, `\` and control characters (as `\n`, `\r`, `\t`, `\b`, `\f` or
    /// `\u00XX`); `/` and non-ASCII characters are written as they are. ``integer(_:)`` is written in
    /// decimal, ``number(_:)`` in the shortest form that reads back as the same `Double` (always with a
    /// fraction or exponent, so it reads back as a number), and a number that is not finite as `null`.
    public func serialized(sortedKeys: Bool = true) -> Data {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024)
        write(to: &buffer, sortedKeys: sortedKeys)
        return Data(buffer)
    }

    /// The value as compact JSON text in a `String`; see ``serialized(sortedKeys:)``.
    public func serializedString(sortedKeys: Bool = true) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        write(to: &buffer, sortedKeys: sortedKeys)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends the value as compact JSON text to `buffer`; see ``serialized(sortedKeys:)``.
    public func write(to buffer: inout [UInt8], sortedKeys: Bool = true) {
        JSONTextWriter.write(self, to: &buffer, sortedKeys: sortedKeys)
    }

    /// Whether the key `left` is written before `right` with sorted keys (by their UTF-8 bytes): for
    /// writers of JSON text that must give these bytes (XRPCCore's text output).
    package static func keyPrecedes(_ left: String, _ right: String) -> Bool {
        JSONTextWriter.utf8Precedes(left, right)
    }
}

private enum JSONTextWriter {
    static func write(_ value: JSONValue, to buffer: inout [UInt8], sortedKeys: Bool) {
        switch value {
        case .null:
            append("null", to: &buffer)
        case .bool(let bool):
            append(bool ? "true" : "false", to: &buffer)
        case .integer(let integer):
            writeInteger(integer, to: &buffer)
        case .number(let number):
            if number.isFinite {
                buffer.append(contentsOf: number.description.utf8)
            } else {
                append("null", to: &buffer)
            }
        case .string(let string):
            writeString(string, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                write(element, to: &buffer, sortedKeys: sortedKeys)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let fields):
            buffer.append(UInt8(ascii: "{"))
            if sortedKeys && fields.count > 1 {
                for (position, field) in fields.sorted(by: { utf8Precedes($0.key, $1.key) }).enumerated() {
                    writeMember(field.key, field.value, first: position == 0, to: &buffer, sortedKeys: sortedKeys)
                }
            } else {
                for (position, field) in fields.enumerated() {
                    writeMember(field.key, field.value, first: position == 0, to: &buffer, sortedKeys: sortedKeys)
                }
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    static func writeMember(
        _ key: String, _ value: JSONValue, first: Bool, to buffer: inout [UInt8], sortedKeys: Bool
    ) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        writeString(key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        write(value, to: &buffer, sortedKeys: sortedKeys)
    }

    static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func writeInteger(_ integer: Int, to buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    static func writeString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            // Eight bytes at a time while none of them needs an escape (most text): a byte below 0x20,
            // `"` or `\` shows as a high bit in `needsEscape`.
            var plain = 0
            if let base = utf8.baseAddress {
                while plain + 8 <= utf8.count {
                    let word = UnsafeRawPointer(base + plain).loadUnaligned(as: UInt64.self)
                    guard needsEscape(word) == 0 else { break }
                    plain += 8
                }
            }
            for position in plain..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                runStart = position + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                default:
                    let hexDigits: StaticString = "0123456789abcdef"
                    buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    buffer.append(hexDigits.utf8Start[Int(byte >> 4)])
                    buffer.append(hexDigits.utf8Start[Int(byte & 0xF)])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Nonzero when a byte of `word` is below 0x20, a quote or a backslash (the bytes a string escapes).
    static func needsEscape(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let below = (word &- ones &* 0x20) & ~word
        return (below | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
    }

    /// Whether `left` sorts before `right` when compared byte by byte in UTF-8.
    static func utf8Precedes(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                for position in 0..<common where leftBytes[position] != rightBytes[position] {
                    return leftBytes[position] < rightBytes[position]
                }
                return leftBytes.count < rightBytes.count
            }
        }
    }
}
