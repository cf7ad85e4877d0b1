import AtprotoRepository
import AtprotoSyntax
import XRPCCore

/// One record operation of a tracked repository, delivered by ``BackfillThenLive``: historical
/// (from a fetched repository) or live (from a firehose commit).
///
/// Acknowledge it with ``ack()`` once it is handled. Delivery is at least once: an event not
/// acknowledged when the process stops is delivered again after the restart; an acknowledged one
/// is not. Acknowledgements take effect in delivery order per repository.
public struct BackfillEvent: Sendable {
    /// The repository.
    public var repo: DID
    /// `create`, `update` or `delete`. A historical event of a record the app has not seen is a
    /// `create`; of one whose CID changed, an `update`; of one the fetched repository no longer holds
    /// (a resync), a `delete`.
    public var action: RepoOperation.Action
    /// The collection.
    public var collection: NSID
    /// The record key.
    public var recordKey: RecordKey
    /// The record's CID; `nil` for a delete.
    public var cid: CID?
    /// The record, decoded into its type when the configuration's record types know its collection;
    /// `nil` for a delete.
    public var record: DecodedRecord?
    /// Whether it comes from a fetched repository (`true`) or from a live commit (`false`).
    public var isHistorical: Bool
    /// The revision of the repository it comes from: the fetched commit's or the live commit's.
    public var rev: String
    /// The firehose `seq` of a live commit; `nil` for a historical event.
    public var sequence: Int?

    let id: UInt64
    /// Where its acknowledgement is marked; `nil` for an event made by the app.
    let ledger: AcknowledgementLedger?

    /// The record's path, `collection/rkey`.
    public var path: String { collection.rawValue + "/" + recordKey.rawValue }

    /// Creates an event (for tests of code that consumes them; ``ack()`` of such an event does nothing).
    public init(
        repo: DID, action: RepoOperation.Action, collection: NSID, recordKey: RecordKey, cid: CID?,
        record: DecodedRecord?, isHistorical: Bool, rev: String, sequence: Int? = nil
    ) {
        self.init(
            repo: repo, action: action, collection: collection, recordKey: recordKey, cid: cid, record: record,
            isHistorical: isHistorical, rev: rev, sequence: sequence, id: 0, ledger: nil)
    }

    init(
        repo: DID, action: RepoOperation.Action, collection: NSID, recordKey: RecordKey, cid: CID?,
        record: DecodedRecord?, isHistorical: Bool, rev: String, sequence: Int?, id: UInt64,
        ledger: AcknowledgementLedger?
    ) {
        self.repo = repo
        self.action = action
        self.collection = collection
        self.recordKey = recordKey
        self.cid = cid
        self.record = record
        self.isHistorical = isHistorical
        self.rev = rev
        self.sequence = sequence
        self.id = id
        self.ledger = ledger
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
        try await ledger?.acknowledge(id, of: repo)
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
