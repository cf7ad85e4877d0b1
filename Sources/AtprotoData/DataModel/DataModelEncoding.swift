import Foundation

// The two text encodings the data model uses in JSON: base64 for `$bytes`, and base32 CIDs for `$link`.

extension AtprotoDataModel {
    /// Whether `cid` is a CID in the form the data model writes in JSON: a CIDv1 in base32 (the
    /// lowercase RFC 4648 alphabet without padding) behind the multibase prefix `b`, e.g. `bafyrei...`.
    ///
    /// The string must decode to a version 1, a content codec and a multihash whose digest length
    /// matches the bytes that follow. Any codec and hash function is accepted (atproto writes
    /// `dag-cbor` or `raw` with SHA-256). CIDv0 (`Qm...`) and other multibases are rejected.
    public static func isValidLinkCID(_ cid: String) -> Bool {
        let utf8 = cid.utf8
        guard utf8.first == UInt8(ascii: "b"), let bytes = decodeBase32(utf8.dropFirst()) else { return false }
        var reader = VarintReader(bytes: bytes)
        guard reader.next() == 1,  // CID version
            reader.next() != nil,  // content codec
            reader.next() != nil,  // multihash function
            let digestLength = reader.next()
        else { return false }
        return UInt64(bytes.count - reader.offset) == digestLength
    }

    /// Reads a `{"$bytes": "<base64>"}` object, an object with exactly that one field: the bytes and
    /// the text they were read from.
    ///
    /// Padding is optional, but when present it must be complete (`"YQ=="`, not `"YQ="`). Characters
    /// outside the standard alphabet (including whitespace and the URL-safe `-` and `_`) are errors,
    /// as is a length no base64 text can have.
    package static func bytesObject(_ json: JSONValue) throws(LexiconDecodingError) -> (data: Data, text: String) {
        let text = try specialField("$bytes", of: json)
        guard let data = decodeBase64(text) else {
            throw LexiconDecodingError(path: ["$bytes"], message: "not valid base64 (RFC 4648 section 4)")
        }
        return (data, text)
    }

    /// `{"$bytes": "<base64>"}` for new bytes: base64 without padding, as the data model prefers.
    package static func bytesObject(_ data: Data) -> JSONValue {
        var text = data.base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return .object(["$bytes": .string(text)])
    }

    ///
    /// Padding is optional; when present it must be complete (two `=` after 2 characters of the last
    /// group, one after 3). Any other character, and a length that no base64 text has, give `nil`.
    /// Unused low bits in the last character are ignored, as most decoders do.
    package static func decodeBase64(_ text: String) -> Data? {
        var utf8 = Array(text.utf8)
        var padding = 0
        while utf8.last == UInt8(ascii: "=") {
            utf8.removeLast()
            padding += 1
        }
        let remainder = utf8.count % 4
        guard remainder != 1, padding == 0 || (remainder >= 2 && padding == 4 - remainder) else { return nil }
        // Whole groups of four characters make three bytes; the rest is handled bit by bit.
        var bytes = [UInt8](repeating: 0, count: utf8.count / 4 * 3 + 2)
        var count = 0
        let groups = utf8.count / 4
        let valid = base64Table.withUnsafeBufferPointer { table in
            bytes.withUnsafeMutableBufferPointer { output in
                utf8.withUnsafeBufferPointer { input in
                    for group in 0..<groups {
                        let start = group * 4
                        let a = table[Int(input[start])], b = table[Int(input[start + 1])]
                        let c = table[Int(input[start + 2])], d = table[Int(input[start + 3])]
                        guard (a | b | c | d) & 0x80 == 0 else { return false }
                        let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        output[count] = UInt8(truncatingIfNeeded: word >> 16)
                        output[count + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        output[count + 2] = UInt8(truncatingIfNeeded: word)
                        count += 3
                    }
                    var buffer: UInt32 = 0
                    var bits = 0
                    for index in (groups * 4)..<input.count {
                        let value = table[Int(input[index])]
                        guard value & 0x80 == 0 else { return false }
                        buffer = (buffer << 6 | UInt32(value)) & 0xFFFF
                        bits += 6
                        if bits >= 8 {
                            bits -= 8
                            output[count] = UInt8(truncatingIfNeeded: buffer >> UInt32(bits))
                            count += 1
                        }
                    }
                    return true
                }
            }
        }
        guard valid else { return nil }
        return Data(bytes[..<count])
    }

    /// The 6-bit value of each byte as a base64 character (standard alphabet), `0xFF` outside it.
    private static let base64Table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Decodes unpadded lowercase base32 (RFC 4648 section 6 alphabet), or `nil` when a character is
    /// outside it, the length is impossible, or the unused low bits are not zero (as multiformats does).
    private static func decodeBase32(_ text: Substring.UTF8View) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = byte - UInt8(ascii: "2") + 26
            default: return nil
            }
            buffer = (buffer << 5 | UInt32(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard bits < 5, buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }
}

/// Reads unsigned LEB128 varints as multiformats uses them: at most 9 bytes, minimally encoded.
private struct VarintReader {
    let bytes: [UInt8]
    var offset = 0

    /// The next varint, or `nil` at the end of the bytes or on a malformed varint.
    mutating func next() -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 {
                // A last byte of zero after others means the varint is not minimal.
                return byte == 0 && index > 0 ? nil : value
            }
        }
        return nil
    }
}
