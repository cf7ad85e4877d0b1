import AtprotoData
import AtprotoSyntax
import Foundation
import XRPCCore

/// The record types an app decodes, looked up by collection NSID.
///
/// ```swift
/// let types = LexiconRecordTypes([AppBskyFeedPost.self, AppBskyFeedLike.self])
/// ```
public struct LexiconRecordTypes: Sendable {
    private var decoders: [NSID: any LexiconRecord.Type] = [:]

    /// A lookup of `types`; a later type replaces an earlier one of the same collection.
    public init(_ types: [any LexiconRecord.Type] = []) {
        for type in types { add(type) }
    }

    /// Adds a record type.
    public mutating func add(_ type: any LexiconRecord.Type) {
        decoders[type.collection] = type
    }

    /// `bytes` read straight into `type` (``LexiconDecoder``), with no tree in between.
    private static func decode<R: LexiconRecord>(_ type: R.Type, from bytes: Data) throws -> any LexiconRecord {
        try LexiconDecoder().decode(R.self, from: bytes)
    }

    /// The collections it knows, sorted.
    public var collections: [NSID] { decoders.keys.sorted { $0.rawValue < $1.rawValue } }

    /// Reads `json`, a record of `collection`: into its type when the lookup has one.
    public func record(_ json: JSONValue, collection: NSID) -> DecodedRecord {
        guard let type = decoders[collection] else { return .unknown(LexiconUnknownValue(json)) }
        do {
            return .known(try type.init(lexiconJSON: json))
        } catch {
            let reason = error as? LexiconDecodingError ?? LexiconDecodingError(message: "\(error)")
            return .invalid(LexiconUnknownValue(json), reason)
        }
    }

    /// Reads `bytes`, the JSON text of a record of `collection`, as ``record(_:collection:)`` reads
    /// its tree: a known collection is decoded straight from the bytes; only an unknown collection or
    /// a record that does not decode is built as a tree. Throws `JSONParseError` when `bytes` are not JSON.
    package func record(jsonBytes bytes: Data, collection: NSID) throws -> DecodedRecord {
        guard let type = decoders[collection] else {
            return .unknown(LexiconUnknownValue(try JSONValue.parse(bytes)))
        }
        do {
            return .known(try Self.decode(type, from: bytes))
        } catch let error as JSONParseError {
            throw error
        } catch {
            return record(try JSONValue.parse(bytes), collection: collection)
        }
    }

    /// Decodes the record of `collection` whose JSON starts at `position` in `bytes` (inside a larger
    /// text, such as an event's frame) straight into its type, and moves `position` past it; `nil`,
    /// with `position` unchanged, when the lookup has no type for `collection` or the record does not
    /// decode: then ``record(jsonBytes:collection:)`` reads it, or reports what is wrong.
    package func knownRecord(jsonBytes bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, collection: NSID)
        -> (any LexiconRecord)?
    {
        guard let type = decoders[collection] else { return nil }
        return try? Self.decode(type, from: bytes, at: &position)
    }

    /// The record at `position` in `bytes` read straight into `type`, `position` moved past it.
    private static func decode<R: LexiconRecord>(
        _ type: R.Type, from bytes: UnsafeBufferPointer<UInt8>, at position: inout Int
    ) throws -> any LexiconRecord {
        try LexiconDecoder().decodeValue(R.self, from: bytes, at: &position)
    }

    /// Reads `value`, a record of `collection` as decoded from DAG-CBOR, into its type when the lookup
    /// has one, without writing it as JSON first; otherwise, and when it does not decode, as
    /// ``record(_:collection:)-(JSONValue,_)`` reads its JSON form, with the same reason.
    public func record(_ value: AtprotoDataModelValue, collection: NSID) -> DecodedRecord {
        guard let type = decoders[collection] else { return .unknown(LexiconUnknownValue(value.json)) }
        do {
            return .known(try type.init(dataModel: value))
        } catch {
            let reason = error as? LexiconDecodingError ?? LexiconDecodingError(message: "\(error)")
            return .invalid(LexiconUnknownValue(value.json), reason)
        }
    }
}

/// A record read from a repository commit.
public enum DecodedRecord: Sendable {
    /// A record of a collection in the ``LexiconRecordTypes`` given, decoded into its type.
    case known(any LexiconRecord)
    /// A record of a collection the lookup does not know, as read.
    case unknown(LexiconUnknownValue)
    /// A record of a known collection that does not decode into its type, as read, with the reason.
    case invalid(LexiconUnknownValue, LexiconDecodingError)

    /// The record as `type`, when it was decoded into it.
    public func `as`<R: LexiconRecord>(_ type: R.Type) -> R? {
        guard case .known(let record) = self else { return nil }
        return record as? R
    }

    /// The record's JSON form.
    public var json: JSONValue {
        switch self {
        case .known(let record): return record.lexiconJSON
        case .unknown(let value), .invalid(let value, _): return value.json
        }
    }
}

/// One operation of a repository commit (a `#commit` event-stream message): what happened at
/// which path, and the record it wrote.
public struct RepoOperation: Sendable {
    /// What the operation did. An open set, matched with `==`.
    public struct Action: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The wire name.
        public var rawValue: String
        /// Wraps a wire name.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A record was created.
        public static let create = Action(rawValue: "create")
        /// A record was replaced.
        public static let update = Action(rawValue: "update")
        /// A record was deleted.
        public static let delete = Action(rawValue: "delete")
    }

    /// What the operation did.
    public var action: Action
    /// The record's path in the repository, `<collection>/<record key>`.
    public var path: String
    /// The CID of the record written; `nil` for a delete.
    public var cid: CID?
    /// The record written, read from the commit's blocks; `nil` for a delete, and when the commit
    /// does not carry the block (a `tooBig` commit).
    public var record: DecodedRecord?

    /// Creates an operation.
    public init(action: Action, path: String, cid: CID?, record: DecodedRecord?) {
        self.action = action
        self.path = path
        self.cid = cid
        self.record = record
    }

    /// The collection NSID: the part of ``path`` before the first `/`.
    public var collection: NSID { NSID(rawValue: String(path.prefix { $0 != "/" })) }

    /// The record key: the part of ``path`` after the first `/`.
    public var recordKey: RecordKey {
        guard let slash = path.firstIndex(of: "/") else { return RecordKey(rawValue: "") }
        return RecordKey(rawValue: String(path[path.index(after: slash)...]))
    }
}

/// The blocks of a commit's CAR file (the `blocks` of a `#commit` message), for reading the
/// records its operations wrote.
public struct RepoCommitBlocks: Sendable {
    /// The CAR file, every block's hash checked.
    public let car: CARFile
    private let blocks: [CID: Data]

    /// Reads a commit's CAR file and checks that each block hashes to its CID.
    ///
    /// - Throws: `AtprotoBinaryDecodingError` for a malformed CAR file or a block that does not match its CID.
    public init(car bytes: some ContiguousBytes) throws(AtprotoBinaryDecodingError) {
        car = try CARFile(reading: bytes)
        blocks = car.blocksByCID
    }

    /// An operation with its record, read from the block with CID `cid`.
    ///
    /// - Parameters:
    ///   - action: `create`, `update` or `delete`.
    ///   - path: `<collection>/<record key>`; the collection selects the record type in `types`.
    ///   - cid: The record's CID; `nil` for a delete.
    ///   - types: The record types to decode into, by collection.
    /// - Throws: `AtprotoBinaryDecodingError` when the block is not valid DAG-CBOR, naming the path.
    public func operation(
        action: RepoOperation.Action, path: String, cid: CID?, types: LexiconRecordTypes
    ) throws(AtprotoBinaryDecodingError) -> RepoOperation {
        var operation = RepoOperation(action: action, path: path, cid: cid, record: nil)
        guard action != .delete, let cid, let bytes = blocks[cid] else { return operation }
        let value: AtprotoDataModelValue
        do {
            value = try DAGCBOR.decode(bytes)
        } catch {
            throw AtprotoBinaryDecodingError(
                error.code, offset: error.offset, message: "record \(path) (\(cid)): \(error.message)")
        }
        operation.record = types.record(value, collection: operation.collection)
        return operation
    }
}
