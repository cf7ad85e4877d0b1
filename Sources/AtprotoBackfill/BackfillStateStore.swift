import AtprotoSyntax
import XRPCCore

/// Where a repository stands in ``BackfillThenLive``, as the state store keeps it.
public enum RepoSyncStatus: String, Sendable, Hashable, Codable {
    /// Added, waiting for its first fetch.
    case pending
    /// Its repository is being fetched and its records delivered as historical events; its live
    /// commits are held back until they are done.
    case backfilling
    /// Delivered up to ``RepoSyncState/rev``; its commits are delivered as they arrive.
    case live
    /// A commit did not follow from the state delivered (or failed its proof): the repository is
    /// fetched again and the difference delivered.
    case resyncing
    /// Gave up after ``BackfillThenLive/Configuration/maximumAttempts`` fetches in a row failed.
    case failed
}

/// One repository's state, persisted by a ``BackfillStateStore``.
public struct RepoSyncState: Sendable, Hashable {
    /// Where the repository stands.
    public var status: RepoSyncStatus
    /// The revision the app has acknowledged everything up to; `nil` before the first backfill is done.
    public var rev: String?
    /// The MST root (`data`) of the commit at ``rev``: the next commit's `prevData` must equal it.
    public var data: CID?
    /// Why the repository is resyncing or failed, for people.
    public var reason: String?

    /// Creates a state.
    public init(status: RepoSyncStatus, rev: String? = nil, data: CID? = nil, reason: String? = nil) {
        self.status = status
        self.rev = rev
        self.data = data
        self.reason = reason
    }
}

/// What ``BackfillThenLive`` persists so that a restart loses nothing and repeats nothing the app
/// acknowledged: the firehose cursor, each repository's state, and the CID of every record the app
/// acknowledged (by path), which a backfill or resync compares the fetched repository with.
///
/// Implement it over the app's database, writing each call through before returning;
/// ``InMemoryBackfillStateStore`` keeps it in memory (tests, or an app that backfills on every start).
/// Calls come from the backfill's actor and from the tasks that acknowledge events, and may overlap:
/// a repository's writes (its record CIDs and its state) come one at a time, in order, but those of
/// two repositories, and the cursor's, may run at once.
public protocol BackfillStateStore: Sendable {
    /// The firehose `seq` every event up to which is handled; `nil` when none was saved.
    func cursor() async throws -> Int?
    /// Saves the firehose cursor.
    func setCursor(_ cursor: Int) async throws
    /// Every repository added and not removed, with its state.
    func repositories() async throws -> [DID: RepoSyncState]
    /// Saves a repository's state (adding the repository when it is new).
    func setState(_ state: RepoSyncState, of repo: DID) async throws
    /// Forgets a repository: its state and its records' CIDs.
    func removeRepository(_ repo: DID) async throws
    /// The CID of every record of `repo` the app acknowledged, by path (`collection/rkey`).
    func recordCIDs(of repo: DID) async throws -> [String: CID]
    /// The CID of the record the app acknowledged at `path`, `nil` when none (or it was deleted).
    func recordCID(at path: String, of repo: DID) async throws -> CID?
    /// Saves the CID of the record at `path` (`nil`: deleted) once the app acknowledged it.
    func setRecordCID(_ cid: CID?, at path: String, of repo: DID) async throws
    /// Saves the CIDs of records the app acknowledged, in the order given (a path given twice ends
    /// at its later CID; `nil`: deleted): a run of acknowledged events in one call, so that a store
    /// over a database writes them in one transaction. The default calls
    /// ``setRecordCID(_:at:of:)`` for each.
    func setRecordCIDs(_ changes: [(path: String, cid: CID?)], of repo: DID) async throws
}

extension BackfillStateStore {
    /// Calls ``setRecordCID(_:at:of:)`` for each change, in order.
    public func setRecordCIDs(_ changes: [(path: String, cid: CID?)], of repo: DID) async throws {
        for change in changes { try await setRecordCID(change.cid, at: change.path, of: repo) }
    }
}

/// A ``BackfillStateStore`` in memory: everything is lost with the process (so a new process
/// backfills again), but a ``BackfillThenLive`` made again over the same store resumes where the
/// last one stopped.
public actor InMemoryBackfillStateStore: BackfillStateStore {
    private var savedCursor: Int?
    private var states: [DID: RepoSyncState] = [:]
    private var records: [DID: RecordCIDTable] = [:]

    /// Creates an empty store.
    public init() {}

    public func cursor() -> Int? { savedCursor }
    public func setCursor(_ cursor: Int) { savedCursor = cursor }
    public func repositories() -> [DID: RepoSyncState] { states }
    public func setState(_ state: RepoSyncState, of repo: DID) { states[repo] = state }

    public func removeRepository(_ repo: DID) {
        states[repo] = nil
        records[repo] = nil
    }

    public func recordCIDs(of repo: DID) -> [String: CID] { records[repo]?.dictionary ?? [:] }
    public func recordCID(at path: String, of repo: DID) -> CID? { records[repo]?[path] }
    public func setRecordCID(_ cid: CID?, at path: String, of repo: DID) { setRecordCIDs([(path, cid)], of: repo) }

    public func setRecordCIDs(_ changes: [(path: String, cid: CID?)], of repo: DID) {
        // One look-up of the repository's table for the whole run, changed in place.
        let emptied = Self.apply(changes, to: &records[repo, default: RecordCIDTable()])
        if emptied { records[repo] = nil }
    }

    /// Writes `changes` into `table`; whether it is left empty.
    private static func apply(_ changes: [(path: String, cid: CID?)], to table: inout RecordCIDTable) -> Bool {
        for change in changes { table[change.path] = change.cid }
        return table.isEmpty
    }
}
