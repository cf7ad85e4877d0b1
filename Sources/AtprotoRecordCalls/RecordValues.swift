import ComAtprotoLexicons
import Foundation
import XRPCCore

/// A record read from a repository: the typed value with its AT URI and CID.
public struct RepositoryRecord<Record: LexiconRecord>: Sendable, Hashable {
    /// The record's address, `at://<repo>/<collection>/<rkey>`.
    public var uri: ATURI
    /// The CID of the record's content; `nil` when the server did not send one.
    public var cid: CIDString?
    /// The record.
    public var value: Record

    /// Creates a record read from a repository.
    public init(uri: ATURI, cid: CIDString?, value: Record) {
        self.uri = uri
        self.cid = cid
        self.value = value
    }

    /// The record key, the last segment of ``uri``.
    public var rkey: RecordKey? { uri.rkey }

    /// A strong reference to this version of the record (for a reply, a like, a quote), or `nil`
    /// without a ``cid``.
    public var strongRef: ComAtprotoRepoStrongRef? {
        cid.map { ComAtprotoRepoStrongRef(uri: uri, cid: $0) }
    }
}

/// Why a record read from a repository is not a valid value of its type.
public enum RecordProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The record does not have the shape of the type: a missing required field, a wrong JSON kind.
    case doesNotDecode(LexiconDecodingError)
    /// The record decodes but breaks its lexicon's rules (lengths, formats, its `$type`).
    case doesNotValidate(LexiconValidationError)

    public var description: String {
        switch self {
        case .doesNotDecode(let error): return "does not decode: \(error)"
        case .doesNotValidate(let error): return "does not validate: \(error)"
        }
    }
}

/// A record a repository holds that is not a valid value of the type asked for, kept as read.
///
/// `XRPCClient.listRecords(_:repo:limit:cursor:reverse:validating:)` returns these apart from the
/// valid records, so that one bad record never fails a page.
public struct InvalidRecord: Sendable, Hashable, CustomStringConvertible {
    /// The record's address.
    public var uri: ATURI
    /// The CID of the record's content, when the server sent one.
    public var cid: CIDString?
    /// The record as the server sent it.
    public var value: LexiconUnknownValue
    /// What is wrong with it.
    public var problem: RecordProblem

    /// Keeps a record that is not valid because of `problem`.
    public init(uri: ATURI, cid: CIDString?, value: LexiconUnknownValue, problem: RecordProblem) {
        self.uri = uri
        self.cid = cid
        self.value = value
        self.problem = problem
    }

    /// The URI and the problem.
    public var description: String { "record \(uri.rawValue) \(problem)" }
}

/// The error `XRPCClient.getRecord(_:repo:rkey:cid:validating:)` throws for a record that exists
/// but is not a valid value of the type asked for. The record as read is in ``record``.
public struct InvalidRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The collection asked for.
    public var collection: NSID
    /// The record as read, with what is wrong with it.
    public var record: InvalidRecord

    /// Creates the error for `record`, read as a record of `collection`.
    public init(collection: NSID, record: InvalidRecord) {
        self.collection = collection
        self.record = record
    }

    /// The collection, the URI and the problem.
    public var description: String { "not a valid \(collection) record: \(record)" }
}

/// One page of `XRPCClient.listRecords(_:repo:limit:cursor:reverse:validating:)`: the valid records,
/// the invalid ones apart, and the cursor of the next page.
public struct RecordPage<Record: LexiconRecord>: Sendable, Hashable {
    /// The records that decode (and validate, unless validation was turned off), in the server's order.
    public var records: [RepositoryRecord<Record>]
    /// The records that do not, in the server's order, each with its problem.
    public var invalidRecords: [InvalidRecord]
    /// The cursor for the next page, or `nil` on the last one.
    public var cursor: String?

    /// Creates a page.
    public init(records: [RepositoryRecord<Record>], invalidRecords: [InvalidRecord], cursor: String?) {
        self.records = records
        self.invalidRecords = invalidRecords
        self.cursor = cursor
    }
}

/// One write of `XRPCClient.applyWrites(_:repo:swapCommit:)`: create, update or delete a record.
///
/// ```swift
/// try await client.applyWrites([
///     .create(AppBskyFeedPost(text: "one", createdAt: now)),
///     .update(profile, rkey: "self"),
///     .delete(AppBskyFeedLike.self, rkey: "3kabc"),
/// ], repo: ATIdentifier(did))
/// ```
public struct RecordWrite: Sendable, Hashable {
    /// The write as the lexicon's `writes` member.
    public var operation: ComAtprotoRepoApplyWrites.Input.WritesItem
    /// The record written by a create or update, kept to check it (and its key) before sending.
    let record: (any LexiconRecord)?

    /// Wraps a write built from the lexicon's types; it is sent as it is, without checks.
    public init(_ operation: ComAtprotoRepoApplyWrites.Input.WritesItem) {
        self.operation = operation
        self.record = nil
    }

    private init(_ operation: ComAtprotoRepoApplyWrites.Input.WritesItem, record: (any LexiconRecord)?) {
        self.operation = operation
        self.record = record
    }

    /// Creates `record` in its collection. Without `rkey`, the server makes one (a TID), except for a
    /// collection whose key is a literal (`self`), which gets that literal.
    public static func create<R: LexiconRecord>(_ record: R, rkey: RecordKey? = nil) -> RecordWrite {
        let key = rkey ?? R.recordKey.literalKey
        let create = ComAtprotoRepoApplyWrites.Create(
            collection: R.collection, value: LexiconUnknownValue(encoding: record), rkey: key)
        return RecordWrite(.comAtprotoRepoApplyWritesCreate(create), record: record)
    }

    /// Replaces the record at `rkey` with `record` (it must exist).
    public static func update<R: LexiconRecord>(_ record: R, rkey: RecordKey) -> RecordWrite {
        let update = ComAtprotoRepoApplyWrites.Update(
            collection: R.collection, rkey: rkey, value: LexiconUnknownValue(encoding: record))
        return RecordWrite(.comAtprotoRepoApplyWritesUpdate(update), record: record)
    }

    /// Deletes the record of type `type` at `rkey`.
    public static func delete<R: LexiconRecord>(_ type: R.Type, rkey: RecordKey) -> RecordWrite {
        let delete = ComAtprotoRepoApplyWrites.Delete(collection: R.collection, rkey: rkey)
        return RecordWrite(.comAtprotoRepoApplyWritesDelete(delete), record: nil)
    }

    /// Equal when the operations are: the kept record is the operation's value.
    public static func == (lhs: RecordWrite, rhs: RecordWrite) -> Bool {
        lhs.operation == rhs.operation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(operation)
    }

    /// The record key the operation names, if any.
    var rkey: RecordKey? {
        switch operation {
        case .comAtprotoRepoApplyWritesCreate(let create): return create.rkey
        case .comAtprotoRepoApplyWritesUpdate(let update): return update.rkey
        case .comAtprotoRepoApplyWritesDelete(let delete): return delete.rkey
        default: return nil
        }
    }
}

extension RecordKeyType {
    /// The key of a `literal:<key>` collection, `nil` for the others.
    var literalKey: RecordKey? {
        if case .literal(let key) = self { return RecordKey(rawValue: key) }
        return nil
    }

    /// Why `rkey` is not a key of this type, or `nil` when it is.
    func problem(with rkey: RecordKey) -> String? {
        if let reason = RecordKey.syntaxError(in: rkey.rawValue) { return "is not a record key: \(reason)" }
        switch self {
        case .any:
            return nil
        case .tid:
            return TID.syntaxError(in: rkey.rawValue).map { "is not a TID, as the collection's keys are: \($0)" }
        case .nsid:
            return NSID.syntaxError(in: rkey.rawValue).map { "is not an NSID, as the collection's keys are: \($0)" }
        case .literal(let key):
            return rkey.rawValue == key ? nil : "is not \"\(key)\", the collection's only key"
        }
    }
}

extension ComAtprotoRepoCreateRecord.Output {
    /// A strong reference to the created record (for a reply, a like, a quote).
    public var strongRef: ComAtprotoRepoStrongRef { ComAtprotoRepoStrongRef(uri: uri, cid: cid) }
}

extension ComAtprotoRepoPutRecord.Output {
    /// A strong reference to the written record.
    public var strongRef: ComAtprotoRepoStrongRef { ComAtprotoRepoStrongRef(uri: uri, cid: cid) }
}
