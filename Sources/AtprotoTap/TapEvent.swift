import AtprotoLexicons
import Foundation

/// One event Tap delivers over `/channel`: a record operation or an identity change of a tracked
/// repo, with the id to acknowledge it by (``TapClient/ack(_:)``).
public struct TapEvent: Sendable, Identifiable {
    /// Tap's id of the event, what an acknowledgement names. An event Tap redelivers keeps its id.
    public var id: Int
    /// What happened.
    public var kind: Kind

    /// What an event is about.
    public enum Kind: Sendable {
        /// A record created, updated or deleted.
        case record(TapRecordEvent)
        /// A handle or account status change.
        case identity(TapIdentityEvent)
        /// An event of a `type` this client does not know (a newer Tap's), kept as read: its
        /// `type` and the whole frame. Acknowledge it like any other.
        case unknown(type: String, LexiconUnknownValue)
    }

    /// Creates an event.
    public init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// The record operation, for a record event.
    public var record: TapRecordEvent? {
        if case .record(let record) = kind { return record }
        return nil
    }

    /// The identity change, for an identity event.
    public var identity: TapIdentityEvent? {
        if case .identity(let identity) = kind { return identity }
        return nil
    }
}

/// One record operation of a tracked repo, from the firehose (live) or from a backfill or resync.
public struct TapRecordEvent: Sendable {
    /// The repo.
    public var did: DID
    /// The repo revision of the commit that made it.
    public var rev: TID
    /// The record's collection.
    public var collection: NSID
    /// The record's key.
    public var rkey: RecordKey
    /// `create`, `update` or `delete` (an open set).
    public var action: RepoOperation.Action
    /// The record's CID (`nil` for a delete).
    public var cid: CIDString?
    /// The record (`nil` for a delete): decoded into its type when the client's
    /// ``TapClient/recordTypes`` know its collection, kept as read when they do not, and kept with
    /// the reason when it does not decode into its type. Never left out.
    public var record: DecodedRecord?
    /// Whether Tap read it from the firehose (`true`) or from the repo's history, in a backfill or a
    /// resync (`false`). Tap sends a repo's live events one at a time, each after the events before it
    /// are acknowledged; historical ones may come several at once.
    public var live: Bool

    /// Creates an event.
    public init(
        did: DID, rev: TID, collection: NSID, rkey: RecordKey, action: RepoOperation.Action, cid: CIDString?,
        record: DecodedRecord?, live: Bool
    ) {
        self.did = did
        self.rev = rev
        self.collection = collection
        self.rkey = rkey
        self.action = action
        self.cid = cid
        self.record = record
        self.live = live
    }

    /// The record's `at://` URI.
    public var uri: ATURI {
        ATURI(rawValue: "at://\(did.rawValue)/\(collection.rawValue)/\(rkey.rawValue)")
    }
}

/// A tracked repo's handle or account status, as Tap last resolved it.
public struct TapIdentityEvent: Sendable {
    /// The repo.
    public var did: DID
    /// Its handle (`nil` when Tap sent none).
    public var handle: ATHandle?
    /// Whether the account is active.
    public var isActive: Bool
    /// The account's status.
    public var status: Status

    /// An account status (an open set).
    public struct Status: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name on the wire.
        public var rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a literal name.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The name on the wire.
        public var description: String { rawValue }
        /// The account is active.
        public static let active: Status = "active"
        /// Taken down by a moderation service.
        public static let takendown: Status = "takendown"
        /// Suspended for a while.
        public static let suspended: Status = "suspended"
        /// Deactivated by its owner.
        public static let deactivated: Status = "deactivated"
        /// Deleted.
        public static let deleted: Status = "deleted"
    }

    /// Creates an event.
    public init(did: DID, handle: ATHandle?, isActive: Bool, status: Status) {
        self.did = did
        self.handle = handle
        self.isActive = isActive
        self.status = status
    }
}

extension TapEvent {
    /// Reads one `/channel` text frame. `place` says where it came from, for error messages.
    static func reading(_ text: String, recordTypes: LexiconRecordTypes, place: String) throws(TapError) -> TapEvent {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw TapError(.malformedEvent, message: "\(place) is not JSON: \(error)", underlying: error)
        }
        guard case .object(let fields) = json else {
            throw TapError(.malformedEvent, message: "\(place) is a JSON \(json.kindName), not an object")
        }
        guard case .integer(let id)? = fields["id"] else {
            throw TapError(.malformedEvent, field: "id", message: "\(place) has no integer \"id\"")
        }
        let reader = FieldReader(id: id, place: place)
        let type = try reader.string(fields["type"], "type")
        switch type {
        case "record":
            let body = try reader.object(fields["record"], "record")
            let collection: NSID = try reader.format(body["collection"], "record.collection")
            let did: DID = try reader.format(body["did"], "record.did")
            let rkey: RecordKey = try reader.format(body["rkey"], "record.rkey")
            let action = RepoOperation.Action(rawValue: try reader.string(body["action"], "record.action"))
            guard case .bool(let live)? = body["live"] else {
                throw reader.failure("record.live", "is not a boolean")
            }
            let cid: CIDString? = try body["cid"].map { value throws(TapError) in
                try reader.format(value, "record.cid")
            }
            let record: DecodedRecord?
            switch body["record"] {
            case nil, .null?: record = nil
            case .object?: record = body["record"].map { recordTypes.record($0, collection: collection) }
            default: throw reader.failure("record.record", "is not an object")
            }
            let rev = TID(rawValue: try reader.string(body["rev"], "record.rev"))
            let event = TapRecordEvent(
                did: did, rev: rev, collection: collection, rkey: rkey, action: action, cid: cid, record: record,
                live: live)
            return TapEvent(id: id, kind: .record(event))
        case "identity":
            let body = try reader.object(fields["identity"], "identity")
            let did: DID = try reader.format(body["did"], "identity.did")
            let handleText = try reader.string(body["handle"] ?? .string(""), "identity.handle")
            let handle: ATHandle? =
                handleText.isEmpty ? nil : try reader.format(.string(handleText), "identity.handle")
            guard case .bool(let isActive)? = body["is_active"] else {
                throw reader.failure("identity.is_active", "is not a boolean")
            }
            let status = TapIdentityEvent.Status(rawValue: try reader.string(body["status"], "identity.status"))
            return TapEvent(
                id: id, kind: .identity(TapIdentityEvent(did: did, handle: handle, isActive: isActive, status: status)))
        default:
            return TapEvent(id: id, kind: .unknown(type: type, LexiconUnknownValue(json)))
        }
    }
}

/// Reads the fields of one frame, each failure naming the event, the field and the frame's place.
private struct FieldReader {
    let id: Int
    let place: String

    func failure(_ field: String, _ problem: String) -> TapError {
        TapError(.malformedEvent, eventID: id, field: field, message: "\(place): event \(id)'s \(field) \(problem)")
    }

    func string(_ value: JSONValue?, _ field: String) throws(TapError) -> String {
        guard let value else { throw failure(field, "is missing") }
        guard case .string(let text) = value else { throw failure(field, "is a \(value.kindName), not a string") }
        return text
    }

    func object(_ value: JSONValue?, _ field: String) throws(TapError) -> [String: JSONValue] {
        guard let value else { throw failure(field, "is missing") }
        guard case .object(let fields) = value else { throw failure(field, "is a \(value.kindName), not an object") }
        return fields
    }

    func format<F: LexiconStringFormat>(_ value: JSONValue?, _ field: String) throws(TapError) -> F {
        let text = try string(value, field)
        if let reason = F.syntaxError(in: text) {
            throw failure(field, "is not a valid \(F.formatName) (\(reason)): \"\(text.prefix(100))\"")
        }
        return F(rawValue: text)
    }
}
