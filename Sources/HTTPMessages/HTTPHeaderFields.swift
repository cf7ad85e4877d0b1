/// The header fields of an HTTP request or response, in the order they were sent, a name that
/// repeats kept once per field.
///
/// Names compare without regard to case (`DPoP-Nonce` finds `dpop-nonce`) and keep the spelling
/// they were added with. The subscript reads the first field of a name and writes by replacing every
/// field of that name; ``values(for:)`` reads them all, as a response with two `WWW-Authenticate`
/// fields (a `DPoP` challenge and a `Bearer` one) needs:
///
/// ```swift
/// var fields: HTTPHeaderFields = ["Content-Type": "application/json"]
/// fields.append("WWW-Authenticate", "DPoP error=\"use_dpop_nonce\"")
/// fields.append("WWW-Authenticate", "Bearer realm=\"pds\"")
/// fields["content-type"]                  // "application/json"
/// fields.values(for: "www-authenticate")  // both challenges, in order
/// ```
///
/// The transport, the XRPC client and the XRPC server all use this one type. It is not
/// swift-http-types' `HTTPFields` nor SwiftNIO's `HTTPHeaders`, so an app may import those beside it.
public struct HTTPHeaderFields: Sendable, Hashable {
    /// One field: a name as written and its value.
    public struct Field: Sendable, Hashable {
        /// The name as written (`WWW-Authenticate`); compare it without regard to case.
        public var name: String
        /// The value as received or to be sent.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// The given fields, in order; a name may repeat.
    public init(_ fields: some Sequence<Field>) { self.fields = Array(fields) }

    /// One field per entry of `dictionary`, sorted by lower-cased name (a dictionary has no order).
    public init(_ dictionary: [String: String]) {
        fields = dictionary.map { Field(name: $0.key, value: $0.value) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The first value of the field `name`, matched without regard to case, or `nil`.
    ///
    /// Setting a value replaces every field of that name with one field (where the first one was, or
    /// at the end); setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get {
            let lowered = name.lowercased()
            return fields.first { $0.name.lowercased() == lowered }?.value
        }
        set {
            let lowered = name.lowercased()
            let first = fields.firstIndex { $0.name.lowercased() == lowered }
            fields.removeAll { $0.name.lowercased() == lowered }
            guard let newValue else { return }
            fields.insert(Field(name: name, value: newValue), at: Swift.min(first ?? fields.count, fields.count))
        }
    }

    /// Every value of the field `name`, matched without regard to case, in order.
    public func values(for name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map { $0.value }
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Adds a field after the others, keeping any of the same name.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Adds `other`'s fields after these, first removing every field of a name that `other` has (any
    /// case): where both name a field, `other`'s values are the ones kept.
    public mutating func merge(_ other: HTTPHeaderFields) {
        let replaced = Set(other.fields.map { $0.name.lowercased() })
        fields.removeAll { replaced.contains($0.name.lowercased()) }
        fields.append(contentsOf: other.fields)
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(_ name: String) { self[name] = nil }

    /// The distinct names (compared without regard to case), each as first written, in the order
    /// they first appear.
    public var names: [String] {
        var seen: Set<String> = []
        return fields.map { $0.name }.filter { seen.insert($0.lowercased()).inserted }
    }

    /// One entry per name (spelled as first written), the values of a repeated name joined by `, `,
    /// which RFC 9110 (section 5.3) makes the same message: for APIs that take a dictionary
    /// (`URLRequest`, a WebSocket handshake).
    public var joinedByName: [String: String] {
        var joined: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let lowered = field.name.lowercased()
            if let name = spelling[lowered] {
                joined[name, default: ""] += ", " + field.value
            } else {
                spelling[lowered] = field.name
                joined[field.name] = field.value
            }
        }
        return joined
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The number of fields, repeated names counted once each.
    public var count: Int { fields.count }

    /// The fields with the value of each name listed in `names` (any case) replaced by `<redacted>`.
    public func redacting(_ names: Set<String>) -> HTTPHeaderFields {
        let lowered = Set(names.map { $0.lowercased() })
        return HTTPHeaderFields(
            fields.map { lowered.contains($0.name.lowercased()) ? Field(name: $0.name, value: "<redacted>") : $0 })
    }

    /// Two sets of fields are equal when they hold the same names (any case) and values in the same order.
    public static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value
            }
    }

    /// Hashes the lower-cased names and the values in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension HTTPHeaderFields: ExpressibleByDictionaryLiteral {
    /// The fields in the literal's order: `["Accept": "application/json", "Accept-Language": "en"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }
}

extension HTTPHeaderFields: Sequence {
    /// Iterates the fields in order, as `(name, value)`.
    public struct Iterator: IteratorProtocol {
        private var base: IndexingIterator<[Field]>

        init(_ fields: [Field]) { base = fields.makeIterator() }

        /// The next field, or `nil` after the last.
        public mutating func next() -> (name: String, value: String)? {
            base.next().map { (name: $0.name, value: $0.value) }
        }
    }

    /// Iterates the fields in order, as `(name, value)`.
    public func makeIterator() -> Iterator { Iterator(fields) }
}

extension HTTPHeaderFields: CustomStringConvertible {
    /// The names only, in order: values (tokens, DPoP proofs, cookies) are never shown.
    public var description: String {
        "[" + fields.map { $0.name }.joined(separator: ", ") + "]"
    }
}
