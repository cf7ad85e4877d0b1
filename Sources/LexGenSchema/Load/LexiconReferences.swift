import Foundation

/// The other lexicons a lexicon document refers to, read from its JSON: what an install must bring
/// along so the lexicon can be generated.
public enum LexiconReferences {
    /// The NSIDs named by the `ref` of every `ref` definition and the `refs` of every `union` in the
    /// lexicon `data`, without fragments (`#main`, `#view`), without the lexicon's own `id`, sorted and
    /// without repeats. Local refs (`#view`) name no other lexicon. Data that is not a JSON object has
    /// no references (the installer reports it as not a lexicon before asking).
    public static func nsids(inLexicon data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var found: Set<String> = []
        collect(root, into: &found)
        if let id = root["id"] as? String { found.remove(id) }
        return found.sorted()
    }

    private static func collect(_ value: Any, into found: inout Set<String>) {
        if let array = value as? [Any] {
            for element in array { collect(element, into: &found) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        let type = object["type"] as? String
        if type == "ref", let ref = object["ref"] as? String {
            insert(ref, into: &found)
        }
        if type == "union", let refs = object["refs"] as? [Any] {
            for case let ref as String in refs { insert(ref, into: &found) }
        }
        for (_, child) in object { collect(child, into: &found) }
    }

    private static func insert(_ ref: String, into found: inout Set<String>) {
        let nsid = ref.prefix { $0 != "#" }
        if !nsid.isEmpty { found.insert(String(nsid)) }
    }
}
