import Foundation

/// A CAR v1 file (Content Addressable aRchive, ipld.io/specs/transport/car/carv1): root CIDs and
/// a sequence of blocks, each content with its CID. Repository exports and the `blocks` of
/// firehose commits are CAR files.
///
/// The layout: a varint length and a DAG-CBOR header `{version: 1, roots: [CID...]}`, then for each
/// block a varint length and the block's CID and bytes.
public struct CARFile: Sendable, Hashable {
    /// The root CIDs from the header (for an atproto repository, the commit).
    public var roots: [CID]
    /// The blocks in file order.
    public var blocks: [CARBlock]

    /// Creates a CAR file from its parts.
    public init(roots: [CID], blocks: [CARBlock]) {
        self.roots = roots
        self.blocks = blocks
    }

    /// Reads a CAR v1 file.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - verifyingHashes: Whether to check that each block's bytes hash to its CID (SHA-256 and
    ///     identity CIDs can be checked; any other hash function is an error when checking).
    /// - Throws: ``AtprotoBinaryDecodingError`` saying what is wrong and at which byte of the file: a
    ///   malformed or truncated header or block, a header that is not `{version: 1, roots}`, or
    ///   (``AtprotoBinaryDecodingError/Code/hashMismatch``) a block whose bytes do not match its CID.
    @inlinable
    public init(reading bytes: some ContiguousBytes, verifyingHashes: Bool = true) throws(AtprotoBinaryDecodingError) {
        self = try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in
            try CARFile.read(buffer, verifyingHashes: verifyingHashes)
        }
    }

    /// Bounds on what a CAR may hold, so a hostile file costs little: reading stops at the first block
    /// past a bound, before hashing or copying it.
    public struct Limits: Sendable, Hashable {
        /// The most blocks a file may hold. Default: no bound beyond the file's size.
        public var maximumBlocks: Int
        /// The most bytes one block's content may have (its CID not counted). Default 4 MiB: twice the
        /// largest record a PDS accepts is far above every node and commit.
        public var maximumBlockSize: Int

        /// The default bounds.
        public static let `default` = Limits()

        /// Creates limits.
        public init(maximumBlocks: Int = .max, maximumBlockSize: Int = 4 << 20) {
            self.maximumBlocks = maximumBlocks
            self.maximumBlockSize = maximumBlockSize
        }
    }

    /// Reads a CAR v1 file within `limits`; otherwise as ``init(reading:verifyingHashes:)``.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError`` as ``init(reading:verifyingHashes:)`` does, and
    ///   ``AtprotoBinaryDecodingError/Code/limitExceeded`` at the first block past `limits.maximumBlocks` or
    ///   larger than `limits.maximumBlockSize`.
    public init(
        reading bytes: some ContiguousBytes, verifyingHashes: Bool = true, limits: Limits
    ) throws(AtprotoBinaryDecodingError) {
        self = try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in
            try CARFile.read(buffer, verifyingHashes: verifyingHashes, limits: limits)
        }
    }

    /// The bytes of the block with CID `cid`, if the file has one (a linear search).
    public func block(for cid: CID) -> Data? {
        blocks.first { $0.cid == cid }?.bytes
    }

    /// The blocks' bytes by CID, for many look-ups.
    public var blocksByCID: [CID: Data] {
        Dictionary(blocks.map { ($0.cid, $0.bytes) }, uniquingKeysWith: { first, _ in first })
    }

    /// The file's bytes: the header, then every block in order.
    public func encoded() -> [UInt8] {
        let header = DAGCBOR.encode(.map(["version": .integer(1), "roots": .array(roots.map { .link($0) })]))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            header.count + blocks.reduce(10) { $0 + $1.bytes.count + $1.cid.withUnsafeBytes(\.count) + 10 })
        Varint.append(UInt64(header.count), to: &bytes)
        bytes.append(contentsOf: header)
        for block in blocks {
            block.cid.withUnsafeBytes { cid in
                Varint.append(UInt64(cid.count + block.bytes.count), to: &bytes)
                bytes.append(contentsOf: cid)
            }
            bytes.append(contentsOf: block.bytes)
        }
        return bytes
    }

    @usableFromInline
    static func read(
        _ buffer: UnsafeRawBufferPointer, verifyingHashes: Bool, limits: Limits = .default
    ) throws(AtprotoBinaryDecodingError) -> CARFile {
        var blocks: [CARBlock] = []
        let roots = try forEachBlock(in: buffer, verifyingHashes: verifyingHashes, limits: limits) { cid, range in
            blocks.append(CARBlock(cid: cid, bytes: Data(UnsafeRawBufferPointer(rebasing: buffer[range]))))
        }
        return CARFile(roots: roots, blocks: blocks)
    }

    /// Reads a CAR v1 file in `buffer` as ``init(reading:verifyingHashes:limits:)`` does, with the same
    /// checks and errors, but copies no block: `body` gets each block's CID and the range of its bytes
    /// in `buffer`, in file order. Returns the roots.
    package static func forEachBlock(
        in buffer: UnsafeRawBufferPointer, verifyingHashes: Bool, limits: Limits,
        _ body: (CID, Range<Int>) throws(AtprotoBinaryDecodingError) -> Void
    ) throws(AtprotoBinaryDecodingError) -> [CID] {
        var offset = 0
        let roots = try readHeader(buffer, at: &offset)
        var count = 0
        while offset < buffer.count {
            guard count < limits.maximumBlocks else {
                throw AtprotoBinaryDecodingError(
                    .limitExceeded, offset: offset, message: "CAR holds more than \(limits.maximumBlocks) blocks")
            }
            let (cid, range) = try readBlock(
                buffer, at: &offset, index: count, verifyingHashes: verifyingHashes,
                maximumSize: limits.maximumBlockSize)
            try body(cid, range)
            count += 1
        }
        return roots
    }

    /// The part of `buffer` that a varint length at `offset` announces, moving `offset` past both.
    private static func section(
        _ buffer: UnsafeRawBufferPointer, at offset: inout Int, _ what: String
    ) throws(AtprotoBinaryDecodingError) -> (start: Int, bytes: UnsafeRawBufferPointer) {
        let lengthStart = offset
        let length = try Varint.read(buffer, at: &offset, "CAR \(what) length")
        guard length > 0 else {
            throw AtprotoBinaryDecodingError(.malformed, offset: lengthStart, message: "CAR \(what) is empty")
        }
        guard length <= UInt64(buffer.count - offset) else {
            throw AtprotoBinaryDecodingError(
                .truncated, offset: lengthStart,
                message: "CAR \(what) of \(length) bytes is truncated: \(buffer.count - offset) bytes remain")
        }
        let start = offset
        offset += Int(length)
        return (start, UnsafeRawBufferPointer(rebasing: buffer[start..<offset]))
    }

    /// Reads the header at `offset` and returns its roots.
    private static func readHeader(
        _ buffer: UnsafeRawBufferPointer, at offset: inout Int
    ) throws(AtprotoBinaryDecodingError) -> [CID] {
        let (start, bytes) = try section(buffer, at: &offset, "header")
        let header: AtprotoDataModelValue
        do {
            header = try DAGCBOR.decode(bytes)
        } catch {
            throw AtprotoBinaryDecodingError(
                error.code, offset: error.offset + start, message: "CAR header: \(error.message)")
        }
        guard case .map(let fields) = header else {
            throw AtprotoBinaryDecodingError(
                .invalidCARHeader, offset: start, message: "CAR header is a \(header.kindName), not a map")
        }
        guard case .integer(let version)? = fields["version"] else {
            throw AtprotoBinaryDecodingError(
                .invalidCARHeader, offset: start, message: "CAR header has no integer \"version\"")
        }
        guard version == 1 else {
            throw AtprotoBinaryDecodingError(
                .invalidCARHeader, offset: start, message: "CAR version \(version) is not supported (only version 1)")
        }
        guard case .array(let items)? = fields["roots"] else {
            throw AtprotoBinaryDecodingError(
                .invalidCARHeader, offset: start, message: "CAR header has no \"roots\" array")
        }
        var roots: [CID] = []
        for item in items {
            guard case .link(let cid) = item else {
                throw AtprotoBinaryDecodingError(
                    .invalidCARHeader, offset: start, message: "CAR header root is a \(item.kindName), not a CID link")
            }
            roots.append(cid)
        }
        return roots
    }

    /// Reads the block at `offset`, the `index`th of the file.
    private static func readBlock(
        _ buffer: UnsafeRawBufferPointer, at offset: inout Int, index: Int, verifyingHashes: Bool, maximumSize: Int
    ) throws(AtprotoBinaryDecodingError) -> (cid: CID, range: Range<Int>) {
        let blockStart = offset
        let (start, bytes) = try section(buffer, at: &offset, "block \(index)")
        var cidEnd = 0
        let cid: CID
        do {
            cid = try CID.read(bytes, at: &cidEnd)
        } catch {
            throw AtprotoBinaryDecodingError(
                error.code, offset: error.offset + start, message: "CAR block \(index): \(error.message)")
        }
        let content = UnsafeRawBufferPointer(rebasing: bytes[cidEnd...])
        guard content.count <= maximumSize else {
            throw AtprotoBinaryDecodingError(
                .limitExceeded, offset: blockStart,
                message: "CAR block \(index) has \(content.count) bytes, over the limit of \(maximumSize)")
        }
        if verifyingHashes {
            let matches: Bool
            do {
                matches = try cid.matches(content)
            } catch {
                throw AtprotoBinaryDecodingError(
                    error.code, offset: blockStart, message: "CAR block \(index): \(error.message)")
            }
            guard matches else {
                let found =
                    cid.hashFunction == .sha256
                    ? "hash to \(CID(sha256Of: content, codec: cid.codec))" : "do not match its digest"
                throw AtprotoBinaryDecodingError(
                    .hashMismatch, offset: blockStart,
                    message: "CAR block \(index) has CID \(cid) but its \(content.count) bytes \(found)")
            }
        }
        return (cid, start + cidEnd..<offset)
    }
}

/// One block of a ``CARFile``: content and its CID.
public struct CARBlock: Sendable, Hashable {
    /// The CID of ``bytes``.
    public var cid: CID
    /// The content, e.g. a DAG-CBOR record.
    public var bytes: Data

    /// Pairs content with its CID as given; nothing is checked.
    public init(cid: CID, bytes: Data) {
        self.cid = cid
        self.bytes = bytes
    }

    /// A block of DAG-CBOR `value`, with the CID computed from its bytes.
    public init(encoding value: AtprotoDataModelValue) {
        let bytes = DAGCBOR.encode(value)
        self.init(cid: CID(sha256Of: bytes, codec: .dagCBOR), bytes: Data(bytes))
    }
}
