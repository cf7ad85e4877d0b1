import AtprotoIdentityResolution
import AtprotoRepository
import AtprotoSyntax
import AtprotoVerification
import Foundation
import XRPCCore

/// A repository as fetched for a backfill: its revision, its MST root, and its records by path.
public struct RepoSnapshot: Sendable {
    /// The commit's revision.
    public var rev: String
    /// The commit's MST root: the next live commit's `prevData` must equal it.
    public var data: CID
    /// The size of what was fetched, in bytes.
    public var byteCount: Int
    /// Every record path (`collection/rkey`) with its CID, in key order.
    public var index: [(path: String, cid: CID)]
    /// Reads the record at a path of ``index``.
    public var read: @Sendable (String) throws -> JSONValue?
    /// The proved repository it was read from, when it was: its records are then read in order
    /// instead of looked up one by one.
    public var repository: VerifiedRepository?

    /// Creates a snapshot from its parts.
    public init(
        rev: String, data: CID, byteCount: Int, index: [(path: String, cid: CID)],
        read: @escaping @Sendable (String) throws -> JSONValue?
    ) {
        self.rev = rev
        self.data = data
        self.byteCount = byteCount
        self.index = index
        self.read = read
    }

    /// The snapshot of a proved repository.
    public init(_ repository: VerifiedRepository) {
        self.init(
            rev: repository.commit.rev, data: repository.commit.data, byteCount: repository.byteCount,
            index: repository.index, read: { path in try repository.record(atPath: path)?.value.json })
        self.repository = repository
    }
}

/// Fetches repositories for ``BackfillThenLive``.
public protocol RepoSnapshotSource: Sendable {
    /// The repository of `did` as it is now, proved.
    func snapshot(of did: DID) async throws -> RepoSnapshot
}

/// Fetches each repository with `com.atproto.sync.getRepo` from the PDS its DID document names and
/// proves it whole (`VerifiedRepository`: every block's hash, the commit's signature with the
/// account's key, the MST).
public struct VerifiedRepoSource: RepoSnapshotSource {
    /// Resolves each DID to its PDS and signing key.
    public var resolver: any IdentityResolver
    /// Makes the client that calls a PDS.
    public var client: @Sendable (URL) -> XRPCClient
    /// Bounds on each repository's CAR.
    public var limits: AtprotoVerificationLimits

    /// Creates a source; by default each PDS is called through one `URLSessionAgent` per PDS
    /// (``sharedClient(for:)``), so the fetches of a PDS's repositories reuse its connections.
    public init(
        resolver: any IdentityResolver, limits: AtprotoVerificationLimits = AtprotoVerificationLimits(),
        client: @escaping @Sendable (URL) -> XRPCClient = { VerifiedRepoSource.sharedClient(for: $0) }
    ) {
        self.resolver = resolver
        self.limits = limits
        self.client = client
    }

    public func snapshot(of did: DID) async throws -> RepoSnapshot {
        let document = try await resolver.resolveDID(did)
        guard let pds = document.pdsEndpoint else {
            throw IdentityError(
                .missingPDS, identifier: did.rawValue, message: "the DID document names no #atproto_pds service")
        }
        let car = try await client(pds).com.atproto.sync.getRepo(did: did).data
        guard let key = try document.signingKey() else {
            throw IdentityError(.missingSigningKey, identifier: did.rawValue, message: "no #atproto key")
        }
        do {
            return RepoSnapshot(try VerifiedRepository(car: car, did: did, key: key, limits: limits))
        } catch let failure where failure.code == .badSignature {
            // The key may have rotated since the document was cached: once more with a fresh one.
            await resolver.invalidate(did: did)
            guard let fresh = try await resolver.resolveDID(did).signingKey() else { throw failure }
            return RepoSnapshot(try VerifiedRepository(car: car, did: did, key: fresh, limits: limits))
        }
    }
}

extension VerifiedRepoSource {
    /// The client the default `client` of ``init(resolver:limits:client:)`` gives for `pds`: one
    /// `URLSessionAgent` per PDS for the whole process (the 32 most recently used are kept), so
    /// fetching many repositories of one PDS reuses its connections rather than opening one each
    /// (a TLS handshake each, and on Linux a core kept busy while a new connection waits for its first
    /// answer: FoundationNetworking polls it for writing until then, see docs/Performance.md).
    public static func sharedClient(for pds: URL) -> XRPCClient { ClientsByService.shared.client(for: pds) }
}

/// Clients by service URL, made once each and kept for reuse: at most `limit`, the least recently
/// used let go first (an agent let go closes its session).
// @unchecked Sendable: `clients` and `recent` are read and written under `lock`; the rest are constants.
final class ClientsByService: @unchecked Sendable {
    static let shared = ClientsByService(limit: 32) { XRPCClient(agent: URLSessionAgent(serviceURL: $0)) }

    private let lock = NSLock()
    private let limit: Int
    private let make: @Sendable (URL) -> XRPCClient
    private var clients: [URL: XRPCClient] = [:]
    /// The URLs held, least recently used first.
    private var recent: [URL] = []

    init(limit: Int, make: @escaping @Sendable (URL) -> XRPCClient) {
        self.limit = max(1, limit)
        self.make = make
    }

    /// The client of `url`: the one made before when it is still kept, else a new one.
    func client(for url: URL) -> XRPCClient {
        lock.withLock {
            if let client = clients[url] {
                recent.removeAll { $0 == url }
                recent.append(url)
                return client
            }
            let client = make(url)
            clients[url] = client
            recent.append(url)
            if recent.count > limit { clients[recent.removeFirst()] = nil }
            return client
        }
    }
}
