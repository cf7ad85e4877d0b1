import AtprotoData
import AtprotoSyntax
import Foundation

/// A lexicon resolved over atproto: the schema record, where it came from, and whether it was proved.
public struct ResolvedLexicon: Sendable, Hashable {
    /// The lexicon's NSID (its `id`, and the record's key).
    public var nsid: NSID
    /// The record's URI: `at://<did>/com.atproto.lexicon.schema/<nsid>`.
    public var uri: ATURI
    /// The record's CID.
    public var cid: CID
    /// The lexicon document: the record without its `$type`.
    public var document: JSONValue
    /// The signed commit's revision the record was proved under, or `nil` when verification was skipped.
    public var provedAtRevision: String?

    /// Creates a resolved lexicon (a resolver makes them; tests and caches may too).
    public init(nsid: NSID, uri: ATURI, cid: CID, document: JSONValue, provedAtRevision: String?) {
        self.nsid = nsid
        self.uri = uri
        self.cid = cid
        self.document = document
        self.provedAtRevision = provedAtRevision
    }

    /// Whether the record was proved against its repository's signed commit.
    public var isVerified: Bool { provedAtRevision != nil }

    /// The document as a lexicon file: JSON with two-space indents, `lexicon`, `id`, `revision`,
    /// `description` and `defs` first at the top, `type` first in every other object and the rest of
    /// its keys sorted, ending with a newline. The same record always gives the same bytes. (A record
    /// does not keep the order of its keys, so properties come sorted, not in the author's order.)
    public var fileData: Data { Data(LexiconFileRendering.render(document).utf8) }
}

/// Renders a lexicon document as a stable, readable JSON file.
enum LexiconFileRendering {
    static let leadingKeys = ["lexicon", "id", "revision", "description", "defs"]

    static func render(_ document: JSONValue) -> String {
        var text = ""
        write(document, indent: 0, topLevel: true, into: &text)
        return text + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int, topLevel: Bool, into text: inout String) {
        switch value {
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += String(repeating: " ", count: indent + 2)
                write(element, indent: indent + 2, topLevel: false, into: &text)
                text += index + 1 < elements.count ? ",\n" : "\n"
            }
            text += String(repeating: " ", count: indent) + "]"
        case .object(let fields):
            guard !fields.isEmpty else {
                text += "{}"
                return
            }
            var keys = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let leading = (topLevel ? leadingKeys : ["type"]).filter { fields[$0] != nil }
            keys = leading + keys.filter { !leading.contains($0) }
            text += "{\n"
            for (index, key) in keys.enumerated() {
                guard let field = fields[key] else { continue }
                text += String(repeating: " ", count: indent + 2)
                text += JSONValue.string(key).serializedString() + ": "
                write(field, indent: indent + 2, topLevel: false, into: &text)
                text += index + 1 < keys.count ? ",\n" : "\n"
            }
            text += String(repeating: " ", count: indent) + "}"
        default:
            text += value.serializedString()
        }
    }
}
