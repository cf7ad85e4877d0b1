import Foundation
import LexGenKit

/// What ``LexiconInstaller/install(_:from:to:manifest:update:progress:)`` did.
public struct NamedInstallReport: Sendable, Hashable {
    /// The lexicons installed or checked, by NSID: the ones named and every one they refer to.
    public var nsids: [String]
    /// Lexicons fetched from the source (the others matched their pin on disk and were not asked for).
    public var fetched: Int
    /// Files written because they were new or their bytes changed.
    public var written: Int
    /// Files already installed with the same bytes (left untouched).
    public var unchanged: Int
    /// Lexicons whose pin moved (`--update`): to another version, another publisher, or both.
    public var moved: [MovedPin]
    /// Whether the manifest file was (re)written.
    public var manifestWritten: Bool
    /// The manifest after the install.
    public var manifest: LexiconManifest
    /// Whether the source was local (a folder): its lexicons were read, not fetched.
    public var sourceIsLocal = false
    /// Lexicons named or referred to that an imported module (the SDK a target depends on) already
    /// declares, with that module: not installed, since its types are the ones to use.
    public var provided: [(nsid: String, module: String, named: Bool)] = []

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nsids == rhs.nsids && lhs.fetched == rhs.fetched && lhs.written == rhs.written
            && lhs.unchanged == rhs.unchanged && lhs.moved == rhs.moved && lhs.manifestWritten == rhs.manifestWritten
            && lhs.manifest == rhs.manifest && lhs.sourceIsLocal == rhs.sourceIsLocal
            && lhs.provided.map { "\($0.nsid) \($0.module) \($0.named)" }
                == rhs.provided.map { "\($0.nsid) \($0.module) \($0.named)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nsids)
        hasher.combine(manifest)
    }

    /// A one-line summary for the command line.
    public var summary: String {
        let movedNote = moved.isEmpty ? "" : ", \(moved.count) pins moved"
        let manifestNote = manifestWritten ? "manifest written" : "manifest unchanged"
        let verb = sourceIsLocal ? "read" : "fetched"
        let providedNote = provided.isEmpty ? "" : ", \(provided.count) already in an imported module"
        return "\(nsids.count) lexicons (named and referenced): \(fetched) \(verb), \(written) written, "
            + "\(unchanged) unchanged"
            + "\(movedNote)\(providedNote); \(manifestNote)"
    }
}

/// A pin that an install with `--update` moved: the entry before and after, and what changed.
public struct MovedPin: Sendable, Hashable, CustomStringConvertible {
    /// The lexicon's NSID.
    public var nsid: String
    /// The pin before the install.
    public var from: LexiconManifest.Entry
    /// The pin after it.
    public var to: LexiconManifest.Entry

    /// Creates a moved pin.
    public init(nsid: String, from: LexiconManifest.Entry, to: LexiconManifest.Entry) {
        self.nsid = nsid
        self.from = from
        self.to = to
    }

    /// Whether the lexicon itself changed: its record CID, or its content (its bytes when no content
    /// hash is pinned).
    public var versionChanged: Bool {
        if let old = from.record, let new = to.record, old.cid != new.cid { return true }
        if let old = from.content, let new = to.content { return old != new }
        return from.sha256 != to.sha256
    }

    /// Whether the lexicon now comes from another place: another record (another DID) or, for a
    /// lexicon pinned from a folder, a record at all.
    public var publisherChanged: Bool { from.record?.uri != to.record?.uri }

    /// `<nsid>: <what moved>`: the version (record CID, or SHA-256 for a file), the publisher, or both.
    public var description: String {
        var changes: [String] = []
        if versionChanged { changes.append("\(Self.version(of: from)) -> \(Self.version(of: to))") }
        if publisherChanged {
            let note = "publisher \(Self.publisher(of: from)) -> \(Self.publisher(of: to))"
            changes.append(versionChanged ? note : "\(note) (same version \(Self.version(of: to)))")
        }
        if changes.isEmpty { changes.append("\(Self.version(of: from)) (unchanged)") }
        return "\(nsid): " + changes.joined(separator: "; ")
    }

    private static func version(of entry: LexiconManifest.Entry) -> String { entry.record?.cid ?? entry.sha256 }

    private static func publisher(of entry: LexiconManifest.Entry) -> String {
        guard let record = entry.record else { return "none (a local file)" }
        return record.publisher ?? record.uri
    }
}
