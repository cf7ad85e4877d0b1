import Foundation

/// DAG-CBOR, the binary form of the atproto data model (atproto.com/specs/data-model): reading and
/// writing ``AtprotoDataModelValue``s.
///
/// Reading is strict: it accepts only the canonical encoding that ``encode(_:)`` writes, so a
/// value read and written again has the same bytes, and so the same CID.
public enum DAGCBOR {
    /// The deepest nesting of arrays and maps that decoding accepts (the default of
    /// ``decode(_:maximumDepth:)``, which takes another).
    public static let maximumDepth = 512

    /// Reads one DAG-CBOR value that fills all of `bytes`.
    ///
    /// Rejects, with the byte offset of the fault: indefinite lengths; integers, lengths and tags
    /// not in their shortest form; integers outside the signed 64-bit range; floats (the atproto data
    /// model has none); simple values other than `false`, `true` and `null`; tags other than 42; a
    /// tag 42 that is not a byte string of `0x00` and a CIDv1; map keys that are not text strings,
    /// are repeated, or are not in canonical order (shorter first, then bytewise); invalid UTF-8;
    /// nesting deeper than ``maximumDepth``; and bytes after the value.
    @inlinable
    public static func decode(_ bytes: some ContiguousBytes) throws(AtprotoBinaryDecodingError) -> AtprotoDataModelValue
    {
        try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in
            try decode(buffer)
        }
    }

    /// Reads one DAG-CBOR value that fills all of `bytes`, with a nesting limit of the caller's
    /// choosing; otherwise as ``decode(_:)``. A map or array deeper than `maximumDepth` levels is
    /// ``AtprotoBinaryDecodingError/Code/tooDeep`` at its header, found before anything deeper is read.
    public static func decode(
        _ bytes: some ContiguousBytes, maximumDepth: Int
    ) throws(AtprotoBinaryDecodingError) -> AtprotoDataModelValue {
        try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in
            var reader = DAGCBORReader(buffer, maximumDepth: maximumDepth)
            let value = try reader.readValue()
            guard reader.offset == buffer.count else {
                throw AtprotoBinaryDecodingError(
                    .trailingBytes, offset: reader.offset,
                    message: "\(buffer.count - reader.offset) bytes follow the value")
            }
            return value
        }
    }

    /// Reads the DAG-CBOR value at the start of `bytes`, which may be followed by more bytes, such
    /// as the body after the header of an event-stream frame. Returns the value and the number of
    /// bytes it took.
    ///
    /// The rules are those of ``decode(_:)``.
    @inlinable
    public static func decodePrefix(
        _ bytes: some ContiguousBytes
    ) throws(AtprotoBinaryDecodingError) -> (value: AtprotoDataModelValue, byteCount: Int) {
        try bytes.withBytes { buffer throws(AtprotoBinaryDecodingError) in try decodePrefix(buffer) }
    }

    /// Reads the value at the start of `buffer`; see ``decodePrefix(_:)``.
    @usableFromInline
    static func decodePrefix(
        _ buffer: UnsafeRawBufferPointer
    ) throws(AtprotoBinaryDecodingError) -> (value: AtprotoDataModelValue, byteCount: Int) {
        var reader = DAGCBORReader(buffer)
        return (try reader.readValue(), reader.offset)
    }

    /// Reads one value that fills all of `buffer`; see ``decode(_:)``.
    @usableFromInline
    static func decode(_ buffer: UnsafeRawBufferPointer) throws(AtprotoBinaryDecodingError) -> AtprotoDataModelValue {
        var reader = DAGCBORReader(buffer)
        let value = try reader.readValue()
        guard reader.offset == buffer.count else {
            throw AtprotoBinaryDecodingError(
                .trailingBytes, offset: reader.offset, message: "\(buffer.count - reader.offset) bytes follow the value"
            )
        }
        return value
    }
}

/// A strict DAG-CBOR reader over a buffer. Offsets in its errors count from the buffer's start.
struct DAGCBORReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let count: Int
    /// The offset of the next byte to read.
    private(set) var offset = 0
    private var depth = 0
    private let maximumDepth: Int

    init(_ buffer: UnsafeRawBufferPointer, maximumDepth: Int = DAGCBOR.maximumDepth) {
        bytes = buffer.assumingMemoryBound(to: UInt8.self)
        count = buffer.count
        self.maximumDepth = maximumDepth
    }

    /// The major type, the argument of the header at `offset`, and moves past the header.
    @inline(__always)
    private mutating func readHeader() throws(AtprotoBinaryDecodingError) -> (major: UInt8, argument: UInt64) {
        let start = offset
        guard offset < count else { throw truncated(start, "expected a value") }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5
        let info = initial & 0x1F
        if info < 24 { return (major, UInt64(info)) }
        if major == 7 { throw simpleValueError(info, at: start) }
        let size: Int
        let minimum: UInt64
        switch info {
        case 24: (size, minimum) = (1, 24)
        case 25: (size, minimum) = (2, 0x100)
        case 26: (size, minimum) = (4, 0x1_0000)
        case 27: (size, minimum) = (8, 0x1_0000_0000)
        case 31:
            throw AtprotoBinaryDecodingError(
                .indefiniteLength, offset: start, message: "indefinite-length \(majorName(major))")
        default:
            throw AtprotoBinaryDecodingError(
                .malformed, offset: start, message: "reserved additional information \(info)")
        }
        guard count - offset >= size else { throw truncated(start, "the input ends inside a header") }
        var argument: UInt64 = 0
        for index in 0..<size { argument = argument << 8 | UInt64(bytes[offset + index]) }
        offset += size
        guard argument >= minimum else {
            throw AtprotoBinaryDecodingError(
                .nonCanonical, offset: start,
                message: "\(majorName(major)) argument \(argument) is not in its shortest form")
        }
        return (major, argument)
    }

    /// Reads the value at `offset`.
    mutating func readValue() throws(AtprotoBinaryDecodingError) -> AtprotoDataModelValue {
        let start = offset
        let (major, argument) = try readHeader()
        switch major {
        case 0:
            guard argument <= UInt64(Int.max) else { throw outOfRange(start, "\(argument)") }
            return .integer(Int(argument))
        case 1:
            guard argument <= UInt64(Int.max) else { throw outOfRange(start, "-1 - \(argument)") }
            return .integer(-1 - Int(argument))
        case 2:
            let length = try contentLength(argument, at: start, "byte string")
            defer { offset += length }
            return .bytes(Data(slice(length)))
        case 3:
            return .string(try readText(length: argument, at: start))
        case 4:
            return .array(try readArray(count: argument, at: start))
        case 5:
            return .map(try readMap(count: argument, at: start))
        case 6:
            return .link(try readLink(tag: argument, at: start))
        default:
            // Major type 7 with an argument below 24: false, true, null, or an unassigned simple value.
            switch argument {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw simpleValueError(UInt8(truncatingIfNeeded: argument), at: start)
            }
        }
    }

    /// The next `length` bytes, which must remain.
    @inline(__always)
    private func slice(_ length: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])
    }

    /// Checks that `argument` bytes remain and returns it as a length.
    @inline(__always)
    private func contentLength(
        _ argument: UInt64, at start: Int, _ what: StaticString
    ) throws(AtprotoBinaryDecodingError) -> Int {
        guard argument <= UInt64(count - offset) else {
            throw truncated(start, "\(what) of \(argument) bytes, but \(count - offset) remain")
        }
        return Int(argument)
    }

    private mutating func readText(length argument: UInt64, at start: Int) throws(AtprotoBinaryDecodingError) -> String
    {
        let length = try contentLength(argument, at: start, "text string")
        let text = slice(length)
        guard let string = UTF8Text.string(text) else {
            throw AtprotoBinaryDecodingError(.invalidUTF8, offset: start, message: "text string is not valid UTF-8")
        }
        offset += length
        return string
    }

    private mutating func readArray(count argument: UInt64, at start: Int) throws(AtprotoBinaryDecodingError)
        -> [AtprotoDataModelValue]
    {
        // Each element takes at least one byte, so a count beyond the remaining bytes is truncated.
        let length = try contentLength(argument, at: start, "array")
        try enter(at: start)
        var items: [AtprotoDataModelValue] = []
        items.reserveCapacity(length)
        for _ in 0..<length { items.append(try readValue()) }
        depth -= 1
        return items
    }

    private mutating func readMap(
        count argument: UInt64, at start: Int
    ) throws(AtprotoBinaryDecodingError) -> [String: AtprotoDataModelValue] {
        // Each entry takes at least two bytes.
        guard argument <= UInt64(count - offset) / 2 else {
            throw truncated(start, "map of \(argument) entries, but \(count - offset) bytes remain")
        }
        try enter(at: start)
        var entries = [String: AtprotoDataModelValue](minimumCapacity: Int(argument))
        var previous: UnsafeBufferPointer<UInt8>?
        for _ in 0..<argument {
            let keyStart = offset
            let (major, keyLength) = try readHeader()
            guard major == 3 else {
                throw AtprotoBinaryDecodingError(
                    .nonStringMapKey, offset: keyStart, message: "map key is a \(majorName(major)), not a text string")
            }
            let length = try contentLength(keyLength, at: keyStart, "map key")
            let key = slice(length)
            if let previous { try checkOrder(previous, key, at: keyStart) }
            guard let keyString = UTF8Text.string(key) else {
                throw AtprotoBinaryDecodingError(.invalidUTF8, offset: keyStart, message: "map key is not valid UTF-8")
            }
            offset += length
            previous = key
            entries[keyString] = try readValue()
        }
        depth -= 1
        return entries
    }

    /// Checks that map key `key` sorts after `previous`: shorter first, then bytewise.
    @inline(__always)
    private func checkOrder(
        _ previous: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>, at keyStart: Int
    ) throws(AtprotoBinaryDecodingError) {
        if previous.count < key.count { return }
        if previous.count == key.count {
            var index = 0
            while index < key.count, previous[index] == key[index] { index += 1 }
            if index < key.count, previous[index] < key[index] { return }
            if index == key.count {
                let name = String(decoding: key, as: UTF8.self)
                throw AtprotoBinaryDecodingError(
                    .duplicateMapKey, offset: keyStart, message: "map key \"\(name)\" appears twice")
            }
        }
        throw AtprotoBinaryDecodingError(
            .unsortedMapKeys, offset: keyStart,
            message: "map key \"\(String(decoding: key, as: UTF8.self))\" is out of canonical order "
                + "(after \"\(String(decoding: previous, as: UTF8.self))\"; shorter keys first, then bytewise)")
    }

    /// Reads the content of tag `tag`, which must be 42: a byte string of `0x00` and a CIDv1.
    private mutating func readLink(tag: UInt64, at start: Int) throws(AtprotoBinaryDecodingError) -> CID {
        guard tag == 42 else {
            throw AtprotoBinaryDecodingError(
                .unsupportedTag, offset: start, message: "tag \(tag) is not allowed (only 42, a CID link)")
        }
        let contentStart = offset
        let (major, argument) = try readHeader()
        guard major == 2 else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: contentStart, message: "tag 42 holds a \(majorName(major)), not a byte string")
        }
        let length = try contentLength(argument, at: contentStart, "CID link")
        guard length > 0, bytes[offset] == 0 else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: offset, message: "CID link does not start with the 0x00 multibase prefix")
        }
        let cidStart = offset + 1
        let content = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[cidStart..<offset + length])
        var end = 0
        let cid: CID
        do {
            cid = try CID.read(content, at: &end)
        } catch {
            throw error.shifted(by: cidStart)
        }
        guard end == content.count else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: cidStart + end, message: "CID link: bytes follow the digest")
        }
        guard cid.version == 1 else {
            throw AtprotoBinaryDecodingError(
                .invalidCID, offset: cidStart, message: "CID link is a CIDv0; the data model links by CIDv1")
        }
        offset += length
        return cid
    }

    private mutating func enter(at start: Int) throws(AtprotoBinaryDecodingError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw AtprotoBinaryDecodingError(
                .tooDeep, offset: start, message: "nesting is deeper than \(maximumDepth) levels")
        }
    }

    private func truncated(_ start: Int, _ message: String) -> AtprotoBinaryDecodingError {
        AtprotoBinaryDecodingError(.truncated, offset: start, message: "truncated: \(message)")
    }

    private func outOfRange(_ start: Int, _ value: String) -> AtprotoBinaryDecodingError {
        AtprotoBinaryDecodingError(
            .integerOutOfRange, offset: start, message: "integer \(value) is outside the signed 64-bit range")
    }

    /// The error for major type 7 with additional information `info`, other than false, true, null.
    private func simpleValueError(_ info: UInt8, at start: Int) -> AtprotoBinaryDecodingError {
        switch info {
        case 25, 26, 27:
            return AtprotoBinaryDecodingError(
                .float, offset: start, message: "floats are not allowed in the atproto data model")
        case 23:
            return AtprotoBinaryDecodingError(
                .unsupportedSimpleValue, offset: start, message: "undefined is not allowed")
        case 31:
            return AtprotoBinaryDecodingError(.indefiniteLength, offset: start, message: "unexpected \"break\" (0xFF)")
        case 28, 29, 30:
            return AtprotoBinaryDecodingError(
                .malformed, offset: start, message: "reserved additional information \(info)")
        default:
            return AtprotoBinaryDecodingError(
                .unsupportedSimpleValue, offset: start,
                message: "simple values other than false, true and null are not allowed")
        }
    }

    private func majorName(_ major: UInt8) -> String {
        ["unsigned integer", "negative integer", "byte string", "text string", "array", "map", "tag", "simple value"][
            Int(major & 7)]
    }
}

/// Strings from UTF-8 bytes, checked.
enum UTF8Text {
    /// The string of `bytes`, or `nil` when they are not valid UTF-8.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        if isASCII(bytes) { return string }
        // Decoding replaces invalid sequences with U+FFFD, so invalid input comes out different.
        let same =
            string.utf8.withContiguousStorageIfAvailable { decoded in
                decoded.elementsEqual(bytes)
            } ?? string.utf8.elementsEqual(bytes)
        return same ? string : nil
    }

    /// Whether every byte is below 0x80, checked eight at a time.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < raw.count {
            if raw[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
