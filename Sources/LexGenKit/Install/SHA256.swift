import Foundation

/// A small, dependency-free SHA-256 (FIPS 180-4), used to pin installed lexicon files in the manifest.
///
/// Foundation on Linux has no CryptoKit, so the generator carries its own. The compression function works on
/// raw pointers with wrapping arithmetic only, which keeps it cheap even in a debug build (the build hashes
/// every installed lexicon).
enum SHA256 {
    /// The size of a digest in bytes.
    static let digestByteCount = 32

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(of: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { digest(of: $0) }
    }

    /// Returns the 32-byte SHA-256 digest of `data`.
    static func hash(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { digest(of: $0) }
    }

    /// Returns the SHA-256 digest of `data` as 64 lowercase hexadecimal digits.
    static func hexHash(_ data: Data) -> String {
        hex(hash(data))
    }

    /// Returns the SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    static func hexHash(_ bytes: some Collection<UInt8>) -> String {
        hex(hash(bytes))
    }

    /// Formats bytes as lowercase hexadecimal, two digits per byte.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `text` looks like a hex digest written by ``hex(_:)``: 64 lowercase hexadecimal digits.
    static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == digestByteCount * 2
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    // MARK: - Implementation

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Hashes a contiguous buffer: whole 64-byte blocks straight from the input, then one or two padded blocks.
    private static func digest(of input: UnsafeRawBufferPointer) -> [UInt8] {
        // One scratch allocation: state (8 words), message schedule (64), round constants (64), tail (128 bytes).
        let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 + 64 + 64 + 32)
        defer { words.deallocate() }
        let state = words
        let schedule = words + 8
        let constants = words + 72
        let tail = UnsafeMutableRawPointer(words + 136)
        for index in 0..<8 {
            state[index] = initialState[index]
        }
        for index in 0..<64 {
            constants[index] = roundConstants[index]
        }

        let count = input.count
        let wholeBlocks = count / 64
        let remainder = count - wholeBlocks * 64
        tail.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
        if let base = input.baseAddress {
            var block = 0
            while block < wholeBlocks {
                compress(state: state, block: base + block &* 64, schedule: schedule, constants: constants)
                block &+= 1
            }
            if remainder > 0 {
                tail.copyMemory(from: base + wholeBlocks * 64, byteCount: remainder)
            }
        }
        tail.storeBytes(of: 0x80, toByteOffset: remainder, as: UInt8.self)
        let tailBlocks = remainder < 56 ? 1 : 2
        let bitCount = UInt64(count) &* 8
        tail.storeBytes(of: bitCount.bigEndian, toByteOffset: tailBlocks * 64 - 8, as: UInt64.self)
        for block in 0..<tailBlocks {
            compress(state: state, block: UnsafeRawPointer(tail + block * 64), schedule: schedule, constants: constants)
        }

        var result = [UInt8](repeating: 0, count: digestByteCount)
        for index in 0..<8 {
            let word = state[index]
            result[index * 4] = UInt8(truncatingIfNeeded: word &>> 24)
            result[index * 4 + 1] = UInt8(truncatingIfNeeded: word &>> 16)
            result[index * 4 + 2] = UInt8(truncatingIfNeeded: word &>> 8)
            result[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
        }
        return result
    }

    /// The SHA-256 compression function over one 64-byte block.
    private static func compress(
        state: UnsafeMutablePointer<UInt32>,
        block: UnsafeRawPointer,
        schedule w: UnsafeMutablePointer<UInt32>,
        constants k: UnsafeMutablePointer<UInt32>
    ) {
        var i = 0
        while i < 16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            i &+= 1
        }
        while i < 64 {
            let x = w[i &- 15]
            let y = w[i &- 2]
            let sigma0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
            let sigma1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
            w[i] = w[i &- 16] &+ sigma0 &+ w[i &- 7] &+ sigma1
            i &+= 1
        }

        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        i = 0
        while i < 64 {
            let bigSigma1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ bigSigma1 &+ choice &+ k[i] &+ w[i]
            let bigSigma0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = bigSigma0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temp1
            d = c
            c = b
            b = a
            a = temp1 &+ temp2
            i &+= 1
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }
}
