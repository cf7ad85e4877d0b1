import Foundation
import LexGenKit

/// Where an install of named lexicons gets them: a local folder (``FolderInstallSource``) or atproto
/// itself (`lexgen install <nsid>`, resolved over the network by `AtprotoLexiconResolution`).
public protocol LexiconInstallSource: Sendable {
    /// How the source is recorded in a manifest it writes (`"atproto"`, a folder's path).
    var label: String { get }

    /// The current version of the lexicon `nsid`, or `nil` when the source has no such lexicon.
    func lexicon(_ nsid: String) async throws -> FetchedLexicon?

    /// The version a manifest entry pins, for a re-install; a source that cannot fetch old versions
    /// returns the current one, and the installer refuses it when it differs from the pin.
    func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon?

    /// The NSIDs the source holds that match `pattern` (`com.example.*`), for installs by pattern.
    func nsids(matching pattern: String) async throws -> [String]

    /// Whether the source reads local files: an install reports no progress per lexicon for it, since
    /// nothing is fetched. `false` by default.
    var isLocal: Bool { get }

    /// The DID that publishes `nsid` now (over atproto, the DID its authority's `_lexicon` record
    /// names), or `nil` for a source without publishers (a folder; the default). A re-install of a
    /// lexicon pinned by record asks it first and refuses a record whose DID is not this one.
    func currentPublisher(of nsid: String) async throws -> String?

    /// How the source reaches atproto, when not the defaults: an install records it in the manifest
    /// (`nil`, the default, for a local source or the public network).
    var resolverOptions: LexiconManifest.ResolverOptions? { get }

    /// A lexicon the source holds whose NSID is close to `nsid` (a typo of it), for the error that
    /// says `nsid` was not found; `nil` (the default) when there is none or the source cannot list.
    func nsid(near nsid: String) async -> String?
}

extension LexiconInstallSource {
    /// `false`: a source fetches unless it says otherwise.
    public var isLocal: Bool { false }

    /// `nil`: no publisher to check.
    public func currentPublisher(of nsid: String) async throws -> String? { nil }

    /// `nil`: the defaults, or no network.
    public var resolverOptions: LexiconManifest.ResolverOptions? { nil }

    /// `nil`: the source cannot list what it holds.
    public func nsid(near nsid: String) async -> String? { nil }
}

/// One lexicon as a source delivered it.
public struct FetchedLexicon: Sendable, Hashable {
    /// The NSID asked for.
    public var nsid: String
    /// Where it goes, relative to the lexicon folder (`app/bsky/feed/post.json`).
    public var path: String
    /// The bytes to install.
    public var data: Data
    /// The record it came from when the source is atproto: pinned in the manifest beside the hash.
    public var record: LexiconManifest.RecordPin?

    /// Creates a fetched lexicon.
    public init(nsid: String, path: String, data: Data, record: LexiconManifest.RecordPin? = nil) {
        self.nsid = nsid
        self.path = path
        self.data = data
        self.record = record
    }

    /// The path a lexicon fetched over the network is installed at: its NSID's segments as folders,
    /// the last as the file name (`app.bsky.feed.post` -> `app/bsky/feed/post.json`), as upstream lays them out.
    public static func path(for nsid: String) -> String {
        nsid.split(separator: ".").joined(separator: "/") + ".json"
    }
}

/// The lexicons of a local folder, found by their `id` (not their path), for installs of named NSIDs
/// and their references: `lexgen install app.bsky.feed.post --from ../shared/lexicons/atproto`.
public struct FolderInstallSource: LexiconInstallSource {
    /// The folder, as given.
    public let folder: URL
    public let label: String
    private let files: [String: (path: String, data: Data)]

    /// Reads every `*.json` lexicon under `folder`.
    ///
    /// - Throws: ``InstallError`` when the folder is missing, a file cannot be read or has no string
    ///   `id`, or two files share an NSID.
    public init(folder: URL, label: String? = nil) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw InstallError(file: folder.path, message: "the lexicon source folder does not exist")
        }
        var files: [String: (path: String, data: Data)] = [:]
        for file in try LexiconInstaller.lexiconFiles(in: folder) {
            files[file.entry.nsid] = (file.entry.path, file.data)
        }
        self.folder = folder
        self.label = label ?? folder.path
        self.files = files
    }

    public func lexicon(_ nsid: String) async throws -> FetchedLexicon? {
        files[nsid].map { FetchedLexicon(nsid: nsid, path: $0.path, data: $0.data) }
    }

    public func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? {
        try await lexicon(entry.nsid)
    }

    public func nsids(matching pattern: String) async throws -> [String] {
        files.keys.filter { NSIDPattern.matches(pattern, $0) }.sorted()
    }

    /// `true`: the folder was read when the source was made.
    public var isLocal: Bool { true }

    /// The folder's NSID closest to `nsid`, when it is within a typo.
    public func nsid(near nsid: String) async -> String? {
        NearestName.suggestion(for: nsid, among: files.keys)
    }
}

/// An error a network source throws when it could not reach what it looked up (no DNS answer, an
/// authority with no `_lexicon` record, a DID document or PDS out of reach): the install says so and
/// points to `--from <folder>`, the way to install without the network.
public struct LexiconSourceUnreachable: Error, CustomStringConvertible, Sendable {
    /// The source's own error, as text.
    public var description: String

    /// Wraps the source's error.
    public init(_ error: any Error) { description = "\(error)" }
}
