import AtprotoLexicons
import Foundation

/// What a Jetstream subscription delivers.
public enum JetstreamMessage: Sendable {
    /// An event of the network: a record operation, an identity, account or sync change.
    case event(JetstreamEvent)
    /// An advisory notice (v2 `#info`), such as `OutdatedCursor`: a timestamp cursor older than the
    /// server keeps was moved up to its oldest event, so events between were missed. No cursor.
    case info(name: String, message: String?)
    /// A message of a type this client does not know (a newer server's), kept as read. No cursor.
    case unknown(LexiconUnknownValue)

    /// The event, for ``event(_:)``.
    public var event: JetstreamEvent? {
        if case .event(let event) = self { return event }
        return nil
    }
}

/// One Jetstream event.
public struct JetstreamEvent: Sendable {
    /// Where to resume after this event: persist it once the event is handled and pass it to
    /// ``JetstreamClient/subscribe(_:after:)``. v1: the event's `time_us` (unix microseconds); v2:
    /// its `seq`. The two are not interchangeable.
    public var cursor: Int
    /// The repo.
    public var did: DID
    /// When Jetstream witnessed the event, in unix microseconds (v1 `time_us`; `nil` on v2).
    public var timeMicroseconds: Int?
    /// When Jetstream witnessed the event (v2 `time`; `nil` on v1).
    public var time: LexiconDatetime?
    /// What happened.
    public var kind: Kind

    /// What an event is about.
    public enum Kind: Sendable {
        /// A record created, updated or deleted.
        case commit(JetstreamCommit)
        /// A handle or DID document change, the firehose's event as Jetstream wraps it.
        case identity(ComAtprotoSyncSubscribeRepos.Identity)
        /// An account status change, the firehose's event as Jetstream wraps it.
        case account(ComAtprotoSyncSubscribeRepos.Account)
        /// A broken commit chain (v2 only): resync the repo.
        case sync(ComAtprotoSyncSubscribeRepos.Sync)
    }

    /// The commit, for a commit event.
    public var commit: JetstreamCommit? {
        if case .commit(let commit) = kind { return commit }
        return nil
    }
}

/// One record operation.
public struct JetstreamCommit: Sendable {
    /// The repo revision of the commit that made it.
    public var rev: TID
    /// `create`, `update` or `delete` (an open set).
    public var operation: Operation
    /// The record's collection.
    public var collection: NSID
    /// The record's key.
    public var rkey: RecordKey
    /// The record's CID (`nil` for a delete).
    public var cid: CIDString?
    /// The record (`nil` for a delete): decoded into its type when the client's
    /// ``JetstreamClient/recordTypes`` know its collection, kept as read when they do not, and kept
    /// with the reason when it does not decode into its type. Never left out.
    public var record: DecodedRecord?

    /// An operation's name.
    public struct Operation: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The name on the wire.
        public var rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a literal name.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// A record created.
        public static let create: Operation = "create"
        /// A record replaced.
        public static let update: Operation = "update"
        /// A record deleted.
        public static let delete: Operation = "delete"
    }

    /// The record's `at://` URI.
    public func uri(did: DID) -> ATURI {
        ATURI(rawValue: "at://\(did.rawValue)/\(collection.rawValue)/\(rkey.rawValue)")
    }
}

extension JetstreamMessage {
    typealias V2 = NetworkBskyJetstreamSubscribeEvents

    /// A v2 message as delivered.
    static func reading(
        _ message: V2.Message, recordTypes: LexiconRecordTypes
    ) throws(JetstreamError) -> JetstreamMessage {
        switch message {
        case .networkBskyJetstreamSubscribeEventsCommit(let commit):
            let record = commit.record.map { recordTypes.record($0.json, collection: commit.collection) }
            let value = JetstreamCommit(
                rev: commit.rev, operation: .init(rawValue: commit.operation.rawValue), collection: commit.collection,
                rkey: commit.rkey, cid: commit.cid, record: record)
            return .event(JetstreamEvent(cursor: commit.seq, did: commit.did, time: commit.time, kind: .commit(value)))
        case .networkBskyJetstreamSubscribeEventsIdentity(let event):
            return .event(
                JetstreamEvent(cursor: event.seq, did: event.did, time: event.time, kind: .identity(event.identity)))
        case .networkBskyJetstreamSubscribeEventsAccount(let event):
            return .event(
                JetstreamEvent(cursor: event.seq, did: event.did, time: event.time, kind: .account(event.account)))
        case .networkBskyJetstreamSubscribeEventsSync(let event):
            return .event(JetstreamEvent(cursor: event.seq, did: event.did, time: event.time, kind: .sync(event.sync)))
        case .networkBskyJetstreamSubscribeEventsInfo(let info):
            return .info(name: info.name.rawValue, message: info.message)
        case .unknown(let value):
            return .unknown(value)
        case .invalid(let member):
            throw JetstreamError(.malformedEvent, message: "a v2 message does not decode: \(member)")
        }
    }

    /// A v1 text frame (one bare JSON object) as delivered.
    static func reading(v1 text: String, recordTypes: LexiconRecordTypes) throws(JetstreamError) -> JetstreamMessage {
        func malformed(_ reason: String) -> JetstreamError {
            JetstreamError(.malformedEvent, message: "a v1 event \(reason): \(text.prefix(200))")
        }
        guard case .object(let fields)? = try? JSONValue.parse(text) else { throw malformed("is not a JSON object") }
        guard case .string(let kind)? = fields["kind"] else { throw malformed("has no string \"kind\"") }
        guard case .string(let did)? = fields["did"], case .integer(let time)? = fields["time_us"] else {
            throw malformed("has no string \"did\" and integer \"time_us\"")
        }
        var event = JetstreamEvent(
            cursor: time, did: DID(rawValue: did), timeMicroseconds: time, time: nil,
            kind: .commit(JetstreamCommit(rev: "", operation: "", collection: "", rkey: "")))
        guard let body = fields[kind] else {
            if ["commit", "identity", "account"].contains(kind) { throw malformed("has no \"\(kind)\" object") }
            return .unknown(LexiconUnknownValue(.object(fields)))
        }
        do {
            switch kind {
            case "commit": event.kind = .commit(try commit(body, recordTypes: recordTypes))
            case "identity": event.kind = .identity(try ComAtprotoSyncSubscribeRepos.Identity(lexiconJSON: body))
            case "account": event.kind = .account(try ComAtprotoSyncSubscribeRepos.Account(lexiconJSON: body))
            default: return .unknown(LexiconUnknownValue(.object(fields)))
            }
        } catch let error as JetstreamError {
            throw error
        } catch {
            throw malformed("of kind \(kind) does not decode (\(error))")
        }
        return .event(event)
    }

    private static func commit(_ json: JSONValue, recordTypes: LexiconRecordTypes) throws -> JetstreamCommit {
        guard case .object(let fields) = json, case .string(let rev)? = fields["rev"],
            case .string(let operation)? = fields["operation"], case .string(let collection)? = fields["collection"],
            case .string(let rkey)? = fields["rkey"]
        else {
            throw JetstreamError(
                .malformedEvent, message: "a v1 commit lacks a string rev, operation, collection or rkey")
        }
        let nsid = NSID(rawValue: collection)
        return JetstreamCommit(
            rev: TID(rawValue: rev), operation: .init(rawValue: operation), collection: nsid,
            rkey: RecordKey(rawValue: rkey), cid: fields["cid"]?.stringValue.map(CIDString.init(rawValue:)),
            record: fields["record"].map { recordTypes.record($0, collection: nsid) })
    }
}
