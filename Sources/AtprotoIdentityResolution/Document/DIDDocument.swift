import AtprotoCrypto
import AtprotoData
import AtprotoSyntax
import Foundation

/// A DID document, read leniently: the parts atproto uses are typed, everything else is kept.
///
/// ```swift
/// let document = try DIDDocument(jsonData: body)
/// document.handle          // alice.example.com, from `alsoKnownAs`
/// document.pdsEndpoint     // https://pds.example.com, from `#atproto_pds`
/// try document.signingKey() // the `#atproto` key
/// ```
///
/// ``jsonValue`` writes the document back with every field it was read with, known or not.
public struct DIDDocument: Sendable, Hashable {
    /// The DID the document describes.
    public var id: DID
    /// Other names of the subject; atproto puts the handle here as `at://<handle>`.
    public var alsoKnownAs: [String]
    /// The keys listed in `verificationMethod`, in order.
    public var verificationMethods: [VerificationMethod]
    /// The services listed in `service`, in order.
    public var services: [Service]
    /// Every top-level field as read, the ones above included.
    public var fields: [String: JSONValue]

    /// The largest document ``init(jsonData:maximumSize:)`` reads by default: 64 KiB. A real atproto
    /// document is well under 2 KiB.
    public static let defaultMaximumSize = 64 * 1024

    /// Creates a document from its parts (``fields`` holds them as JSON).
    public init(
        id: DID,
        alsoKnownAs: [String] = [],
        verificationMethods: [VerificationMethod] = [],
        services: [Service] = []
    ) {
        self.id = id
        self.alsoKnownAs = alsoKnownAs
        self.verificationMethods = verificationMethods
        self.services = services
        var fields: [String: JSONValue] = ["id": .string(id.rawValue)]
        if !alsoKnownAs.isEmpty { fields["alsoKnownAs"] = .array(alsoKnownAs.map(JSONValue.string)) }
        if !verificationMethods.isEmpty {
            fields["verificationMethod"] = .array(verificationMethods.map { .object($0.fields) })
        }
        if !services.isEmpty { fields["service"] = .array(services.map { .object($0.fields) }) }
        self.fields = fields
    }

    /// Reads a document from JSON bytes.
    ///
    /// - Throws: ``DIDDocumentError`` naming the JSON path of the first problem.
    public init(jsonData data: Data, maximumSize: Int = DIDDocument.defaultMaximumSize) throws(DIDDocumentError) {
        guard data.count <= maximumSize else {
            throw DIDDocumentError(
                .tooLarge, path: "$", message: "the document is \(data.count) bytes, over the limit of \(maximumSize)")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw DIDDocumentError(.invalidJSON, path: "$", message: "not JSON: \(error)")
        }
        try self.init(json: value)
    }

    /// Reads a document from a parsed JSON value.
    ///
    /// `id` must be a DID; `alsoKnownAs`, `verificationMethod` and `service`, when present, must be
    /// arrays of the right shapes. Entries of `verificationMethod` and `service` given as bare strings
    /// (references) are skipped; unknown fields anywhere are kept.
    public init(json: JSONValue) throws(DIDDocumentError) {
        guard let object = json.objectValue else {
            throw DIDDocumentError(.typeMismatch, path: "$", message: "expected an object, found \(json.kindName)")
        }
        guard let idText = object["id"]?.stringValue else {
            throw DIDDocumentError(.missingField, path: "$.id", message: "missing, or not a string")
        }
        if let problem = DID.syntaxError(in: idText) {
            throw DIDDocumentError(.invalidValue, path: "$.id", message: "\"\(idText)\" is not a DID: \(problem)")
        }
        id = DID(rawValue: idText)
        fields = object
        alsoKnownAs = try Self.strings(object["alsoKnownAs"], path: "$.alsoKnownAs")
        verificationMethods = try Self.entries(object["verificationMethod"], path: "$.verificationMethod") {
            value, path throws(DIDDocumentError) in try VerificationMethod(json: value, path: path)
        }
        services = try Self.entries(object["service"], path: "$.service") {
            value, path throws(DIDDocumentError) in try Service(json: value, path: path)
        }
    }

    /// The document as JSON, with every field it was read with.
    public var jsonValue: JSONValue { .object(fields) }

    // MARK: The atproto parts

    /// The handle the document claims: the first `at://` entry of `alsoKnownAs`, lower-cased, or `nil`
    /// when there is none or that entry is not a valid handle.
    ///
    /// A claim is not proof: a handle counts only when it also resolves to this DID, which
    /// ``IdentityResolver/resolveIdentity(_:)`` checks.
    public var handle: ATHandle? {
        for entry in alsoKnownAs where entry.hasPrefix("at://") {
            let candidate = String(entry.dropFirst("at://".count))
            return ATHandle.syntaxError(in: candidate) == nil ? ATHandle(rawValue: candidate).normalized : nil
        }
        return nil
    }

    /// The account's PDS: the `serviceEndpoint` of the service `#atproto_pds` of type
    /// `AtprotoPersonalDataServer`, when it is an `http` or `https` URL with a host.
    public var pdsEndpoint: URL? {
        guard let service = service(fragment: "atproto_pds"), service.type == "AtprotoPersonalDataServer" else {
            return nil
        }
        return service.endpointURL
    }

    /// The service whose `id` is `#<fragment>` or `<did>#<fragment>`.
    public func service(fragment: String) -> Service? {
        services.first { matches($0.id, fragment: fragment) }
    }

    /// The verification method whose `id` is `#<fragment>` or `<did>#<fragment>`.
    public func verificationMethod(fragment: String) -> VerificationMethod? {
        verificationMethods.first { matches($0.id, fragment: fragment) }
    }

    /// The key the account signs its repository with: the verification method `#atproto`, or `nil`
    /// when the document lists none.
    ///
    /// - Throws: `AtprotoPublicKeyError` when the method is there but its key cannot be read (a type atproto
    ///   does not use, a bad encoding, a point off the curve).
    public func signingKey() throws(AtprotoPublicKeyError) -> AtprotoPublicKey? {
        guard let method = verificationMethod(fragment: "atproto") else { return nil }
        return try method.publicKey()
    }

    private func matches(_ entryID: String, fragment: String) -> Bool {
        entryID == "#" + fragment || entryID == id.rawValue + "#" + fragment
    }

    // MARK: Reading

    private static func strings(_ value: JSONValue?, path: String) throws(DIDDocumentError) -> [String] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            throw DIDDocumentError(.typeMismatch, path: path, message: "expected an array, found \(value.kindName)")
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                throw DIDDocumentError(
                    .typeMismatch, path: "\(path)[\(index)]", message: "expected a string, found \(item.kindName)")
            }
            result.append(text)
        }
        return result
    }

    private static func entries<Entry>(
        _ value: JSONValue?,
        path: String,
        _ read: (JSONValue, String) throws(DIDDocumentError) -> Entry
    ) throws(DIDDocumentError) -> [Entry] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            throw DIDDocumentError(.typeMismatch, path: path, message: "expected an array, found \(value.kindName)")
        }
        var result: [Entry] = []
        for (index, item) in items.enumerated() where item.stringValue == nil {
            result.append(try read(item, "\(path)[\(index)]"))
        }
        return result
    }
}

/// Why a DID document could not be read: the JSON path of the problem and what is wrong.
public struct DIDDocumentError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The document is larger than the reader allows.
        public static let tooLarge: Code = "tooLarge"
        /// The document is not JSON.
        public static let invalidJSON: Code = "invalidJSON"
        /// A field of the wrong JSON kind (an array where an object belongs).
        public static let typeMismatch: Code = "typeMismatch"
        /// A required field is absent.
        public static let missingField: Code = "missingField"
        /// A field of the right kind whose value is not valid (an `id` that is not a DID).
        public static let invalidValue: Code = "invalidValue"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// Where in the document, as a JSON path (`$.service[0].id`).
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "DID document at \(path): \(message)" }
}

extension DIDDocument: Codable {
    /// Reads a document written by ``encode(to:)``: its JSON, every field kept.
    public init(from decoder: any Decoder) throws {
        try self.init(json: try JSONValue(from: decoder))
    }

    /// Writes the document as its JSON (``jsonValue``).
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
