/// A standard query (RFC 1035 §4.1) for the TXT records of one name.
struct DNSQuery: Sendable {
    /// The record type TXT.
    static let typeTXT: UInt16 = 16
    /// The record type CNAME.
    static let typeCNAME: UInt16 = 5
    /// The class IN.
    static let classIN: UInt16 = 1

    /// The message ID the answer must carry.
    var id: UInt16
    /// The name asked.
    var name: DNSName

    /// A query for `name` with a random ID.
    init(name: DNSName, id: UInt16 = .random(in: .min ... .max)) {
        self.id = id
        self.name = name
    }

    /// The message: a header with RD set and one question (`name`, TXT, IN).
    var message: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + 255 + 4)
        append(id, to: &bytes)
        append(0x0100, to: &bytes)  // QR 0, OPCODE 0 (QUERY), RD 1
        append(1, to: &bytes)  // QDCOUNT
        append(0, to: &bytes)  // ANCOUNT
        append(0, to: &bytes)  // NSCOUNT
        append(0, to: &bytes)  // ARCOUNT
        bytes.append(contentsOf: name.wireFormat)
        append(Self.typeTXT, to: &bytes)
        append(Self.classIN, to: &bytes)
        return bytes
    }

    private func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }
}
