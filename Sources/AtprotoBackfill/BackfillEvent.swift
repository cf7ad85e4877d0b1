import AtprotoData
import AtprotoRepository
import AtprotoSyntax
import Foundation
import XRPCCore

/// One record operation of a tracked repository, delivered by ``BackfillThenLive``: historical
/// (from a fetched repository) or live (from a firehose commit).
///
/// Acknowledge it with ``ack()`` once it is handled. Delivery is at least once: an event not
/// acknowledged when the process stops is delivered again after the restart; an acknowledged one
/// is not. Acknowledgements take effect in delivery order per repository.
public struct BackfillEvent: Sendable {
    /// The event's fields.
    struct Fields: Sendable {
        var repo: DID
        var action: RepoOperation.Action
        var collection: NSID
        var recordKey: RecordKey
        var cid: CID?
        var record: DecodedRecord?
        /// A historical record's DAG-CBOR block, until the app's reader decodes it into ``record``
        /// (``decoded(with:)``): the record is then made and freed on the app's task. Made on the
        /// backfill's and freed on the app's, its values were a thread's frees into another thread's
        /// heap, a quarter of a backfill's CPU time on two cores.
        var encodedRecord: Data?
        var isHistorical: Bool
        var rev: String
        var sequence: Int?
        let id: UInt64
        /// Its repository's queue, where its acknowledgement is marked; `nil` for an event made by the app.
        let acknowledgements: RepoAcknowledgements?
    }

    /// The fields behind one reference: an event is copied into the backfill's runs, its queue and
    /// out to the app, and a copy then costs one retain instead of one per reference-counted field
    /// (copying and freeing events was 8 % of a backfill's samples). A change makes a new box.
    final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    /// The repository.
    public var repo: DID {
        get { box.fields.repo }
        set { change { $0.repo = newValue } }
    }
    /// `create`, `update` or `delete`. A historical event of a record the app has not seen is a
    /// `create`; of one whose CID changed, an `update`; of one the fetched repository no longer holds
    /// (a resync), a `delete`.
    public var action: RepoOperation.Action {
        get { box.fields.action }
        set { change { $0.action = newValue } }
    }
    /// The collection.
    public var collection: NSID {
        get { box.fields.collection }
        set { change { $0.collection = newValue } }
    }
    /// The record key.
    public var recordKey: RecordKey {
        get { box.fields.recordKey }
        set { change { $0.recordKey = newValue } }
    }
    /// The record's CID; `nil` for a delete.
    public var cid: CID? {
        get { box.fields.cid }
        set { change { $0.cid = newValue } }
    }
    /// The record, decoded into its type when the configuration's record types know its collection;
    /// `nil` for a delete.
    public var record: DecodedRecord? {
        get { box.fields.record }
        set { change { $0.record = newValue } }
    }
    /// Whether it comes from a fetched repository (`true`) or from a live commit (`false`).
    public var isHistorical: Bool {
        get { box.fields.isHistorical }
        set { change { $0.isHistorical = newValue } }
    }
    /// The revision of the repository it comes from: the fetched commit's or the live commit's.
    public var rev: String {
        get { box.fields.rev }
        set { change { $0.rev = newValue } }
    }
    /// The firehose `seq` of a live commit; `nil` for a historical event.
    public var sequence: Int? {
        get { box.fields.sequence }
        set { change { $0.sequence = newValue } }
    }

    var id: UInt64 { box.fields.id }
    /// The record's block while it waits to be decoded (``decoded(with:)``).
    var encodedRecord: Data? { box.fields.encodedRecord }
    /// Where its acknowledgement is marked; `nil` for an event made by the app.
    var acknowledgements: RepoAcknowledgements? { box.fields.acknowledgements }

    /// The record's path, `collection/rkey`.
    public var path: String { collection.rawValue + "/" + recordKey.rawValue }

    /// Creates an event (for tests of code that consumes them; ``ack()`` of such an event does nothing).
    public init(
        repo: DID, action: RepoOperation.Action, collection: NSID, recordKey: RecordKey, cid: CID?,
        record: DecodedRecord?, isHistorical: Bool, rev: String, sequence: Int? = nil
    ) {
        self.init(
            repo: repo, action: action, collection: collection, recordKey: recordKey, cid: cid, record: record,
            isHistorical: isHistorical, rev: rev, sequence: sequence, id: 0, acknowledgements: nil)
    }

    init(
        repo: DID, action: RepoOperation.Action, collection: NSID, recordKey: RecordKey, cid: CID?,
        record: DecodedRecord?, encodedRecord: Data? = nil, isHistorical: Bool, rev: String, sequence: Int?,
        id: UInt64, acknowledgements: RepoAcknowledgements?
    ) {
        box = Box(
            Fields(
                repo: repo, action: action, collection: collection, recordKey: recordKey, cid: cid, record: record,
                encodedRecord: encodedRecord, isHistorical: isHistorical, rev: rev, sequence: sequence, id: id,
                acknowledgements: acknowledgements))
    }

    /// The event with its record decoded from its block (typed when `types` knows its collection);
    /// itself when it has no block. A block that is not DAG-CBOR (its hash was proved, so the
    /// repository holds it so) gives an ``DecodedRecord/invalid(_:_:)`` record saying why, with a
    /// null value: the event is delivered, not dropped.
    func decoded(with types: LexiconRecordTypes) -> BackfillEvent {
        guard let block = box.fields.encodedRecord else { return self }
        var fields = box.fields
        fields.encodedRecord = nil
        do {
            fields.record = types.record(try DAGCBOR.decode(block), collection: fields.collection)
        } catch {
            fields.record = .invalid(
                LexiconUnknownValue(.null),
                LexiconDecodingError(message: "the record \(path) is not DAG-CBOR: \(error)"))
        }
        var event = self
        event.box = Box(fields)
        return event
    }

    /// Tells the backfill the event is handled: once every earlier event of its repository is
    /// acknowledged too, the record's CID and (at the end of a commit) the repository's revision
    /// and the firehose cursor are saved in the state store.
    ///
    /// It returns once that is saved. It is marked and saved from the caller's task, without waiting
    /// for the backfill's actor.
    ///
    /// - Throws: ``BackfillError`` (`storeFailed`) when the state store throws.
    public func ack() async throws {
        guard let acknowledgements else { return }
        try await acknowledgements.ledger.acknowledge(id, of: acknowledgements)
    }
}

/// How far a backfill has got.
public struct BackfillProgress: Sendable, Hashable {
    /// Repositories tracked.
    public var repositories: Int
    /// Repositories live: backfilled and caught up.
    public var live: Int
    /// Repositories that failed.
    public var failed: Int
    /// Historical records delivered.
    public var records: Int
    /// Repository bytes fetched (`getRepo` CARs).
    public var bytes: Int
    /// Resyncs started (a commit that did not follow, a proof that failed, a buffer over its bound).
    public var resyncs: Int

    /// Creates a value.
    public init(
        repositories: Int = 0, live: Int = 0, failed: Int = 0, records: Int = 0, bytes: Int = 0, resyncs: Int = 0
    ) {
        self.repositories = repositories
        self.live = live
        self.failed = failed
        self.records = records
        self.bytes = bytes
        self.resyncs = resyncs
    }

    /// Whether every repository is live or failed.
    public var isCaughtUp: Bool { live + failed == repositories }
}

/// Why a backfill stopped.
public struct BackfillError: AtprotoError {
    /// What failed. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The firehose ended with an error.
        public static let firehoseFailed: Code = "firehoseFailed"
        /// The state store threw.
        public static let storeFailed: Code = "storeFailed"
    }

    /// What failed.
    public var code: Code
    /// What was being done.
    public var message: String
    /// The error behind it.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        "backfill failed (\(code)): \(message)" + (underlying.map { ": \($0)" } ?? "")
    }
}
