import Foundation

extension DAGCBOR {
    /// Writes `value` as canonical DAG-CBOR: every length, integer and tag in its shortest form, map
    /// keys shorter first and then bytewise, links as tag 42 holding `0x00` and the CID's bytes.
    public static func encode(_ value: AtprotoDataModelValue) -> [UInt8] {
        var writer = DAGCBORWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Writes a value in the data model's JSON form (with `$bytes` and `$link` objects) as canonical
    /// DAG-CBOR; see ``AtprotoDataModelValue/init(json:)`` for how it is read.
    ///
    /// - Throws: ``LexiconDecodingError`` when `json` is not in the data model (a float, a malformed
    ///   `$bytes` or `$link`).
    public static func encode(json: JSONValue) throws(LexiconDecodingError) -> [UInt8] {
        encode(try AtprotoDataModelValue(json: json))
    }

    /// The CIDv1 of `value`: SHA-256 of its DAG-CBOR bytes, with the `dag-cbor` codec.
    public static func cid(of value: AtprotoDataModelValue) -> CID {
        CID(sha256Of: encode(value), codec: .dagCBOR)
    }

    /// Whether map key `left` comes before `right` in canonical order: shorter first, then bytewise.
    static func canonicalOrder(_ left: String, _ right: String) -> Bool {
        let leftCount = left.utf8.count
        let rightCount = right.utf8.count
        if leftCount != rightCount { return leftCount < rightCount }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}

/// Appends canonical DAG-CBOR to a byte array.
struct DAGCBORWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value`.
    mutating func write(_ value: AtprotoDataModelValue) {
        switch value {
        case .null: bytes.append(0xF6)
        case .bool(let flag): bytes.append(flag ? 0xF5 : 0xF4)
        case .integer(let number): writeInteger(number)
        case .string(let text): writeText(text)
        case .bytes(let data):
            writeHeader(major: 2, UInt64(data.count))
            bytes.append(contentsOf: data)
        case .link(let cid): writeLink(cid)
        case .array(let items):
            writeHeader(major: 4, UInt64(items.count))
            for item in items { write(item) }
        case .map(let entries):
            writeHeader(major: 5, UInt64(entries.count))
            for key in entries.keys.sorted(by: DAGCBOR.canonicalOrder) {
                writeText(key)
                if let item = entries[key] { write(item) }
            }
        }
    }

    /// Appends a signed integer (major type 0 or 1).
    mutating func writeInteger(_ number: Int) {
        if number >= 0 {
            writeHeader(major: 0, UInt64(number))
        } else {
            // -1 - n, which is ~n in two's complement, never overflows.
            writeHeader(major: 1, UInt64(bitPattern: Int64(~number)))
        }
    }

    /// Appends a text string.
    mutating func writeText(_ text: String) {
        let utf8 = text.utf8
        writeHeader(major: 3, UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Appends a link: tag 42 on a byte string of `0x00` and the CID's bytes.
    mutating func writeLink(_ cid: CID) {
        bytes.append(contentsOf: [0xD8, 42])
        cid.withUnsafeBytes { cidBytes in
            writeHeader(major: 2, UInt64(cidBytes.count + 1))
            bytes.append(0)
            bytes.append(contentsOf: cidBytes)
        }
    }

    /// Appends a header: the major type and its argument in the shortest form.
    mutating func writeHeader(major: UInt8, _ argument: UInt64) {
        let type = major << 5
        switch argument {
        case 0..<24:
            bytes.append(type | UInt8(argument))
        case 24...0xFF:
            bytes.append(type | 24)
            bytes.append(UInt8(argument))
        case 0x100...0xFFFF:
            bytes.append(type | 25)
            appendBigEndian(argument, byteCount: 2)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            appendBigEndian(argument, byteCount: 4)
        default:
            bytes.append(type | 27)
            appendBigEndian(argument, byteCount: 8)
        }
    }

    private mutating func appendBigEndian(_ value: UInt64, byteCount: Int) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
        }
    }
}

extension DAGCBOR {
    /// Appends `value` as canonical DAG-CBOR to `bytes`: for writers that put a value's parts in one
    /// buffer themselves (XRPCCore's output for generated types).
    package static func append(_ value: AtprotoDataModelValue, to bytes: inout [UInt8]) {
        withWriter(on: &bytes) { $0.write(value) }
    }

    /// Appends the header of a major type with its argument (a length or a count) in the shortest form.
    package static func appendHeader(major: UInt8, _ argument: Int, to bytes: inout [UInt8]) {
        withWriter(on: &bytes) { $0.writeHeader(major: major, UInt64(argument)) }
    }

    /// Appends a text string.
    package static func appendText(_ text: String, to bytes: inout [UInt8]) {
        withWriter(on: &bytes) { $0.writeText(text) }
    }

    /// Appends a signed integer.
    package static func appendInteger(_ number: Int, to bytes: inout [UInt8]) {
        withWriter(on: &bytes) { $0.writeInteger(number) }
    }

    /// Appends a link (tag 42).
    package static func appendLink(_ cid: CID, to bytes: inout [UInt8]) {
        withWriter(on: &bytes) { $0.writeLink(cid) }
    }

    /// Whether map key `left` comes before `right` in canonical order (shorter first, then bytewise).
    package static func keyPrecedes(_ left: String, _ right: String) -> Bool {
        canonicalOrder(left, right)
    }

    /// Runs `body` on a writer that holds `bytes` (moved in and back, not copied).
    private static func withWriter(on bytes: inout [UInt8], _ body: (inout DAGCBORWriter) -> Void) {
        var writer = DAGCBORWriter(capacity: 0)
        swap(&writer.bytes, &bytes)
        body(&writer)
        swap(&writer.bytes, &bytes)
    }
}
