import Foundation
import SHA2

/// A content identifier (CID) in binary form: a hash of some content, with the codec to read it and the hash
/// function used (multiformats.io/cid).
///
/// atproto writes CIDv1 with the `dag-cbor` codec (records, commits) or `raw` (blobs) and SHA-256,
/// as text in base32 behind the multibase prefix `b` (`bafyrei...`). CIDv0 (`Qm...`, a bare SHA-256
/// multihash of `dag-pb` content) is read and written too, for other IPFS data.
///
/// Equality and hashing compare the binary form.
///
/// The CIDs atproto writes (CIDv1, SHA-256, a one-byte codec) are held inline, without an array of
/// their own: a repository or a firehose frame reads thousands of them, and each allocation, with its
/// reference counting, cost more than parsing the CID. Any other CID keeps its bytes in an array.
public struct CID: Sendable, Hashable, CustomStringConvertible {
    /// How the CID is held: see the type's description.
    @usableFromInline
    enum Storage: Sendable {
        /// `0x01, codec, 0x12, 0x20` and the digest: a CIDv1 of SHA-256 with a codec below 0x80.
        case sha256(codec: UInt8, digest: Digest)
        /// Any other CID: its bytes and fields.
        case general(bytes: [UInt8], codec: Codec, hash: HashFunction, digestStart: Int)
    }

    /// A SHA-256 digest as it lies in memory: four words loaded in the machine's byte order.
    @usableFromInline
    struct Digest: Sendable, Hashable {
        var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

        /// The 32 bytes at `offset` in `buffer`, which holds them.
        init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
            w0 = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            w1 = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            w2 = buffer.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
            w3 = buffer.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
        }

        /// Writes the 32 bytes at `offset` in `buffer`, which has room for them.
        func store(to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
            buffer.storeBytes(of: w0, toByteOffset: offset, as: UInt64.self)
            buffer.storeBytes(of: w1, toByteOffset: offset + 8, as: UInt64.self)
            buffer.storeBytes(of: w2, toByteOffset: offset + 16, as: UInt64.self)
            buffer.storeBytes(of: w3, toByteOffset: offset + 24, as: UInt64.self)
        }
    }

    @usableFromInline
    let storage: Storage

    /// The binary form: for CIDv1 the varints version, codec, hash function, digest length and then
    /// the digest; for CIDv0 the multihash alone.
    public var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0) } }

    /// The content codec, e.g. ``Codec/dagCBOR``; ``Codec/dagPB`` for CIDv0.
    public var codec: Codec {
        switch storage {
        case .sha256(let codec, _): return Codec(rawValue: UInt64(codec))
        case .general(_, let codec, _, _): return codec
        }
    }

    /// The multihash function code, e.g. ``HashFunction/sha256``.
    public var hashFunction: HashFunction {
        switch storage {
        case .sha256: return .sha256
        case .general(_, _, let hash, _): return hash
        }
    }

    /// The CID version, 0 or 1.
    public var version: Int {
        switch storage {
        case .sha256: return 1
        case .general(let bytes, _, _, _): return bytes.first == 0x12 ? 0 : 1
        }
    }

    /// The hash digest.
    public var digest: ArraySlice<UInt8> {
        switch storage {
        case .sha256: return bytes[4...]
        case .general(let bytes, _, _, let digestStart): return bytes[digestStart...]
        }
    }

    /// Calls `body` with the binary form, without copying it into an array.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .sha256(let codec, let digest):
            var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            return try Swift.withUnsafeMutableBytes(of: &buffer) { raw in
                raw[0] = 0x01
                raw[1] = codec
                raw[2] = 0x12
                raw[3] = 0x20
                // 40 bytes, of which the CID takes 36.
                digest.store(to: raw, at: 4)
                return try body(UnsafeRawBufferPointer(rebasing: raw[0..<36]))
            }
        case .general(let bytes, _, _, _):
            return try bytes.withUnsafeBytes(body)
        }
    }

    /// Whether the two CIDs have the same binary form.
    public static func == (left: CID, right: CID) -> Bool {
        switch (left.storage, right.storage) {
        case (.sha256(let leftCodec, let leftDigest), .sha256(let rightCodec, let rightDigest)):
            return leftCodec == rightCodec && leftDigest == rightDigest
        case (.general(let leftBytes, _, _, _), .general(let rightBytes, _, _, _)):
            return leftBytes == rightBytes
        default:
            // A CID of the inline form is never held as general bytes: the two forms never match.
            return false
        }
    }

    /// Hashes the CID's last 8 bytes: for a hashed CID, the end of its digest, which the content's hash
    /// already spreads, so a dictionary keyed by CIDs does not run SipHash over all 36 bytes and the
    /// length. Equality still compares every byte. CIDs made up by hand (unchecked, from a hostile
    /// source) can share those bytes and so a hash bucket: lookups then slow down, never go wrong.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .sha256(_, let digest): hasher.combine(digest.w3)
        case .general(let bytes, _, _, _):
            bytes.withUnsafeBytes { raw in
                if raw.count >= 8 {
                    hasher.combine(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
                } else {
                    hasher.combine(bytes: raw)
                }
            }
        }
    }

    /// Reads the binary form of one CID, all of `bytes`.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError`` (``AtprotoBinaryDecodingError/Code/invalidCID``, `truncated` or
    ///   `invalidVarint`) naming the faulty byte.
    @inlinable
    public init(bytes: some ContiguousBytes) throws(AtprotoBinaryDecodingError) {
        self = try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in try CID.readWhole(buffer) }
    }

    /// Reads one binary CID that fills `buffer`.
    @usableFromInline
    static func readWhole(_ buffer: UnsafeRawBufferPointer) throws(AtprotoBinaryDecodingError) -> CID {
        var offset = 0
        let cid = try CID.read(buffer, at: &offset)
        guard offset == buffer.count else {
            throw AtprotoBinaryDecodingError(.trailingBytes, offset: offset, message: "CID: bytes follow the digest")
        }
        return cid
    }

    /// Parses the text form: `b` and base32 for CIDv1, or base58btc `Qm...` for CIDv0.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError`` whose offset is the faulty character's UTF-8 offset.
    public init(_ text: String) throws(AtprotoBinaryDecodingError) {
        let utf8 = text.utf8
        let bytes: [UInt8]
        let isBase32: Bool
        if utf8.count == 46, text.hasPrefix("Qm") {
            bytes = try Base58.decode(utf8)
            isBase32 = false
        } else if utf8.first == UInt8(ascii: "b") {
            bytes = try Base32.decode(utf8.dropFirst(), textStart: 1)
            isBase32 = true
        } else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: 0,
                message: "CID text must be base32 behind \"b\" (CIDv1) or base58 \"Qm...\" (CIDv0)")
        }
        do {
            try self.init(bytes: bytes)
        } catch {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: 0, message: "CID text decodes to an invalid CID: \(error.message)")
        }
        if isBase32, version == 0 {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: 0, message: "a CIDv0 is written in base58 (\"Qm...\"), not base32")
        }
    }

    /// A CIDv1 of `content` hashed with SHA-256.
    ///
    /// - Parameters:
    ///   - content: The bytes the CID names.
    ///   - codec: How the content is read: ``Codec/dagCBOR`` for records and other DAG-CBOR nodes,
    ///     ``Codec/raw`` for blobs.
    public init(sha256Of content: some ContiguousBytes, codec: Codec = .dagCBOR) {
        let state = content.withUnsafeBytes { SHA256.digest(of: $0) }
        if codec.rawValue < 0x80 {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let digest = Swift.withUnsafeMutableBytes(of: &words) { raw in
                state.store(to: raw)
                return Digest(UnsafeRawBufferPointer(raw), at: 0)
            }
            self.init(storage: .sha256(codec: UInt8(codec.rawValue), digest: digest))
        } else {
            let prefix = CID.v1Prefix(codec: codec, hash: .sha256, length: 32)
            self.init(bytes: prefix + state.bytes, fields: (codec, .sha256, prefix.count))
        }
    }

    /// The text form: `b` and base32 for CIDv1, base58btc for CIDv0.
    public var string: String {
        version == 0 ? Base58.encode(bytes) : "b" + Base32.encode(bytes)
    }

    public var description: String { string }

    /// Whether `content` hashes to this CID's digest, for SHA-256 and identity CIDs.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError/Code/unsupportedHash`` for any other hash function.
    @inlinable
    public func matches(_ content: some ContiguousBytes) throws(AtprotoBinaryDecodingError) -> Bool {
        try content.withBytes { buffer throws(AtprotoBinaryDecodingError) in try matches(buffer) }
    }

    /// Whether `content` hashes to this CID's digest; see ``matches(_:)``.
    @usableFromInline
    func matches(_ content: UnsafeRawBufferPointer) throws(AtprotoBinaryDecodingError) -> Bool {
        switch hashFunction {
        case .sha256:
            let state = SHA256.digest(of: content)
            switch storage {
            case .sha256(_, let digest):
                var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                return Swift.withUnsafeMutableBytes(of: &words) { raw in
                    digest.store(to: raw, at: 0)
                    return raw.baseAddress.map { state.matches(UnsafeRawPointer($0)) } ?? false
                }
            case .general(let bytes, _, _, let digestStart):
                return bytes.withUnsafeBytes { own in
                    guard let base = own.baseAddress, own.count == digestStart + 32 else { return false }
                    return state.matches(base + digestStart)
                }
            }
        case .identity:
            return digest.elementsEqual(content)
        default:
            throw AtprotoBinaryDecodingError(
                .unsupportedHash, offset: 0,
                message: "CID \(string): hash function 0x\(String(hashFunction.rawValue, radix: 16)) "
                    + "cannot be checked (only sha2-256 and identity)")
        }
    }

    /// The varints of a CIDv1 up to the digest.
    private static func v1Prefix(codec: Codec, hash: HashFunction, length: Int) -> [UInt8] {
        var prefix: [UInt8] = []
        prefix.reserveCapacity(36 + length)
        Varint.append(1, to: &prefix)
        Varint.append(codec.rawValue, to: &prefix)
        Varint.append(hash.rawValue, to: &prefix)
        Varint.append(UInt64(length), to: &prefix)
        return prefix
    }

    /// Reads one binary CID at `offset` in `buffer` (more may follow) and moves `offset` past it.
    static func read(_ buffer: UnsafeRawBufferPointer, at offset: inout Int) throws(AtprotoBinaryDecodingError) -> CID {
        let start = offset
        if buffer.count - offset >= 36, buffer[offset] == 0x01,
            buffer[offset + 1] < 0x80, buffer[offset + 2] == 0x12, buffer[offset + 3] == 0x20
        {
            offset += 36
            return CID(storage: .sha256(codec: buffer[start + 1], digest: Digest(buffer, at: start + 4)))
        }
        let fields = try parseFields(buffer, at: &offset)
        let bytes = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[start..<offset]))
        return CID(bytes: bytes, fields: (fields.codec, fields.hash, fields.digestStart - start))
    }

    /// The CID of `bytes`, inline when they have the inline form (so that equal bytes are always
    /// held alike).
    private init(bytes: [UInt8], fields: (codec: Codec, hash: HashFunction, digestStart: Int)) {
        if bytes.count == 36, bytes[0] == 0x01, bytes[1] < 0x80, bytes[2] == 0x12, bytes[3] == 0x20 {
            storage = .sha256(codec: bytes[1], digest: bytes.withUnsafeBytes { Digest($0, at: 4) })
        } else {
            storage = .general(bytes: bytes, codec: fields.codec, hash: fields.hash, digestStart: fields.digestStart)
        }
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Checks the CID at `offset` and moves `offset` past it; returns its codec, hash function and
    /// the offset of its digest in `buffer`.
    private static func parseFields(
        _ buffer: UnsafeRawBufferPointer, at offset: inout Int
    ) throws(AtprotoBinaryDecodingError) -> (codec: Codec, hash: HashFunction, digestStart: Int) {
        let start = offset
        if buffer.count - offset >= 2, buffer[offset] == 0x12, buffer[offset + 1] == 0x20 {
            // CIDv0: a SHA-256 multihash of dag-pb content.
            guard buffer.count - offset >= 34 else {
                throw AtprotoBinaryDecodingError(
                    .truncated, offset: start, message: "CIDv0: the input ends inside the digest")
            }
            offset += 34
            return (.dagPB, .sha256, start + 2)
        }
        let version = try Varint.read(buffer, at: &offset, "CID version")
        guard version == 1 else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: start, message: "CID version \(version) is not supported (only 0 and 1)")
        }
        let codec = Codec(rawValue: try Varint.read(buffer, at: &offset, "CID codec"))
        let hashStart = offset
        let hash = HashFunction(rawValue: try Varint.read(buffer, at: &offset, "CID hash function"))
        let lengthStart = offset
        let length = try Varint.read(buffer, at: &offset, "CID digest length")
        if hash == .sha256, length != 32 {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: lengthStart, message: "CID: a SHA-256 digest is 32 bytes, not \(length)")
        }
        guard length <= UInt64(buffer.count - offset) else {
            throw AtprotoBinaryDecodingError(
                .truncated, offset: hashStart,
                message: "CID: the digest needs \(length) bytes, \(buffer.count - offset) remain")
        }
        let digestStart = offset
        offset += Int(length)
        return (codec, hash, digestStart)
    }
}

extension CID {
    /// A multicodec content type.
    public struct Codec: RawRepresentable, Sendable, Hashable {
        /// The multicodec code.
        public var rawValue: UInt64

        /// Wraps a code.
        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// `raw` (0x55): bytes as they are; atproto blobs.
        public static let raw = Codec(rawValue: 0x55)
        /// `dag-cbor` (0x71): records, commits and other DAG-CBOR nodes.
        public static let dagCBOR = Codec(rawValue: 0x71)
        /// `dag-pb` (0x70): the codec of every CIDv0.
        public static let dagPB = Codec(rawValue: 0x70)
    }

    /// A multihash function.
    public struct HashFunction: RawRepresentable, Sendable, Hashable {
        /// The multihash code.
        public var rawValue: UInt64

        /// Wraps a code.
        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// `identity` (0x00): the digest is the content itself.
        public static let identity = HashFunction(rawValue: 0x00)
        /// `sha2-256` (0x12), the hash function of atproto.
        public static let sha256 = HashFunction(rawValue: 0x12)
    }
}
