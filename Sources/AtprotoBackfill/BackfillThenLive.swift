import AtprotoIdentityResolution
import AtprotoLexicons
import AtprotoVerification
import Foundation

/// Backfill then live: each repository the app adds is fetched whole (`com.atproto.sync.getRepo`),
/// proved, and its records delivered as historical events, while its live firehose commits are held
/// back; then the held commits are delivered and the repository goes live.
///
/// ```swift
/// let backfill = BackfillThenLive(firehose: relay, resolver: resolver, store: myStore)
/// try await backfill.start()
/// try await backfill.add(repos: [alice, bob])
/// for try await event in backfill.events {
///     try index(event)          // event.isHistorical, event.action, event.path, event.record
///     try await event.ack()     // at least once: an event not acknowledged is delivered again after a restart
/// }
/// ```
///
/// - **Proved.** A fetched repository is a `VerifiedRepository`; every live commit is proved by
///   `FirehoseVerifier` and must follow from the last one delivered (`prevData` equal to its MST
///   root; a revision at or below it is one already delivered and is skipped).
/// - **Ordered per repository**, with nothing missing or repeated at the cutover: held commits
///   already in the fetched revision are skipped, the first one after it must follow from it.
/// - **Resync.** A commit that does not follow, fails its proof, is `tooBig`, or a `#sync` event,
///   sends the repository to ``RepoSyncStatus/resyncing``: fetched again (with exponential backoff
///   after failures) and only the difference from what the app acknowledged delivered.
/// - **Bounded.** At most ``Configuration/maximumBufferedCommits`` commits are held per repository;
///   past that they are dropped and the repository resyncs once its fetch is delivered. At most
///   ``Configuration/maximumConcurrentFetches`` repositories are in memory at once, and the events
///   wait for the app (``Configuration/maximumEventsAhead``), holding the firehose back.
/// - **Persisted** through a ``BackfillStateStore``: the cursor, each repository's state, and the
///   records the app acknowledged, so that a restart loses nothing and repeats nothing acknowledged.
public actor BackfillThenLive {
    /// How a backfill runs.
    public struct Configuration: Sendable {
        /// The record types events are decoded into.
        public var recordTypes: LexiconRecordTypes
        /// The collections delivered; `nil` delivers every record.
        public var collections: Set<NSID>?
        /// The most live commits held per repository while it is fetched; past it they are dropped
        /// and the repository is fetched again.
        public var maximumBufferedCommits: Int
        /// The most repositories fetched (and held in memory) at once.
        public var maximumConcurrentFetches: Int
        /// Fetches in a row that may fail before a repository is ``RepoSyncStatus/failed``.
        public var maximumAttempts: Int
        /// The wait before fetching again after a failure; it doubles each time.
        public var initialBackoff: Duration
        /// The longest wait.
        public var maximumBackoff: Duration
        /// The most events waiting for the app to read them.
        public var maximumEventsAhead: Int
        /// How far the firehose may move past the saved cursor before the cursor is saved again: a
        /// restart repeats at most that many messages of repositories with nothing to acknowledge
        /// (skipped by revision). An acknowledgement saves it whenever it moves.
        public var cursorSaveInterval: Int

        /// Creates a configuration.
        public init(
            recordTypes: LexiconRecordTypes = .bluesky, collections: Set<NSID>? = nil,
            maximumBufferedCommits: Int = 1_000, maximumConcurrentFetches: Int = 2, maximumAttempts: Int = 8,
            initialBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(300),
            maximumEventsAhead: Int = 256, cursorSaveInterval: Int = 100
        ) {
            self.recordTypes = recordTypes
            self.collections = collections
            self.maximumBufferedCommits = max(0, maximumBufferedCommits)
            self.maximumConcurrentFetches = max(1, maximumConcurrentFetches)
            self.maximumAttempts = max(1, maximumAttempts)
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.maximumEventsAhead = max(1, maximumEventsAhead)
            self.cursorSaveInterval = max(1, cursorSaveInterval)
        }
    }

    /// Runs the firehose from a cursor, handing each message to the engine, until it ends.
    typealias Firehose = @Sendable (_ cursor: Int?, _ engine: BackfillThenLive) async throws -> Void

    /// What an acknowledgement makes durable, in delivery order.
    enum Effect {
        case record(path: String, cid: CID?)
        case state(RepoSyncState)
    }

    struct Pending {
        var id: UInt64
        var effect: Effect
        var acknowledged: Bool
        /// The firehose `seq` the cursor may not pass until this is durable.
        var sequence: Int?
    }

    /// A tracked repository, in memory.
    struct Repo {
        var status: RepoSyncStatus
        var rev: String?
        var data: CID?
        var buffer: [ComAtprotoSyncSubscribeRepos.Commit] = []
        /// Held commits were dropped (over the bound, or one failed its proof): resync after the fetch.
        var bufferLost = false
        var attempts = 0
        /// Bumped by each fetch scheduled: an older fetch stops.
        var epoch: UInt64 = 0
    }

    let configuration: Configuration
    let store: any BackfillStateStore
    /// The changes waiting for acknowledgements, the sequences they hold back and the cursor.
    nonisolated let ledger: AcknowledgementLedger
    let source: any RepoSnapshotSource
    let firehose: Firehose
    let channel: EventChannel<BackfillEvent>
    var repos: [DID: Repo] = [:]
    var nextID: UInt64 = 1
    var waitingFetches: [(DID, UInt64)] = []
    var activeFetches = 0
    var counters = BackfillProgress()
    /// The firehose, the fetches and the backoff waits, by a number: each removes itself when done.
    var tasks: [UInt64: Task<Void, Never>] = [:]
    var stopped = false
    var started = false

    /// The events, in delivery order (per repository: historical, then live). One reader; it ends
    /// when the backfill is stopped, or throws ``BackfillError`` when the firehose or the store fails.
    public nonisolated let events: Events

    /// Creates a backfill over a firehose.
    ///
    /// - Parameters:
    ///   - firehose: The client whose `subscribeRepos` is read: a relay (or a PDS) as its
    ///     `eventStreams.serviceURL`, with a `reconnectPolicy`. Its `frameCheck` is replaced by a
    ///     `FirehoseVerifier` over `resolver`.
    ///   - resolver: Resolves the accounts' keys and PDSes; a `CachingIdentityResolver` keeps it cheap.
    ///   - store: Where the cursor and the repositories' state are kept.
    ///   - source: Fetches repositories; by default ``VerifiedRepoSource`` over `resolver`.
    ///   - configuration: Bounds, backoff and record types.
    public init(
        firehose: XRPCClient, resolver: any IdentityResolver,
        store: any BackfillStateStore = InMemoryBackfillStateStore(), source: (any RepoSnapshotSource)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.init(
            store: store, source: source ?? VerifiedRepoSource(resolver: resolver), configuration: configuration
        ) { cursor, engine in
            var client = firehose
            client.eventStreams.frameCheck = FirehoseVerifier(
                resolver: resolver, policy: .report { failure in await engine.verificationFailed(failure) })
            for try await message in client.com.atproto.sync.subscribeRepos(cursor: cursor) {
                guard await engine.handle(message) else { return }
            }
        }
    }

    init(
        store: any BackfillStateStore, source: any RepoSnapshotSource, configuration: Configuration,
        firehose: @escaping Firehose
    ) {
        self.store = store
        self.ledger = AcknowledgementLedger(store: store)
        self.source = source
        self.configuration = configuration
        self.firehose = firehose
        let channel = EventChannel<BackfillEvent>(capacity: configuration.maximumEventsAhead)
        self.channel = channel
        self.events = Events(channel: channel, types: configuration.recordTypes)
    }

    deinit { ledger.forgetAll() }

    /// Loads the saved state, opens the firehose from the saved cursor and fetches every repository
    /// not yet live. Call it once.
    ///
    /// - Throws: what the state store throws.
    public func start() async throws {
        guard !started else { return }
        started = true
        let cursor = try await store.cursor()
        ledger.load(cursor: cursor)
        for (did, state) in try await store.repositories() {
            repos[did] = Repo(status: state.status, rev: state.rev, data: state.data)
            ledger.track(did)
            if state.status != .live, state.status != .failed { scheduleFetch(did, after: .zero) }
        }
        run { engine in
            do {
                try await engine.firehose(cursor, engine)
                await engine.finish(throwing: nil)
            } catch {
                await engine.finish(
                    throwing: BackfillError(.firehoseFailed, message: "the firehose ended", underlying: error))
            }
        }
    }

    /// Stops: the firehose is closed, fetches are cancelled and ``events`` ends. Events not
    /// acknowledged are delivered again by the next backfill over the same store.
    public func stop() async { await finish(throwing: nil) }

    func finish(throwing error: (any Error)?) async {
        stopped = true
        for task in tasks.values { task.cancel() }
        tasks = [:]
        channel.finish(throwing: error)
    }

    /// Runs `work` in a task of this actor, cancelled by ``stop()``.
    func run(_ work: @escaping @Sendable (isolated BackfillThenLive) async -> Void) {
        guard !stopped else { return }
        let id = nextID
        nextID += 1
        tasks[id] = Task {
            await work(self)
            self.tasks[id] = nil
        }
    }

    /// Tracks `repos`: each is fetched and delivered, then followed live. A repository already
    /// tracked is left as it is.
    ///
    /// - Throws: what the state store throws.
    public func add(repos dids: [DID]) async throws {
        for did in dids where repos[did] == nil {
            repos[did] = Repo(status: .pending)
            ledger.track(did)
            try await store.setState(RepoSyncState(status: .pending), of: did)
            scheduleFetch(did, after: .zero)
        }
    }

    /// Stops tracking `repos` and forgets their state; their events not yet acknowledged are dropped.
    ///
    /// - Throws: what the state store throws.
    public func remove(repos dids: [DID]) async throws {
        for did in dids {
            guard repos.removeValue(forKey: did) != nil else { continue }
            ledger.forget(did)
            try await store.removeRepository(did)
        }
        try await saveCursor()
    }

    /// Adds every repository that holds a record of `collection` (a "signal" collection), as the
    /// relay behind `client` lists them (`com.atproto.sync.listReposByCollection`).
    ///
    /// - Returns: How many repositories were listed.
    /// - Throws: What the call or the state store throws.
    @discardableResult
    public func add(reposWith collection: NSID, listedBy client: XRPCClient) async throws -> Int {
        var cursor: String?
        var count = 0
        repeat {
            let page = try await client.com.atproto.sync.listReposByCollection(collection: collection, cursor: cursor)
            try await add(repos: page.repos.map { $0.did })
            count += page.repos.count
            cursor = page.cursor
        } while cursor != nil
        return count
    }

    /// How far the backfill has got.
    public var progress: BackfillProgress {
        var progress = counters
        progress.repositories = repos.count
        progress.live = repos.values.filter { $0.status == .live }.count
        progress.failed = repos.values.filter { $0.status == .failed }.count
        return progress
    }

    /// The `seq` of the last firehose message handled; `nil` before the first one (and without a saved cursor).
    public var firehoseSequence: Int? { ledger.sequence }

    /// The state of `repo` in memory (ahead of what the store holds until the app acknowledges);
    /// `nil` when it is not tracked.
    public func state(of repo: DID) -> RepoSyncState? {
        repos[repo].map { RepoSyncState(status: $0.status, rev: $0.rev, data: $0.data) }
    }

    /// The events in batches: each step gives every event waiting (at most
    /// ``Configuration/maximumEventsAhead``, at least one), in delivery order. Read either this or
    /// ``events``, with one reader; acknowledge a batch with ``acknowledge(_:)``.
    ///
    /// ```swift
    /// for try await batch in backfill.eventBatches {
    ///     try index(batch)
    ///     try await backfill.acknowledge(batch)
    /// }
    /// ```
    public nonisolated var eventBatches: EventBatches {
        EventBatches(channel: events.channel, limit: configuration.maximumEventsAhead, types: events.types)
    }

    /// The events of a ``BackfillThenLive`` in batches.
    public struct EventBatches: AsyncSequence, Sendable {
        public typealias Element = [BackfillEvent]
        let channel: EventChannel<BackfillEvent>
        let limit: Int
        let types: LexiconRecordTypes

        public func makeAsyncIterator() -> Iterator { Iterator(channel: channel, limit: limit, types: types) }

        /// Reads the events waiting per step; their records are decoded here, on the reader's task.
        public struct Iterator: AsyncIteratorProtocol {
            let channel: EventChannel<BackfillEvent>
            let limit: Int
            let types: LexiconRecordTypes

            public mutating func next() async throws -> [BackfillEvent]? {
                guard var batch = try await channel.receive(upTo: limit) else { return nil }
                for index in batch.indices { batch[index] = batch[index].decoded(with: types) }
                return batch
            }
        }
    }

    /// The events of a ``BackfillThenLive``.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = BackfillEvent
        let channel: EventChannel<BackfillEvent>
        /// The record types historical records are decoded into, on the reader's task.
        let types: LexiconRecordTypes

        public func makeAsyncIterator() -> Iterator { Iterator(channel: channel, types: types) }

        /// Reads one event per step; its record is decoded here, on the reader's task.
        public struct Iterator: AsyncIteratorProtocol {
            let channel: EventChannel<BackfillEvent>
            let types: LexiconRecordTypes

            public mutating func next() async throws -> BackfillEvent? {
                try await channel.receive()?.decoded(with: types)
            }
        }
    }
}
