import Foundation

/// SHA-256 (FIPS 180-4): the hash of atproto CIDs, PKCE challenges, DPoP `ath` and JWK thumbprints.
///
/// Hashes whole 64-byte blocks straight from the input's memory; only the final padded block or
/// two are copied.
package enum SHA256 {
    /// The digest of `bytes`: 32 bytes.
    package static func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        bytes.withUnsafeBytes { digest(of: $0).bytes }
    }

    /// The digest of `buffer` as the eight state words: with the CPU's SHA-256 instructions when it
    /// has them (``usesHardware``), else (or when `portable`) with the portable code below.
    package static func digest(of buffer: UnsafeRawBufferPointer, portable: Bool = false) -> State {
        var state = State()
        let hardware = !portable && usesHardware
        let wholeBlocks = buffer.count / 64
        let tailStart = wholeBlocks * 64
        if wholeBlocks > 0, let base = buffer.baseAddress {
            state.compress(base, blocks: wholeBlocks, hardware: hardware)
        }
        // The last bytes, a 0x80 byte, zeros, and the length in bits: one or two blocks.
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            guard let tailBase = tail.baseAddress else { return }
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            let remaining = buffer.count - tailStart
            if remaining > 0, let base = buffer.baseAddress {
                tailBase.copyMemory(from: base + tailStart, byteCount: remaining)
            }
            tail[remaining] = 0x80
            let tailBlocks = remaining < 56 ? 1 : 2
            let bitLength = UInt64(buffer.count) &* 8
            tail.storeBytes(of: bitLength.bigEndian, toByteOffset: tailBlocks * 64 - 8, as: UInt64.self)
            state.compress(UnsafeRawPointer(tailBase), blocks: tailBlocks, hardware: hardware)
        }
        return state
    }

    /// The hash state: eight 32-bit words, which are the digest once every block is in.
    package struct State: Equatable {
        var h0: UInt32 = 0x6a09_e667, h1: UInt32 = 0xbb67_ae85, h2: UInt32 = 0x3c6e_f372, h3: UInt32 = 0xa54f_f53a
        var h4: UInt32 = 0x510e_527f, h5: UInt32 = 0x9b05_688c, h6: UInt32 = 0x1f83_d9ab, h7: UInt32 = 0x5be0_cd19

        /// The digest bytes, big-endian words in order.
        package var bytes: [UInt8] {
            [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                for (index, word) in [h0, h1, h2, h3, h4, h5, h6, h7].enumerated() {
                    raw.storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
                }
                initialized = 32
            }
        }

        /// Writes the digest, big-endian words in order, to the first 32 bytes of `buffer`.
        package func store(to buffer: UnsafeMutableRawBufferPointer) {
            for (index, word) in [h0, h1, h2, h3, h4, h5, h6, h7].enumerated() {
                buffer.storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
            }
        }

        /// Whether the digest equals the 32 bytes at `pointer`.
        package func matches(_ pointer: UnsafeRawPointer) -> Bool {
            func word(_ index: Int) -> UInt32 {
                pointer.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).bigEndian
            }
            return word(0) == h0 && word(1) == h1 && word(2) == h2 && word(3) == h3 && word(4) == h4
                && word(5) == h5 && word(6) == h6 && word(7) == h7
        }

        /// Folds `blocks` 64-byte blocks starting at `data` into the state, with the CPU's
        /// instructions when `hardware`, else with the portable code.
        mutating func compress(_ data: UnsafeRawPointer, blocks: Int, hardware: Bool) {
            if hardware {
                compressWithInstructions(data, blocks: blocks)
                return
            }
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                guard let words = schedule.baseAddress else { return }
                SHA256.roundConstants.withUnsafeBufferPointer { constants in
                    guard let k = constants.baseAddress else { return }
                    compressPortably(data, blocks: blocks, schedule: words, constants: k)
                }
            }
        }

        /// Folds `blocks` 64-byte blocks starting at `data` into the state, in portable Swift.
        mutating func compressPortably(
            _ data: UnsafeRawPointer, blocks: Int, schedule w: UnsafeMutablePointer<UInt32>,
            constants k: UnsafePointer<UInt32>
        ) {
            for block in 0..<blocks {
                let start = data + block * 64
                for index in 0..<16 {
                    w[index] = start.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).bigEndian
                }
                for index in 16..<64 {
                    let x = w[index - 15], y = w[index - 2]
                    let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
                    let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
                    w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
                }
                var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                // Eight rounds per step, the letters' roles rotating instead of the values moving.
                for index in stride(from: 0, to: 64, by: 8) {
                    SHA256.round(a, b, c, &d, e, f, g, &h, k[index] &+ w[index])
                    SHA256.round(h, a, b, &c, d, e, f, &g, k[index + 1] &+ w[index + 1])
                    SHA256.round(g, h, a, &b, c, d, e, &f, k[index + 2] &+ w[index + 2])
                    SHA256.round(f, g, h, &a, b, c, d, &e, k[index + 3] &+ w[index + 3])
                    SHA256.round(e, f, g, &h, a, b, c, &d, k[index + 4] &+ w[index + 4])
                    SHA256.round(d, e, f, &g, h, a, b, &c, k[index + 5] &+ w[index + 5])
                    SHA256.round(c, d, e, &f, g, h, a, &b, k[index + 6] &+ w[index + 6])
                    SHA256.round(b, c, d, &e, f, g, h, &a, k[index + 7] &+ w[index + 7])
                }
                h0 &+= a
                h1 &+= b
                h2 &+= c
                h3 &+= d
                h4 &+= e
                h5 &+= f
                h6 &+= g
                h7 &+= h
            }
        }
    }

    /// One round: `d` gains T1 and `h` becomes T1 + T2, where FIPS 180-4 shifts every letter down.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantPlusWord: UInt32
    ) {
        let sigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
        let choice = g ^ (e & (f ^ g))
        let t1 = h &+ sigma1 &+ choice &+ constantPlusWord
        let sigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
        let majority = (a & b) | (c & (a | b))
        d &+= t1
        h = t1 &+ sigma0 &+ majority
    }

    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64
    /// primes. The package's only copy: the CPU back ends (CSHA256Accel) are handed this table.
    static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    /// The bits rotated right by `count` (0 < count < 32).
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 &- count))
    }
}
