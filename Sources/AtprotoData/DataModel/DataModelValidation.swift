/// The atproto data model (atproto.com/specs/data-model) in its JSON form: what values may hold.
///
/// The rules checked:
/// - no floats: a number with a fraction is an error. A number written with a fraction or exponent
///   whose value is a whole number (`123.0`) counts as an integer, as the interop fixtures expect, if
///   it is below 2^53 in magnitude and so read exactly; integers are signed 64-bit;
/// - an object with a `$link` field is a link: exactly `{"$link": <CID>}`, where the CID is a base32
///   CIDv1 (``isValidLinkCID(_:)``);
/// - an object with a `$bytes` field is bytes: exactly `{"$bytes": <base64>}`, base64 with the
///   standard alphabet and optional padding (RFC 4648 section 4);
/// - `$type`, when present, is a non-empty string;
/// - an object whose `$type` is `"blob"` is a blob: exactly `$type`, `ref` (a link), `mimeType` (a
///   non-empty string) and `size` (an integer, not negative). The legacy blob `{"cid", "mimeType"}`
///   has no `$type` and is an ordinary object;
/// - a record, an `unknown` value and a whole data-model document are objects, and not blob,
///   `$bytes` or `$link` objects (``validate(_:at:)``; ``validateValue(_:at:)`` checks any value).
///
/// Errors are ``LexiconDecodingError``s whose path names the faulty value.
public enum AtprotoDataModel {
    /// Checks a record, an `unknown` value or a whole data-model document: an object, not a blob,
    /// `$bytes` or `$link` object, whose contents follow the data-model rules.
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - path: Where the value sits, put in front of the path of any error thrown.
    /// - Throws: ``LexiconDecodingError`` naming the first faulty value found and why.
    public static func validate(_ value: JSONValue, at path: [String] = []) throws(LexiconDecodingError) {
        guard case .object(let fields) = value else {
            throw LexiconDecodingError(
                .typeMismatch, path: path, message: "expected an object, found \(value.kindName)")
        }
        try validateValue(value, at: path)
        if let kind = specialKind(of: fields) {
            throw LexiconDecodingError(.typeMismatch, path: path, message: "expected an object, found a \(kind) object")
        }
    }

    /// Checks any data-model value, at the top level or nested: a blob, a link, an array, a string.
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - path: Where the value sits, put in front of the path of any error thrown.
    /// - Throws: ``LexiconDecodingError`` naming the first faulty value found and why.
    public static func validateValue(_ value: JSONValue, at path: [String] = []) throws(LexiconDecodingError) {
        // An explicit stack rather than recursion, so no value is too deep to check, and paths kept as
        // links to the parent's, so a path is built only for an error.
        var paths = PathTable(prefix: path)
        var pending: [(value: JSONValue, path: Int)] = []
        if try check(value, at: { paths.path(PathTable.root) }) { pending.append((value, PathTable.root)) }
        while let (container, node) = pending.popLast() {
            switch container {
            case .array(let items):
                for (index, item) in items.enumerated().reversed() {
                    if try check(item, at: { paths.path(node) + [String(index)] }) {
                        pending.append((item, paths.add(String(index), parent: node)))
                    }
                }
            case .object(let fields):
                for (key, item) in fields.sorted(by: { $0.key > $1.key }) {
                    if try check(item, at: { paths.path(node) + [key] }) {
                        pending.append((item, paths.add(key, parent: node)))
                    }
                }
            default:
                break
            }
        }
    }

    /// Checks a value's own rules: a scalar, or a special object with its fields. Returns `true` for
    /// an array or ordinary object, whose elements are still to be checked.
    private static func check(_ value: JSONValue, at path: () -> [String]) throws(LexiconDecodingError) -> Bool {
        switch value {
        case .null, .bool, .integer, .string:
            return false
        case .number(let number):
            if let problem = integerProblem(number) { throw LexiconDecodingError(path: path(), message: problem) }
            return false
        case .array:
            return true
        case .object(let fields):
            return try !checkSpecialObject(fields, at: path)
        }
    }

    /// Checks a `$link`, `$bytes` or blob object, returning `true` when `fields` is one (and valid),
    /// `false` for an ordinary object, whose `$type` it checks.
    private static func checkSpecialObject(_ fields: [String: JSONValue], at path: () -> [String])
        throws(LexiconDecodingError) -> Bool
    {
        if fields["$link"] != nil {
            try checkLink(.object(fields), at: path())
            return true
        }
        if fields["$bytes"] != nil {
            try within(path()) { () throws(LexiconDecodingError) in _ = try bytesObject(.object(fields)) }
            return true
        }
        guard let type = fields["$type"] else { return false }
        guard case .string(let name) = type, !name.isEmpty else {
            throw LexiconDecodingError(
                .typeMismatch, path: path() + ["$type"],
                message: "$type must be a non-empty string, found \(kindName(type))")
        }
        guard name == "blob" else { return false }
        try checkBlob(fields, at: path())
        return true
    }

    /// Checks `{"$link": <CID>}`.
    private static func checkLink(_ json: JSONValue, at path: [String]) throws(LexiconDecodingError) {
        let cid = try within(path) { () throws(LexiconDecodingError) in try specialField("$link", of: json) }
        guard isValidLinkCID(cid) else {
            throw LexiconDecodingError(
                path: path + ["$link"], message: "not a valid CID (expected a base32 CIDv1, \"b...\"): \"\(cid)\"")
        }
    }

    /// The fields of a blob in the current form, all required.
    private static let blobFields: Set<String> = ["$type", "ref", "mimeType", "size"]

    /// Checks a blob in the current form: exactly `$type`, `ref`, `mimeType` and `size`.
    private static func checkBlob(_ fields: [String: JSONValue], at path: [String]) throws(LexiconDecodingError) {
        let extra = fields.keys.filter { !blobFields.contains($0) }.sorted()
        guard extra.isEmpty else {
            throw LexiconDecodingError(
                path: path,
                message: "a blob has only $type, ref, mimeType and size; found also \(extra.joined(separator: ", "))")
        }
        for key in ["ref", "mimeType", "size"] where fields[key] == nil {
            throw LexiconDecodingError(.missingField, path: path + [key], message: "blob field is missing")
        }
        if let ref = fields["ref"] { try checkLink(ref, at: path + ["ref"]) }
        guard case .string(let mimeType)? = fields["mimeType"], !mimeType.isEmpty else {
            throw LexiconDecodingError(
                .typeMismatch, path: path + ["mimeType"],
                message: "blob mimeType must be a non-empty string, found \(kindName(fields["mimeType"]))")
        }
        switch fields["size"] {
        case .integer(let size)?:
            if size < 0 { throw LexiconDecodingError(path: path + ["size"], message: "blob size is negative") }
        case .number(let size)?:
            if let problem = integerProblem(size) {
                throw LexiconDecodingError(path: path + ["size"], message: "blob size: \(problem)")
            }
            if size < 0 { throw LexiconDecodingError(path: path + ["size"], message: "blob size is negative") }
        default:
            throw LexiconDecodingError(
                .typeMismatch, path: path + ["size"],
                message: "blob size must be an integer, found \(kindName(fields["size"]))")
        }
    }

    /// What keeps a number that is not an ``JSONValue/integer(_:)`` from being a data-model integer,
    /// or `nil` when it is one: a whole number below 2^53 in magnitude, like `123.0`.
    private static func integerProblem(_ number: Double) -> String? {
        guard number.rounded(.towardZero) == number else {
            return "floats are not allowed in the data model: \(number)"
        }
        guard number >= -9.223_372_036_854_775_808e18, number < 9.223_372_036_854_775_808e18 else {
            return "integer \(number) is outside the signed 64-bit range"
        }
        guard abs(number) < 9.007_199_254_740_992e15 else {
            return "integer \(number), written with a fraction or exponent, is too large to read exactly (over 2^53)"
        }
        return nil
    }

    /// The kind of special object `fields` is, or `nil` for an ordinary object.
    private static func specialKind(of fields: [String: JSONValue]) -> String? {
        if fields["$link"] != nil { return "$link" }
        if fields["$bytes"] != nil { return "$bytes" }
        if case .string("blob")? = fields["$type"] { return "blob" }
        return nil
    }

    /// The kind of an optional value, `missing` for `nil`.
    private static func kindName(_ value: JSONValue?) -> String {
        value?.kindName ?? "missing"
    }

    /// The string in `{"<key>": <string>}`, an object with exactly that one field; shared by the
    /// readers of ``LexiconBytes`` and ``CIDLink`` and by validation.
    package static func specialField(_ key: String, of json: JSONValue) throws(LexiconDecodingError) -> String {
        guard case .object(let fields) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "{\"\(key)\": <string>} object", found: json)
        }
        guard let value = fields[key] else {
            throw LexiconDecodingError(.missingField, path: [key], message: "required field is missing")
        }
        let extra = fields.keys.filter { $0 != key }.sorted()
        guard extra.isEmpty else {
            throw LexiconDecodingError(
                message: "a \(key) object has no other fields; found also \(extra.joined(separator: ", "))")
        }
        guard case .string(let text) = value else {
            throw LexiconDecodingError(.typeMismatch, path: [key], message: "expected string, found \(value.kindName)")
        }
        return text
    }

    /// Runs `body`, putting `path` in front of the path of any decoding error it throws.
    private static func within<T>(
        _ path: [String], _ body: () throws(LexiconDecodingError) -> T
    ) throws(LexiconDecodingError) -> T {
        do {
            return try body()
        } catch {
            var error = error
            error.path = path + error.path
            throw error
        }
    }
}

/// The paths of the containers waiting to be checked, each stored as its key and its parent's index.
private struct PathTable {
    /// The index of the value checked, whose path is the prefix.
    static let root = -1
    /// The path of the value checked.
    let prefix: [String]
    /// Each container's key and its parent's index.
    var links: [(key: String, parent: Int)] = []

    init(prefix: [String]) {
        self.prefix = prefix
    }

    /// Adds the container at `key` within the one at `parent`, returning its index.
    mutating func add(_ key: String, parent: Int) -> Int {
        links.append((key, parent))
        return links.count - 1
    }

    /// The full path of the container at `index`.
    func path(_ index: Int) -> [String] {
        var keys: [String] = []
        var index = index
        while index != Self.root {
            keys.append(links[index].key)
            index = links[index].parent
        }
        return prefix + keys.reversed()
    }
}
