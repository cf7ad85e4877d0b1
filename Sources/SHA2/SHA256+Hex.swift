import Foundation

/// Hexadecimal digests: the lexicon manifest pins each installed file by one.
extension SHA256 {
    /// The size of a digest in bytes.
    package static let digestByteCount = 32

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexHash(_ bytes: some Sequence<UInt8>) -> String {
        let digest =
            bytes.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) } ?? hash(Array(bytes))
        return hex(digest)
    }

    /// Bytes as lowercase hexadecimal, two digits per byte.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `text` looks like a digest written by ``hexHash(_:)``: 64 lowercase hexadecimal digits.
    package static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == digestByteCount * 2
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
