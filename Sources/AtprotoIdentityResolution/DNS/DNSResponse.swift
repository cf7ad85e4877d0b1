/// What an answer to a ``DNSQuery`` says.
enum DNSResponse: Sendable, Equatable {
    /// The TXT records of the name (possibly none), each record's strings joined.
    case records([String])
    /// NXDOMAIN: the name does not exist.
    case nonexistent
    /// Another error code: 2 SERVFAIL, 5 REFUSED, ...
    case failure(rcode: Int)
    /// The TC bit is set: the answer did not fit a datagram; ask again over TCP.
    case truncated

    /// The largest message read, over UDP or TCP (the TCP length prefix cannot say more).
    static let maximumSize = 65_535

    /// Reads `message` as the answer to `query`.
    ///
    /// Returns nil for a message that is no answer to this query (another ID, QR clear, another
    /// question): over UDP it may be stray or spoofed, and the client keeps waiting. Throws
    /// ``DNSMalformedMessage`` for an answer to this query that cannot be read. With `allowTruncated`
    /// false (over TCP) the TC bit is ignored and the answer is read as it is.
    static func parse(
        _ message: [UInt8], for query: DNSQuery, allowTruncated: Bool = true
    ) throws(DNSMalformedMessage) -> DNSResponse? {
        var reader = DNSMessageReader(message)
        guard message.count >= 2, try reader.readUInt16("the header") == query.id else { return nil }
        guard message.count <= maximumSize else {
            throw DNSMalformedMessage(reason: "the answer is larger than \(maximumSize) bytes")
        }
        let flags = try reader.readUInt16("the header")
        let questions = try reader.readUInt16("the header")
        let answers = try reader.readUInt16("the header")
        try reader.skip(4, "the header")  // NSCOUNT, ARCOUNT
        let isResponse = flags & 0x8000 != 0
        let opcode = (flags >> 11) & 0x0F
        guard isResponse, opcode == 0 else { return nil }
        if allowTruncated, flags & 0x0200 != 0 { return .truncated }
        let rcode = Int(flags & 0x000F)

        switch questions {
        case 1:
            let name = try reader.readName("the question")
            let type = try reader.readUInt16("the question")
            let qclass = try reader.readUInt16("the question")
            guard name == query.name, type == DNSQuery.typeTXT, qclass == DNSQuery.classIN else { return nil }
        case 0 where rcode != 0:
            break  // some servers leave the question out of an error answer
        default:
            throw DNSMalformedMessage(reason: "the answer has \(questions) questions instead of 1")
        }

        switch rcode {
        case 0: return .records(try readTXTRecords(&reader, count: Int(answers), asked: query.name))
        case 3: return .nonexistent
        default: return .failure(rcode: rcode)
        }
    }

    /// One resource record of the answer section.
    private struct Record {
        var owner: DNSName
        var type: UInt16
        var recordClass: UInt16
        var data: Range<Int>
        var cnameTarget: DNSName?
    }

    /// The TXT records of the answer section whose owner is `asked` or the target of a CNAME chain
    /// from it within the answer (nothing is looked up); records of other types are skipped.
    private static func readTXTRecords(
        _ reader: inout DNSMessageReader, count: Int, asked: DNSName
    ) throws(DNSMalformedMessage) -> [String] {
        var records: [Record] = []
        for index in 0..<count {
            let what = "answer record \(index + 1)"
            let owner = try reader.readName(what)
            let type = try reader.readUInt16(what)
            let recordClass = try reader.readUInt16(what)
            _ = try reader.readUInt32(what)  // TTL
            let length = Int(try reader.readUInt16(what))
            let start = reader.offset
            try reader.skip(length, "the data of \(what)")
            var record = Record(owner: owner, type: type, recordClass: recordClass, data: start..<start + length)
            if type == DNSQuery.typeCNAME {
                var targetReader = DNSMessageReader(reader.bytes, offset: start)
                record.cnameTarget = try targetReader.readName("the CNAME target of \(what)")
                guard targetReader.offset == record.data.upperBound else {
                    throw DNSMalformedMessage(reason: "the CNAME target of \(what) does not fill its data")
                }
            }
            records.append(record)
        }

        // The owners to accept: the name asked and, hop by hop, CNAME targets (at most one hop per record).
        var owners: Set<DNSName> = [asked]
        var current = asked
        for _ in records {
            guard let next = records.first(where: { $0.owner == current && $0.cnameTarget != nil })?.cnameTarget,
                owners.insert(next).inserted
            else { break }
            current = next
        }

        var texts: [String] = []
        for record in records
        where record.type == DNSQuery.typeTXT && record.recordClass == DNSQuery.classIN
            && owners.contains(record.owner)
        {
            texts.append(try joinedStrings(reader.bytes[record.data]))
        }
        return texts
    }

    /// The character-strings of TXT data (RFC 1035 §3.3.14), each a length byte and that many bytes,
    /// joined into one string; bytes that are no UTF-8 become U+FFFD.
    private static func joinedStrings(_ data: ArraySlice<UInt8>) throws(DNSMalformedMessage) -> String {
        var joined: [UInt8] = []
        joined.reserveCapacity(data.count)
        var position = data.startIndex
        while position < data.endIndex {
            let length = Int(data[position])
            let start = position + 1
            guard start + length <= data.endIndex else {
                throw DNSMalformedMessage(reason: "a TXT character-string runs past its record's data")
            }
            joined.append(contentsOf: data[start..<start + length])
            position = start + length
        }
        return String(decoding: joined, as: UTF8.self)
    }
}
