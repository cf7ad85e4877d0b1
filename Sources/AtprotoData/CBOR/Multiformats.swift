// The multiformats encodings CIDs and CAR files use: unsigned varints, base32 and base58btc.

/// Unsigned LEB128 varints as multiformats writes them: at most 9 bytes, minimally encoded.
package enum Varint {
    /// Reads the varint at `offset` in `buffer` and moves `offset` past it.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError/Code/truncated`` when the buffer ends inside the varint,
    ///   ``AtprotoBinaryDecodingError/Code/invalidVarint`` when it is longer than 9 bytes or not minimal.
    package static func read(
        _ buffer: UnsafeRawBufferPointer, at offset: inout Int, _ what: @autoclosure () -> String
    ) throws(AtprotoBinaryDecodingError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < buffer.count else {
                throw AtprotoBinaryDecodingError(
                    .truncated, offset: start, message: "\(what()): the input ends inside a varint")
            }
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 {
                guard byte != 0 || index == 0 else {
                    throw AtprotoBinaryDecodingError(
                        .invalidVarint, offset: start, message: "\(what()): varint is not minimally encoded")
                }
                return value
            }
        }
        throw AtprotoBinaryDecodingError(
            .invalidVarint, offset: start, message: "\(what()): varint is longer than 9 bytes")
    }

    /// Appends `value` as a varint.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }
}

/// Base32 with the lowercase RFC 4648 alphabet and no padding, multibase `b`.
enum Base32 {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The text of `bytes`.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        alphabet.withUnsafeBufferPointer { letters in
            var text = [UInt8]()
            text.reserveCapacity((bytes.count * 8 + 4) / 5 + 1)
            var buffer: UInt32 = 0
            var bits: UInt32 = 0
            for byte in bytes {
                buffer = (buffer << 8) | UInt32(byte)
                bits += 8
                while bits >= 5 {
                    bits -= 5
                    text.append(letters[Int((buffer >> bits) & 31)])
                }
            }
            if bits > 0 { text.append(letters[Int((buffer << (5 - bits)) & 31)]) }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The bytes of `text`.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError/Code/invalidCID`` at `textStart` plus the index of the first
    ///   wrong character: outside the alphabet, or a last one with non-zero unused bits or that makes
    ///   an impossible length.
    static func decode(_ text: some Collection<UInt8>, textStart: Int) throws(AtprotoBinaryDecodingError) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits: UInt32 = 0
        var index = 0
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = character - UInt8(ascii: "2") + 26
            default: throw badCharacter(at: textStart + index, "base32")
            }
            buffer = (buffer << 5 | UInt32(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> bits))
            }
            index += 1
        }
        guard bits < 5, buffer & ((1 << bits) - 1) == 0 else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: textStart + max(index - 1, 0), message: "base32 text ends with an incomplete byte")
        }
        return bytes
    }
}

/// Base58 with the Bitcoin alphabet, multibase `z`; CIDv0 strings are written in it without prefix.
package enum Base58 {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// The text of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // Base-58 digits, least significant first.
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 138 / 100 + 1)
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            for index in digits.indices {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError/Code/invalidCID`` at the first character outside the alphabet.
    package static func decode(_ text: some Collection<UInt8>) throws(AtprotoBinaryDecodingError) -> [UInt8] {
        var zeros = 0
        var counting = true
        // Base-256 digits, least significant first.
        var bytes: [UInt8] = []
        for (index, character) in text.enumerated() {
            guard let value = alphabet.firstIndex(of: character) else { throw badCharacter(at: index, "base58") }
            if counting && value == 0 {
                zeros += 1
                continue
            }
            counting = false
            var carry = value
            for position in bytes.indices {
                carry += Int(bytes[position]) * 58
                bytes[position] = UInt8(truncatingIfNeeded: carry)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(truncatingIfNeeded: carry))
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}

/// The error for a character outside the alphabet of `encoding`.
private func badCharacter(at offset: Int, _ encoding: String) -> AtprotoBinaryDecodingError {
    AtprotoBinaryDecodingError(.invalidCID, offset: offset, message: "not a \(encoding) character")
}
