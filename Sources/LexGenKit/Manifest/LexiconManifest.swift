import Foundation
import SHA2

/// The committed record of which lexicon files were installed: each file's NSID, path and SHA-256, and
/// for a lexicon installed over atproto the record it came from (its `at://` URI and CID). A manifest
/// made over atproto with `--dns-server` or `--plc-directory` keeps them too, on one line
/// (`"resolver": {"dnsServers": [...], "plcDirectory": "..."}`), for the commands errors suggest.
///
/// The JSON form is deterministic and diff-friendly, one entry per line, with a trailing newline:
///
/// ```
/// {
///   "version": 1,
///   "source": "../shared/lexicons/atproto",
///   "lexicons": [
///     {"nsid": "app.bsky.actor.defs", "path": "app/bsky/actor/defs.json", "sha256": "…"},
///     {"nsid": "xyz.statusphere.status", "path": "xyz/statusphere/status.json", "sha256": "…",
///      "uri": "at://did:plc:…/com.atproto.lexicon.schema/xyz.statusphere.status", "cid": "bafyrei…"},
///     …
///   ]
/// }
/// ```
public struct LexiconManifest: Sendable, Hashable {
    /// The `com.atproto.lexicon.schema` record a lexicon was installed from.
    public struct RecordPin: Sendable, Hashable {
        /// The record's URI: `at://<did>/com.atproto.lexicon.schema/<nsid>`.
        public var uri: String
        /// The record's CID: the version installed.
        public var cid: String

        /// Creates a pin.
        public init(uri: String, cid: String) {
            self.uri = uri
            self.cid = cid
        }

        /// The DID that publishes the record: the URI's authority, or `nil` when it is no DID.
        public var publisher: String? {
            guard uri.hasPrefix("at://") else { return nil }
            let authority = uri.dropFirst(5).prefix { $0 != "/" }
            return authority.hasPrefix("did:") ? String(authority) : nil
        }
    }

    /// One installed lexicon file.
    public struct Entry: Sendable, Hashable {
        /// The lexicon's NSID: the top-level `id` of its file.
        public var nsid: String
        /// The file's path relative to the lexicon folder, with `/` separators.
        public var path: String
        /// The SHA-256 of the file's bytes, as 64 lowercase hexadecimal digits.
        public var sha256: String
        /// The record the lexicon was installed from, when it came over atproto.
        public var record: RecordPin?
        /// The ``LexiconContentHash`` of the file: what the lexicon says, however its file is written, so
        /// the same lexicon from another source (a folder, a record) is recognised as the one pinned.
        public var content: String?
        /// The SHA-256 of the file as installed: the lexicon reduced to its facts (``LexiconFacts``), the
        /// form a project commits. `nil` in a manifest written before installs reduced lexicons: the
        /// installed file is then the published one (``sha256``).
        public var facts: String?

        /// Creates an entry.
        public init(
            nsid: String, path: String, sha256: String, record: RecordPin? = nil, content: String? = nil,
            facts: String? = nil
        ) {
            self.nsid = nsid
            self.path = path
            self.sha256 = sha256
            self.record = record
            self.content = content
            self.facts = facts
        }

        /// Whether `data` is the pinned published lexicon (a folder's file, a record's lexicon): the same
        /// bytes, or the same content when the content is pinned.
        public func matches(_ data: Data) -> Bool {
            if SHA256.hexHash(data) == sha256 { return true }
            guard let content else { return false }
            return LexiconContentHash.of(data) == content
        }

        /// Whether `data` is the file an install of this pin writes: the reduced form when the entry
        /// pins one (``facts``), else the published lexicon.
        public func matchesInstalled(_ data: Data) -> Bool {
            guard let facts else { return matches(data) }
            return SHA256.hexHash(data) == facts
        }

        /// The hash an installed file is checked against: ``facts`` when pinned, else ``sha256``.
        public var installedSHA256: String { facts ?? sha256 }
    }

    /// How atproto was reached by the last install over it, when not the defaults: the commands that
    /// errors suggest (`lexgen verify`, the build plugin) repeat these options.
    public struct ResolverOptions: Sendable, Hashable {
        /// `--dns-server` values, as given.
        public var dnsServers: [String]
        /// `--plc-directory`, as given.
        public var plcDirectory: String?

        /// Creates options.
        public init(dnsServers: [String] = [], plcDirectory: String? = nil) {
            self.dnsServers = dnsServers
            self.plcDirectory = plcDirectory
        }

        /// The options as `lexgen install` takes them.
        public var arguments: [String] {
            dnsServers.flatMap { ["--dns-server", $0] } + (plcDirectory.map { ["--plc-directory", $0] } ?? [])
        }
    }

    /// The version of the JSON form this type reads and writes.
    public static let formatVersion = 1

    /// The entries, sorted by path (byte-wise on UTF-8, so the order is the same on every platform).
    public private(set) var entries: [Entry]

    /// The folder the lexicons were installed from, relative to the manifest's own folder (never an
    /// absolute path: the manifest is committed and read on other machines); error messages and a
    /// restore (`lexgen install` with no NSIDs) use it.
    public var source: String?

    /// The resolver options of the last install over atproto, when they were not the defaults.
    public var resolver: ResolverOptions?

    /// Whether any lexicon was installed over atproto (its entry pins a record).
    public var pinsRecords: Bool { entries.contains { $0.record != nil } }

    /// Creates a manifest; the entries are sorted by path.
    public init(entries: [Entry], source: String? = nil, resolver: ResolverOptions? = nil) {
        self.entries = entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.source = source
        self.resolver = resolver
    }

    /// Reads a manifest file.
    ///
    /// - Throws: ``InstallError`` naming the file and what is wrong with it (unreadable, not JSON, wrong
    ///   version, an entry missing a field, a malformed hash or path, a duplicate path or NSID).
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = error.localizedDescription
            throw InstallError(file: url.path, message: "cannot read the lexicon manifest: \(reason)")
        }
        try self.init(jsonData: data, file: url.path)
    }

    /// Parses the JSON form of a manifest; `file` names the source in error messages.
    ///
    /// - Throws: ``InstallError`` naming `file` and what is wrong.
    public init(jsonData data: Data, file: String) throws {
        func failure(_ message: String) -> InstallError {
            InstallError(file: file, message: "invalid lexicon manifest: \(message)")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw failure("not valid JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any] else {
            throw failure("expected a JSON object at the top level")
        }
        guard let version = object["version"] as? Int else {
            throw failure("missing integer \"version\"")
        }
        guard version == Self.formatVersion else {
            throw failure("unsupported version \(version) (expected \(Self.formatVersion))")
        }
        guard let list = object["lexicons"] as? [Any] else {
            throw failure("missing array \"lexicons\"")
        }
        var entries: [Entry] = []
        var paths: Set<String> = []
        var nsids: [String: String] = [:]
        for (index, item) in list.enumerated() {
            let label = "lexicons[\(index)]"
            guard let fields = item as? [String: Any] else {
                throw failure("\(label) is not an object")
            }
            func string(_ key: String) throws -> String {
                guard let value = fields[key] as? String, !value.isEmpty else {
                    throw failure("\(label) has no string \"\(key)\"")
                }
                return value
            }
            var entry = Entry(nsid: try string("nsid"), path: try string("path"), sha256: try string("sha256"))
            if let content = fields["content"] {
                guard let content = content as? String, SHA256.isHexDigest(content) else {
                    throw failure("\(entry.path): content must be 64 lowercase hexadecimal digits")
                }
                entry.content = content
            }
            if let facts = fields["facts"] {
                guard let facts = facts as? String, SHA256.isHexDigest(facts) else {
                    throw failure("\(entry.path): facts must be 64 lowercase hexadecimal digits")
                }
                entry.facts = facts
            }
            switch (fields["uri"], fields["cid"]) {
            case (nil, nil): break
            case (let uri as String, let cid as String) where uri.hasPrefix("at://") && !cid.isEmpty:
                entry.record = RecordPin(uri: uri, cid: cid)
            default:
                throw failure("\(label) needs both a string \"uri\" (at://...) and a string \"cid\", or neither")
            }
            guard Self.isValidRelativePath(entry.path) else {
                throw failure("\(label) has path \"\(entry.path)\"; expected a relative path to a .json file")
            }
            guard SHA256.isHexDigest(entry.sha256) else {
                throw failure("\(entry.path): sha256 must be 64 lowercase hexadecimal digits")
            }
            guard paths.insert(entry.path).inserted else {
                throw failure("\(entry.path) is listed more than once")
            }
            if let other = nsids.updateValue(entry.path, forKey: entry.nsid) {
                throw failure("NSID \(entry.nsid) is listed for both \(other) and \(entry.path)")
            }
            entries.append(entry)
        }
        var resolver: ResolverOptions?
        if let value = object["resolver"] {
            guard let fields = value as? [String: Any],
                let servers = (fields["dnsServers"] ?? [String]()) as? [String],
                fields["plcDirectory"] == nil || fields["plcDirectory"] is String,
                Set(fields.keys).isSubset(of: ["dnsServers", "plcDirectory"])
            else {
                throw failure(
                    "\"resolver\" must be an object with a string array \"dnsServers\" and a string \"plcDirectory\"")
            }
            resolver = ResolverOptions(dnsServers: servers, plcDirectory: fields["plcDirectory"] as? String)
        }
        self.init(entries: entries, source: object["source"] as? String, resolver: resolver)
    }

    /// The deterministic JSON form, one entry per line, ending with a newline.
    public func jsonString() -> String {
        var text = "{\n  \"version\": \(Self.formatVersion),\n"
        if let source { text += "  \"source\": \(Self.quoted(source)),\n" }
        if let resolver {
            var fields = ["\"dnsServers\": [\(resolver.dnsServers.map(Self.quoted).joined(separator: ", "))]"]
            if let directory = resolver.plcDirectory { fields.append("\"plcDirectory\": \(Self.quoted(directory))") }
            text += "  \"resolver\": {\(fields.joined(separator: ", "))},\n"
        }
        text += "  \"lexicons\": ["
        if entries.isEmpty {
            return text + "]\n}\n"
        }
        text += "\n"
        for (index, entry) in entries.enumerated() {
            text += "    {\"nsid\": \(Self.quoted(entry.nsid)), \"path\": \(Self.quoted(entry.path)), "
            text += "\"sha256\": \(Self.quoted(entry.sha256))"
            if let content = entry.content { text += ", \"content\": \(Self.quoted(content))" }
            if let facts = entry.facts { text += ", \"facts\": \(Self.quoted(facts))" }
            if let record = entry.record {
                text += ", \"uri\": \(Self.quoted(record.uri)), \"cid\": \(Self.quoted(record.cid))"
            }
            text += "}"
            text += index + 1 < entries.count ? ",\n" : "\n"
        }
        return text + "  ]\n}\n"
    }

    /// The UTF-8 bytes of ``jsonString()``.
    public func jsonData() -> Data {
        Data(jsonString().utf8)
    }

    /// Looks up the entry for a path relative to the lexicon folder.
    public func entry(forPath path: String) -> Entry? {
        entries.first { $0.path == path }
    }

    /// Looks up the entry of an NSID.
    public func entry(forNSID nsid: String) -> Entry? {
        entries.first { $0.nsid == nsid }
    }

    /// The sources whose NSID, as this manifest records it, `include` and `exclude` select; sources it
    /// does not list are kept (their `id` decides once loaded). A module generated from part of a
    /// folder (the SDK's namespace modules) then loads only its part, not every lexicon: the
    /// lexgen tool of a build plugin runs in debug, where loading is most of its time.
    public func sources(
        _ sources: [LexiconSource], selectedBy include: [String], exclude: [String]
    ) -> [LexiconSource] {
        guard !include.isEmpty || !exclude.isEmpty else { return sources }
        let nsids = Dictionary(entries.map { ($0.path, $0.nsid) }, uniquingKeysWith: { first, _ in first })
        return sources.filter { source in
            guard let nsid = nsids[source.relativePath] else { return true }
            return LexiconOutputNaming.selects(nsid, include: include, exclude: exclude)
        }
    }

    /// `folder` (absolute, or relative to the current folder) as a path relative to the folder of
    /// `manifestURL`, the form ``source`` records.
    public static func sourcePath(_ folder: String, relativeTo manifestURL: URL) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let target = URL(fileURLWithPath: folder, relativeTo: current).standardizedFileURL.pathComponents
        let base = manifestURL.deletingLastPathComponent().standardizedFileURL.pathComponents
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] { shared += 1 }
        let parts = Array(repeating: "..", count: base.count - shared) + target[shared...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// ``source`` as a folder to read: resolved against the folder of `manifestURL`.
    public func sourceFolder(manifest manifestURL: URL) -> URL? {
        guard let source else { return nil }
        return URL(fileURLWithPath: source, relativeTo: manifestURL.deletingLastPathComponent()).standardizedFileURL
    }

    // MARK: - Helpers

    /// Whether `path` is a plain relative path to a `.json` file: no leading `/`, no empty, `.` or `..` parts.
    package static func isValidRelativePath(_ path: String) -> Bool {
        guard path.hasSuffix(".json"), !path.hasPrefix("/"), !path.contains("\\") else {
            return false
        }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    /// A JSON string literal for `text`.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Reads the NSID of a lexicon file: its top-level string `id`.
    ///
    /// - Throws: ``InstallError`` naming `file` when the data is not a JSON object with a string `id`.
    package static func lexiconID(in data: Data, file: String) throws -> String {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw InstallError(file: file, message: "not a valid JSON lexicon (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any] else {
            throw InstallError(file: file, message: "not a lexicon: expected a JSON object at the top level")
        }
        guard let id = object["id"] as? String, !id.isEmpty else {
            throw InstallError(file: file, message: "not a lexicon: it has no top-level string \"id\"")
        }
        return id
    }
}
