import AtprotoLexicons
import Foundation

/// The kinds of Jetstream events.
public enum JetstreamEventKind: String, Sendable, Hashable, CaseIterable {
    /// A record created, updated or deleted.
    case commit
    /// A handle or DID document change.
    case identity
    /// An account status change.
    case account
    /// A broken commit chain: resync the repo (v2 only; v1 never sends it).
    case sync
}

/// Which events a Jetstream subscription asks the server for. Each part left empty matches all.
///
/// The limits are Jetstream's, checked by ``check(for:)`` before connecting: at most
/// ``maximumCollections`` collections and ``maximumDIDs`` DIDs (after removing repeats).
///
/// ```swift
/// let filter = JetstreamFilter(collections: ["app.bsky.feed.post", "app.bsky.graph.*"], kinds: [.commit])
/// ```
public struct JetstreamFilter: Sendable, Hashable {
    /// Collections whose commits to receive: an NSID, or `<prefix>.*` for every collection under a
    /// prefix (`app.bsky.graph.*`). Other kinds than commits are not filtered by it.
    public var collections: [String]
    /// Repos whose events to receive (every kind).
    public var dids: [DID]
    /// The kinds to receive (v2 only: v1 has no such parameter, so v1 refuses a non-empty set).
    public var kinds: Set<JetstreamEventKind>
    /// Skip events whose frame is larger than this many bytes (`nil`: no limit).
    public var maximumMessageSize: Int?

    /// Jetstream's limit on ``collections``.
    public static let maximumCollections = 100
    /// Jetstream's limit on ``dids``.
    public static let maximumDIDs = 10_000

    /// Creates a filter.
    public init(
        collections: [String] = [], dids: [DID] = [], kinds: Set<JetstreamEventKind> = [],
        maximumMessageSize: Int? = nil
    ) {
        self.collections = collections
        self.dids = dids
        self.kinds = kinds
        self.maximumMessageSize = maximumMessageSize
    }

    /// Every event.
    public static var all: JetstreamFilter { JetstreamFilter() }

    /// Throws when the filter cannot be sent to `version`: a malformed collection or DID, a list over
    /// its limit, kinds on v1, collections with kinds that exclude commits, a negative or too large
    /// message size. ``JetstreamError/parameter`` names the wire parameter.
    public func check(for version: JetstreamEndpoint) throws(JetstreamError) {
        let v2 = version == .v2
        let collectionsName = v2 ? "collections" : "wantedCollections"
        let didsName = v2 ? "dids" : "wantedDids"
        for (index, pattern) in collections.enumerated() {
            if let reason = Self.problem(inCollection: pattern, strictPrefix: v2) {
                throw JetstreamError(
                    .invalidFilter, parameter: "\(collectionsName)[\(index)]", message: "\"\(pattern)\" \(reason)")
            }
        }
        let distinctCollections = Set(collections).count
        guard distinctCollections <= Self.maximumCollections else {
            throw JetstreamError(
                .invalidFilter, parameter: collectionsName,
                message: "\(distinctCollections) collections; Jetstream takes at most \(Self.maximumCollections)")
        }
        for (index, did) in dids.enumerated() where !did.isValid {
            throw JetstreamError(
                .invalidFilter, parameter: "\(didsName)[\(index)]", message: "\"\(did.rawValue)\" is not a DID")
        }
        let distinctDIDs = Set(dids).count
        guard distinctDIDs <= Self.maximumDIDs else {
            throw JetstreamError(
                .invalidFilter, parameter: didsName,
                message: "\(distinctDIDs) DIDs; Jetstream takes at most \(Self.maximumDIDs)")
        }
        if !kinds.isEmpty {
            guard v2 else {
                throw JetstreamError(
                    .wrongEndpoint, parameter: "kinds",
                    message: "v1 (/subscribe) has no kinds filter; use v2 or filter the events yourself")
            }
            if !collections.isEmpty && !kinds.contains(.commit) {
                throw JetstreamError(
                    .invalidFilter, parameter: "collections",
                    message: "collections filter commits, but kinds excludes commit: it could never match")
            }
        }
        if let size = maximumMessageSize, size < 0 || size > Int(UInt32.max) {
            throw JetstreamError(
                .invalidFilter, parameter: "maxMessageSizeBytes", message: "\(size) is not in 0...\(UInt32.max)")
        }
    }

    /// Why `pattern` is not an NSID or `<prefix>.*`, or `nil`.
    static func problem(inCollection pattern: String, strictPrefix: Bool) -> String? {
        guard pattern.hasSuffix(".*") else {
            return NSID.syntaxError(in: pattern).map { "is not an NSID: \($0)" }
        }
        let prefix = pattern.dropLast(2)
        guard !prefix.isEmpty, !prefix.contains("*") else { return "is not a <prefix>.* pattern" }
        // v2 wants the prefix to start a valid NSID: `app.bsky.*` yes, `app.*` no.
        if strictPrefix, NSID.syntaxError(in: prefix + ".x") != nil {
            return "has a prefix that does not start an NSID (at least two segments: app.bsky.*)"
        }
        return nil
    }

    /// The query items of the filter for `version`.
    func queryItems(for version: JetstreamEndpoint) -> [URLQueryItem] {
        let v2 = version == .v2
        var items: [URLQueryItem] = []
        var seen = Set<String>()
        for pattern in collections where seen.insert(pattern).inserted {
            items.append(URLQueryItem(name: v2 ? "collections" : "wantedCollections", value: pattern))
        }
        seen = []
        for did in dids where seen.insert(did.rawValue).inserted {
            items.append(URLQueryItem(name: v2 ? "dids" : "wantedDids", value: did.rawValue))
        }
        for kind in JetstreamEventKind.allCases where kinds.contains(kind) {
            items.append(URLQueryItem(name: "kinds", value: kind.rawValue))
        }
        if let size = maximumMessageSize {
            items.append(URLQueryItem(name: "maxMessageSizeBytes", value: String(size)))
        }
        return items
    }
}

/// The two Jetstream endpoints.
public enum JetstreamEndpoint: String, Sendable, Hashable {
    /// The legacy `GET /subscribe`: bare JSON events, cursor in unix microseconds (`time_us`).
    case v1
    /// The lexicon-defined `network.bsky.jetstream.subscribeEvents` (`xrpc.v1.json` frames), cursor
    /// in the server's sequence numbers (`seq`).
    case v2

    /// Parameter names that belong to the other version, or that ask for zstd, which this client
    /// does not decode.
    static let v1Only: Set<String> = ["wantedCollections", "wantedDids", "requireHello", "compress"]
    static let v2Only: Set<String> = ["collections", "dids", "kinds", "zstdDictionary"]
    static let compression: Set<String> = ["compress", "zstdDictionary"]

    /// Throws when `items` (extra query parameters) hold one of the other version, a compression
    /// request, or one the client sets itself (`cursor`).
    func check(extraQueryItems items: [URLQueryItem]) throws(JetstreamError) {
        for item in items {
            if Self.compression.contains(item.name) {
                throw JetstreamError(
                    .unsupported, parameter: item.name,
                    message: "zstd compression is not supported by this client; leave \(item.name) out")
            }
            let other = self == .v2 ? Self.v1Only : Self.v2Only
            if other.contains(item.name) {
                let owner = self == .v2 ? "v1 (/subscribe)" : "v2 (subscribeEvents)"
                throw JetstreamError(
                    .wrongEndpoint, parameter: item.name,
                    message: "\(item.name) is a parameter of \(owner), not of \(rawValue); use JetstreamFilter")
            }
            if ["cursor", "collections", "wantedCollections", "dids", "wantedDids", "kinds", "maxMessageSizeBytes"]
                .contains(item.name)
            {
                throw JetstreamError(
                    .invalidFilter, parameter: item.name,
                    message: "\(item.name) is set by the client (its filter and cursor), not as an extra parameter")
            }
        }
    }
}
