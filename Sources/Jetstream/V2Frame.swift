import AtprotoLexicons
import Foundation

// Reading a v2 frame. A commit frame, nearly every frame of a stream, is read straight from its text in
// one pass (CommitFrameScanner): its fields as the typed path reads them, its record decoded in place in
// the frame into its generated type. Any other frame, and any commit not of the usual shape, is
// read the general way: the frame's JSON tree, the generated message union, then the record from its
// tree. Both give the same message; the general way also reports what is wrong with a frame.
extension JetstreamMessage {
    /// A v2 text frame (`xrpc.v1.json`) as delivered; `nil` for a frame to skip (an unknown frame
    /// `$type`). Throws `.retry` for a `ConsumerTooSlow` error frame, `.fail` for other error frames
    /// and malformed frames.
    static func reading(v2 text: String, recordTypes: LexiconRecordTypes) throws(JetstreamConnectionEnd)
        -> JetstreamMessage?
    {
        var text = text
        if let commit = text.withUTF8({ commitFrame($0, recordTypes: recordTypes) }) { return commit }
        let frame: XRPCJSONEventFrame
        do {
            frame = try XRPCJSONEventFrame(text: text)
        } catch {
            throw .fail(JetstreamError(.malformedEvent, message: "\(error)"))
        }
        switch frame {
        case .unknown:
            return nil
        case .error(let name, let message) where name == "ConsumerTooSlow":
            throw .retry("the server dropped a slow reader (ConsumerTooSlow): \(message ?? "")")
        case .error(let name, let message):
            throw .fail(JetstreamError(.errorFrame, name: name, message: message ?? ""))
        case .message(let type, _):
            guard let json = frame.messageJSON(nsid: V2.nsid) else { return nil }
            let message: V2.Message
            do {
                message = try V2.Message(lexiconJSON: json)
            } catch {
                throw .fail(JetstreamError(.malformedEvent, message: "a \(type) message does not decode: \(error)"))
            }
            do {
                return try reading(message, recordTypes: recordTypes)
            } catch {
                throw .fail(error)
            }
        }
    }

    /// The commit in a message frame read straight from its bytes (``CommitFrameScanner``); `nil`
    /// when the frame is anything else or not of the usual shape (a field missing or of another type,
    /// JSON not valid), for the general reading to read or report.
    static func commitFrame(_ bytes: UnsafeBufferPointer<UInt8>, recordTypes: LexiconRecordTypes) -> JetstreamMessage? {
        var scanner = CommitFrameScanner(bytes, recordTypes: recordTypes)
        guard let fields = scanner.scan(), let did = fields.did, let time = fields.time, let rev = fields.rev,
            let operation = fields.operation, let collection = fields.collection, let rkey = fields.rkey
        else { return nil }
        let nsid = fields.nsid ?? NSID(rawValue: scanner.string(collection))
        let record: DecodedRecord?
        if let known = fields.knownRecord {
            record = .known(known)
        } else {
            do {
                record = try fields.record.map { try recordTypes.record(jsonBytes: scanner.data($0), collection: nsid) }
            } catch {
                return nil
            }
        }
        let commit = JetstreamCommit(
            rev: TID(rawValue: scanner.string(rev)), operation: .init(rawValue: scanner.string(operation)),
            collection: nsid, rkey: RecordKey(rawValue: scanner.string(rkey)),
            cid: fields.cid.map { CIDString(rawValue: scanner.string($0)) }, record: record)
        return .event(
            JetstreamEvent(
                cursor: fields.seq, did: DID(rawValue: scanner.string(did)),
                time: LexiconDatetime(rawValue: scanner.string(time)),
                kind: .commit(commit)))
    }
}

/// One pass over a v2 frame of the usual commit shape: `{"$type":"message","payload":{...}}` whose
/// payload is a `#commit` with string fields, an integer `seq` and an object `record`, members in any
/// order. Each byte is looked at once. A record that comes after its `collection` (as Jetstream writes
/// frames) of a type the lookup has is decoded in place, where it is in the frame; any other record is
/// only delimited here, and read from its bytes afterwards.
///
/// It is strict: a string with an escape, a `null`, a member it does not know, a duplicate, anything
/// but the grammar of such a frame makes it give up (`nil`), and the frame is read the general way,
/// which reads or reports it. What it accepts is valid JSON once the record's bytes are (the record's
/// decoding checks them).
struct CommitFrameScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The record types to decode a record into in place; `nil`: records are only delimited.
    private let recordTypes: LexiconRecordTypes?
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, recordTypes: LexiconRecordTypes? = nil) {
        self.bytes = bytes
        self.recordTypes = recordTypes
    }

    /// The fields of the commit, as ranges of the frame's bytes.
    struct Commit {
        var seq = 0
        var did: Range<Int>?
        var time: Range<Int>?
        var rev: Range<Int>?
        var operation: Range<Int>?
        var collection: Range<Int>?
        var rkey: Range<Int>?
        var cid: Range<Int>?
        var record: Range<Int>?
        /// The collection as an NSID, when it was made to decode the record in place.
        var nsid: NSID?
        /// The record, when it was decoded in place.
        var knownRecord: (any LexiconRecord)?
    }

    /// The commit, or `nil` when the frame is not of the usual shape.
    mutating func scan() -> Commit? {
        guard take(ASCII.openBrace) else { return nil }
        var commit: Commit?
        var sawType = false
        repeat {
            guard let key = plainString(), take(ASCII.colon) else { return nil }
            if matches(key, "$type") {
                guard !sawType, let value = plainString(), matches(value, "message") else { return nil }
                sawType = true
            } else if matches(key, "payload") {
                guard commit == nil, let payload = payload() else { return nil }
                commit = payload
            } else {
                return nil
            }
        } while take(ASCII.comma)
        guard take(ASCII.closeBrace), sawType else { return nil }
        skipSpace()
        return index == bytes.count ? commit : nil
    }

    private static let commitType = NetworkBskyJetstreamSubscribeEvents.nsid.rawValue + "#commit"

    private mutating func payload() -> Commit? {
        guard take(ASCII.openBrace) else { return nil }
        var commit = Commit()
        var seen: UInt16 = 0
        repeat {
            guard let key = plainString(), take(ASCII.colon) else { return nil }
            let field: UInt16
            // Dispatched on the key's length and first byte, then checked whole: no string made.
            switch (key.count, bytes[key.lowerBound]) {
            case (5, UInt8(ascii: "$")) where matches(key, "$type"):
                guard let value = plainString() else { return nil }
                guard matches(value, string: Self.commitType) || matches(value, "#commit") else { return nil }
                field = 1
            case (3, UInt8(ascii: "s")) where matches(key, "seq"):
                guard let value = integer() else { return nil }
                commit.seq = value
                field = 2
            case (3, UInt8(ascii: "d")) where matches(key, "did"): (commit.did, field) = (plainString(), 4)
            case (4, UInt8(ascii: "t")) where matches(key, "time"): (commit.time, field) = (plainString(), 8)
            case (3, UInt8(ascii: "r")) where matches(key, "rev"): (commit.rev, field) = (plainString(), 16)
            case (9, UInt8(ascii: "o")) where matches(key, "operation"): (commit.operation, field) = (plainString(), 32)
            case (10, UInt8(ascii: "c")) where matches(key, "collection"):
                (commit.collection, field) = (plainString(), 64)
            case (4, UInt8(ascii: "r")) where matches(key, "rkey"): (commit.rkey, field) = (plainString(), 128)
            case (3, UInt8(ascii: "c")) where matches(key, "cid"): (commit.cid, field) = (plainString(), 256)
            case (6, UInt8(ascii: "r")) where matches(key, "record"):
                commit.record = record(in: &commit)
                field = 512
            default: return nil
            }
            guard seen & field == 0 else { return nil }
            seen |= field
        } while take(ASCII.comma)
        // Every field there has a value of the usual shape (a string, the record an object), and the
        // required ones are there.
        let read = [commit.did, commit.time, commit.rev, commit.operation, commit.collection, commit.rkey]
        guard take(ASCII.closeBrace), seen & 0xFF == 0xFF, !read.contains(nil),
            seen & 256 == 0 || commit.cid != nil, seen & 512 == 0 || commit.record != nil
        else { return nil }
        return commit
    }

    /// The string at `range` of the frame.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The bytes at `range` of the frame.
    func data(_ range: Range<Int>) -> Data { Data(UnsafeBufferPointer(rebasing: bytes[range])) }

    private func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base + range.lowerBound, text.utf8Start, range.count) == 0
    }

    private func matches(_ range: Range<Int>, string text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.elementsEqual(bytes[range]) }
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Reads `byte` (after white space) and returns `true`, or reads nothing and returns `false`.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string with no escape and no control character: the range of its contents.
    private mutating func plainString() -> Range<Int>? {
        guard take(ASCII.quote) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return start..<(index - 1)
            }
            if byte == ASCII.backslash || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// An integer as JSON writes it (no fraction, no exponent) that fits in an `Int`.
    private mutating func integer() -> Int? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == ASCII.minus
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] &- ASCII.zero < 10 {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int(bytes[index] &- ASCII.zero))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != ASCII.zero else { return nil }
        if index < bytes.count, [ASCII.dot, UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) { return nil }
        return negative ? -value : value
    }

    /// The record, an object: decoded in place when its collection came before it and the lookup
    /// decodes it (into `commit.knownRecord`), otherwise only delimited.
    private mutating func record(in commit: inout Commit) -> Range<Int>? {
        skipSpace()
        let start = index
        if let recordTypes, let collection = commit.collection, index < bytes.count, bytes[index] == ASCII.openBrace {
            let nsid = NSID(rawValue: string(collection))
            commit.nsid = nsid
            var end = start
            if let known = recordTypes.knownRecord(jsonBytes: bytes, at: &end, collection: nsid) {
                commit.knownRecord = known
                index = end
                return start..<end
            }
        }
        return object()
    }

    /// An object, delimited: its brackets matched, its strings (escapes included) stepped over.
    private mutating func object() -> Range<Int>? {
        guard take(ASCII.openBrace) else { return nil }
        let start = index - 1
        var depth = 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case ASCII.quote:
                while index < bytes.count, bytes[index] != ASCII.quote {
                    index += bytes[index] == ASCII.backslash ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                index += 1
            case ASCII.openBrace, ASCII.openBracket:
                depth += 1
            case ASCII.closeBrace, ASCII.closeBracket:
                depth -= 1
                if depth == 0 { return byte == ASCII.closeBrace ? start..<index : nil }
            default:
                break
            }
        }
        return nil
    }
}

/// The bytes the scanner looks for.
private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let zero = UInt8(ascii: "0")
    static let dot = UInt8(ascii: ".")
}
