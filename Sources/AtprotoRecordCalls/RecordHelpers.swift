import ComAtprotoLexicons
import Foundation
import XRPCCore

/// Record helpers: the `com.atproto.repo` calls typed by the record type, so the collection, the
/// `$type` and the decoding come from the type.
///
/// ```swift
/// let created = try await client.createRecord(post, repo: ATIdentifier(did))
/// let read = try await client.getRecord(AppBskyFeedPost.self, repo: ATIdentifier(did), rkey: rkey)
/// let page = try await client.listRecords(AppBskyFeedPost.self, repo: ATIdentifier(did), limit: 50)
/// for bad in page.invalidRecords { log("\(bad)") }   // one bad record never fails the page
/// ```
///
/// Writes check the record first (its lexicon, and its key against the collection's key type)
/// unless `XRPCClient.validatesInput` is off; an invalid record throws `XRPCCallError` with code
/// `invalidInput` (its `underlying` the `LexiconValidationError` or ``RecordKeyError``) and nothing is
/// sent. Every helper throws `XRPCCallError`, as the generated calls do; read an endpoint's declared
/// error typed: `error.declaredError(for: ComAtprotoRepoGetRecord.self) == .recordNotFound`.
extension XRPCClient {
    /// Creates `record` in its collection of `repo` (`com.atproto.repo.createRecord`).
    ///
    /// - Parameters:
    ///   - record: The record; its type names the collection.
    ///   - repo: The repository: the account's DID or handle.
    ///   - rkey: The record key. Without one the server makes a TID, except for a collection whose
    ///     key is a literal (`self`), which gets that literal.
    ///   - swapCommit: Fails with `InvalidSwap` unless the repo's current commit has this CID.
    /// - Returns: The record's URI and CID (`ComAtprotoRepoCreateRecord.Output.strongRef`).
    @discardableResult
    public func createRecord<R: LexiconRecord>(
        _ record: R,
        repo: ATIdentifier,
        rkey: RecordKey? = nil,
        swapCommit: CIDString? = nil
    ) async throws(XRPCCallError) -> ComAtprotoRepoCreateRecord.Output {
        let key = rkey ?? R.recordKey.literalKey
        try check(record, key: key, nsid: ComAtprotoRepoCreateRecord.nsid)
        return try await com.atproto.repo.createRecord(
            repo: repo, collection: R.collection, record: LexiconUnknownValue(encoding: record), rkey: key,
            swapCommit: swapCommit)
    }

    /// Reads the record at `rkey` in the collection of `type` (`com.atproto.repo.getRecord`).
    ///
    /// - Parameters:
    ///   - type: The record type; it names the collection.
    ///   - repo: The repository: the account's DID or handle.
    ///   - rkey: The record key.
    ///   - cid: Reads that version of the record.
    ///   - validating: Whether the record must also pass its lexicon's rules (the default), or only
    ///     decode.
    /// - Throws: `XRPCCallError`: the declared error `RecordNotFound` for a missing record, or code
    ///   `invalidOutput` with an ``InvalidRecordError`` as `underlying` (the record as read) when it is
    ///   not a valid `R`.
    public func getRecord<R: LexiconRecord>(
        _ type: R.Type,
        repo: ATIdentifier,
        rkey: RecordKey,
        cid: CIDString? = nil,
        validating: Bool = true
    ) async throws(XRPCCallError) -> RepositoryRecord<R> {
        let output = try await com.atproto.repo.getRecord(
            repo: repo, collection: R.collection, rkey: rkey, cid: cid)
        switch Self.read(R.self, output.value, validating: validating) {
        case .success(let value):
            return RepositoryRecord(uri: output.uri, cid: output.cid, value: value)
        case .failure(let problem):
            let invalid = InvalidRecordError(
                collection: R.collection,
                record: InvalidRecord(uri: output.uri, cid: output.cid, value: output.value, problem: problem))
            throw XRPCCallError(
                .invalidOutput, nsid: ComAtprotoRepoGetRecord.nsid, message: "\(invalid)", underlying: invalid)
        }
    }

    /// Lists records of the collection of `type` (`com.atproto.repo.listRecords`), the valid ones and
    /// the invalid ones apart: a record that does not decode (or does not validate, when `validating`)
    /// is returned in ``RecordPage/invalidRecords`` with its URI, CID, raw value and problem.
    ///
    /// - Parameters:
    ///   - type: The record type; it names the collection.
    ///   - repo: The repository: the account's DID or handle.
    ///   - limit: At most this many records (1-100); the server's default (50) when `nil`.
    ///   - cursor: The ``RecordPage/cursor`` of the previous page.
    ///   - reverse: Lists in the other order.
    ///   - validating: Whether records must also pass their lexicon's rules to count as valid.
    public func listRecords<R: LexiconRecord>(
        _ type: R.Type,
        repo: ATIdentifier,
        limit: Int? = nil,
        cursor: String? = nil,
        reverse: Bool? = nil,
        validating: Bool = true
    ) async throws(XRPCCallError) -> RecordPage<R> {
        let output = try await com.atproto.repo.listRecords(
            repo: repo, collection: R.collection, cursor: cursor, limit: limit, reverse: reverse)
        var page = RecordPage<R>(records: [], invalidRecords: [], cursor: output.cursor)
        for entry in output.records {
            switch Self.read(R.self, entry.value, validating: validating) {
            case .success(let value):
                page.records.append(RepositoryRecord(uri: entry.uri, cid: entry.cid, value: value))
            case .failure(let problem):
                page.invalidRecords.append(
                    InvalidRecord(uri: entry.uri, cid: entry.cid, value: entry.value, problem: problem))
            }
        }
        return page
    }

    /// Writes `record` at `rkey` in its collection, creating or replacing it
    /// (`com.atproto.repo.putRecord`).
    ///
    /// - Parameters:
    ///   - record: The record; its type names the collection.
    ///   - repo: The repository: the account's DID or handle.
    ///   - rkey: The record key; may be left out for a collection whose key is a literal (`self`).
    ///   - swapRecord: Fails with `InvalidSwap` unless the current record has this CID;
    ///     `.null` requires that there is no record yet.
    ///   - swapCommit: Fails with `InvalidSwap` unless the repo's current commit has this CID.
    @discardableResult
    public func putRecord<R: LexiconRecord>(
        _ record: R,
        repo: ATIdentifier,
        rkey: RecordKey? = nil,
        swapRecord: LexiconNullable<CIDString>? = nil,
        swapCommit: CIDString? = nil
    ) async throws(XRPCCallError) -> ComAtprotoRepoPutRecord.Output {
        guard let key = rkey ?? R.recordKey.literalKey else {
            let error = RecordKeyError(
                .missingKey, nsid: ComAtprotoRepoPutRecord.nsid, collection: R.collection, rkey: nil,
                message: "needs a record key: the collection's keys are not a literal")
            throw XRPCCallError(
                .invalidInput, nsid: ComAtprotoRepoPutRecord.nsid, message: "\(error)", underlying: error)
        }
        try check(record, key: key, nsid: ComAtprotoRepoPutRecord.nsid)
        return try await com.atproto.repo.putRecord(
            repo: repo, collection: R.collection, rkey: key, record: LexiconUnknownValue(encoding: record),
            swapCommit: swapCommit, swapRecord: swapRecord)
    }

    /// Deletes the record at `rkey` in the collection of `type` (`com.atproto.repo.deleteRecord`).
    /// Deleting a record that does not exist succeeds. The key is not checked against the
    /// collection's key type, so a record stored under a bad key can still be deleted.
    @discardableResult
    public func deleteRecord<R: LexiconRecord>(
        _ type: R.Type,
        repo: ATIdentifier,
        rkey: RecordKey,
        swapRecord: CIDString? = nil,
        swapCommit: CIDString? = nil
    ) async throws(XRPCCallError) -> ComAtprotoRepoDeleteRecord.Output {
        try await com.atproto.repo.deleteRecord(
            repo: repo, collection: R.collection, rkey: rkey, swapCommit: swapCommit,
            swapRecord: swapRecord)
    }

    /// Applies creates, updates and deletes in one commit (`com.atproto.repo.applyWrites`): all or none.
    ///
    /// Each created or updated record is checked first, as ``createRecord(_:repo:rkey:swapCommit:)``
    /// checks one; deletes are not (a record with a bad key can still be deleted). The output's
    /// `results` are in the order of `writes`.
    @discardableResult
    public func applyWrites(
        _ writes: [RecordWrite],
        repo: ATIdentifier,
        swapCommit: CIDString? = nil
    ) async throws(XRPCCallError) -> ComAtprotoRepoApplyWrites.Output {
        for write in writes {
            guard let record = write.record else { continue }
            try check(record, key: write.rkey, nsid: ComAtprotoRepoApplyWrites.nsid)
        }
        return try await com.atproto.repo.applyWrites(
            repo: repo, writes: writes.map(\.operation), swapCommit: swapCommit)
    }

    /// Uploads `data` as a blob (`com.atproto.repo.uploadBlob`) and returns the reference to put in a
    /// record. The blob is kept by the server only once a record refers to it.
    ///
    /// - Parameters:
    ///   - data: The blob's bytes.
    ///   - mimeType: The content's MIME type, e.g. `image/png`.
    public func uploadBlob(_ data: Data, mimeType: String) async throws(XRPCCallError) -> LexiconBlob {
        try await com.atproto.repo.uploadBlob(XRPCRawBody(data: data, contentType: mimeType)).blob
    }

    // MARK: Checks and reading

    /// Checks a record to write and its key, unless ``validatesInput`` is off.
    private func check<R: LexiconRecord>(_ record: R, key: RecordKey?, nsid: NSID) throws(XRPCCallError) {
        guard validatesInput else { return }
        if let key, let reason = R.recordKey.problem(with: key) {
            let error = RecordKeyError(.invalidKey, nsid: nsid, collection: R.collection, rkey: key, message: reason)
            throw XRPCCallError(.invalidInput, nsid: nsid, message: "\(error)", underlying: error)
        }
        guard let validatable = record as? any LexiconValidatable else { return }
        do {
            try validatable.validate()
        } catch {
            throw XRPCCallError(
                .invalidInput, nsid: nsid, message: "the record breaks its lexicon: \(error)", underlying: error)
        }
    }

    /// `json` as an `R`, or why it is not one.
    static func read<R: LexiconRecord>(_ type: R.Type, _ json: LexiconUnknownValue, validating: Bool) -> Result<
        R, RecordProblem
    > {
        let value: R
        do {
            value = try R(lexiconJSON: json.json)
        } catch let error as LexiconDecodingError {
            return .failure(.doesNotDecode(error))
        } catch {
            return .failure(.doesNotDecode(LexiconDecodingError(message: "\(error)")))
        }
        // The JSON as stored, not the decoded value: decoding settles `$type` to the collection.
        if validating, let validatable = R.self as? any LexiconValidatable.Type {
            do {
                try validatable.validate(json: json.json)
            } catch {
                return .failure(.doesNotValidate(error))
            }
        }
        return .success(value)
    }
}

/// A record key that does not fit its collection's key type (`tid`, `nsid`, `literal:self`), or a
/// missing one where the collection needs one. Thrown before anything is sent.
public struct RecordKeyError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The collection needs a key (its key type is not a literal) and none was given.
        public static let missingKey: Code = "missingKey"
        /// The key does not fit the collection's key type (`tid`, `nsid`, `literal:self`, ...).
        public static let invalidKey: Code = "invalidKey"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// The endpoint that was about to be called.
    public var nsid: NSID
    /// The collection written to, when known.
    public var collection: NSID?
    /// The key, or `nil` when there was none.
    public var rkey: RecordKey?
    /// What is wrong with it.
    public var message: String

    /// Creates the error.
    public init(_ code: Code, nsid: NSID, collection: NSID?, rkey: RecordKey?, message: String) {
        self.code = code
        self.nsid = nsid
        self.collection = collection
        self.rkey = rkey
        self.message = message
    }

    public var description: String {
        let key = rkey.map { "record key \"\($0.rawValue)\"" } ?? "the write"
        let place = collection.map { " in \($0)" } ?? ""
        return "\(nsid): \(key)\(place) \(message)"
    }
}
