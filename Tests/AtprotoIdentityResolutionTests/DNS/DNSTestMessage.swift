/// Builds answer packets for ``DNSTestServer``, well-formed or crafted to be hostile.
enum DNSTestMessage {
    /// `name` in wire form: length-prefixed labels and the root's 0.
    static func wireName(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for label in name.split(separator: ".") {
            bytes.append(UInt8(label.utf8.count))
            bytes += Array(label.utf8)
        }
        return bytes + [0]
    }

    /// A pointer to the question name, which always starts at offset 12.
    static let questionPointer: [UInt8] = [0xC0, 0x0C]

    static func word(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// A resource record: `owner` in wire form (or a pointer), type, class IN, a TTL of 300, `data`.
    static func record(owner: [UInt8] = questionPointer, type: UInt16, qclass: UInt16 = 1, data: [UInt8]) -> [UInt8] {
        owner + word(type) + word(qclass) + [0, 0, 1, 44] + word(UInt16(data.count)) + data
    }

    /// A TXT record whose data holds `strings`, each behind its length.
    static func txt(owner: [UInt8] = questionPointer, _ strings: [String]) -> [UInt8] {
        record(owner: owner, type: 16, data: strings.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) })
    }

    /// A CNAME record pointing to `target`.
    static func cname(owner: [UInt8] = questionPointer, to target: String) -> [UInt8] {
        record(owner: owner, type: 5, data: wireName(target))
    }

    /// An A record.
    static func a(owner: [UInt8] = questionPointer) -> [UInt8] {
        record(owner: owner, type: 1, data: [192, 0, 2, 1])
    }

    /// An answer to `query`: its ID (or `id`), QR RD RA (and TC when `truncated`), `rcode`, the question
    /// echoed (as `questionName` when given), and `answers`.
    static func answer(
        to query: DNSTestServer.Query, id: UInt16? = nil, rcode: UInt16 = 0, truncated: Bool = false,
        questionName: String? = nil, answers: [[UInt8]] = []
    ) -> [UInt8] {
        let flags: UInt16 = 0x8180 | (truncated ? 0x0200 : 0) | rcode
        return word(id ?? query.id) + word(flags) + word(1) + word(UInt16(answers.count)) + word(0) + word(0)
            + wireName(questionName ?? query.name) + word(query.type) + word(query.qclass) + answers.flatMap { $0 }
    }
}
