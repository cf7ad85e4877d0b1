import AtprotoCrypto
import AtprotoData
import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation
import XRPCCore

/// A record proved by its repository: its value, its CID, and the signed commit the proof starts from.
///
/// What it guarantees: the account's key (from its DID document) signed a commit whose MST holds this
/// CID at this path, and the value hashes to that CID. What it does not: that the commit is the
/// newest (a server can serve an older, validly signed state), nor anything about the record's
/// content beyond its lexicon type.
public struct VerifiedRecord<Record: Sendable>: Sendable {
    /// The record's URI, with the account's DID as authority.
    public var uri: ATURI
    /// The record's CID.
    public var cid: CID
    /// The record.
    public var value: Record
    /// The signed commit.
    public var commit: SignedCommit

    /// The commit's revision.
    public var rev: String { commit.rev }
}

extension XRPCClient {
    /// Fetches the record at `uri` from its account's PDS (`com.atproto.sync.getRecord`) and proves it:
    /// the commit is by the URI's account and signed by its key, the MST path reaches the record, the
    /// record hashes to its CID. Returns `nil` when the proof shows there is no such record.
    ///
    /// ```swift
    /// let resolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
    /// if let post = try await client.verifiedRecord(AppBskyFeedPost.self, at: uri, resolver: resolver) {
    ///     print(post.value.text, post.cid, post.rev)
    /// }
    /// ```
    ///
    /// When the signature does not verify, the DID is resolved once more (its key may have rotated) and
    /// the proof checked again before the failure is reported.
    ///
    /// - Throws: ``AtprotoVerificationError`` (`badSignature`, `wrongDID`, `brokenProof`, `hashMismatch`,
    ///   `unsupportedKey`, `malformedData`, `identityUnavailable`), or the server's `XRPCError`.
    public func verifiedRecord<Record: LexiconRecord>(
        _ type: Record.Type,
        at uri: ATURI,
        resolver: any IdentityResolver,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    ) async throws -> VerifiedRecord<Record>? {
        guard uri.collection == Record.collection else {
            throw AtprotoVerificationError(
                .malformedData,
                message: "\(uri.rawValue) is not in the collection \(Record.collection) of \(Record.self)")
        }
        let proof = try await proveRecord(at: uri, resolver: resolver, limits: limits)
        guard let (cid, value) = proof.record else { return nil }
        let record: Record
        do {
            record = try Record(lexiconJSON: value.json)
        } catch {
            throw AtprotoVerificationError(
                .malformedData, message: "\(uri.rawValue) is proved but is not a valid \(Record.collection): \(error)")
        }
        return VerifiedRecord(uri: canonical(uri, did: proof.commit.did), cid: cid, value: record, commit: proof.commit)
    }

    /// Fetches and proves the record path of `uri`, whatever its type; see
    /// ``verifiedRecord(_:at:resolver:limits:)``.
    public func proveRecord(
        at uri: ATURI,
        resolver: any IdentityResolver,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    ) async throws -> RecordProof {
        guard let collection = uri.collection, let rkey = uri.rkey else {
            throw AtprotoVerificationError(
                .malformedData, message: "\(uri.rawValue) does not name a record (collection and rkey)")
        }
        let identity = try await Self.identity(of: uri.authority, resolver: resolver, fresh: false)
        let path = collection.rawValue + "/" + rkey.rawValue
        let car = try await fetchRecordCAR(
            did: identity.did, collection: collection.rawValue, rkey: rkey.rawValue, from: identity)
        let first = Self.check(car, identity: identity, path: path, limits: limits)
        guard case .failure(let error) = first, error.code == .badSignature else { return try first.get() }
        // The key may have rotated since the identity was cached: resolve once more, check once more.
        let fresh = try await Self.identity(of: ATIdentifier(identity.did), resolver: resolver, fresh: true)
        return try Self.check(car, identity: fresh, path: path, limits: limits).get()
    }

    private static func check(_ car: Data, identity: AtprotoIdentity, path: String, limits: AtprotoVerificationLimits)
        -> Result<RecordProof, AtprotoVerificationError>
    {
        do throws(AtprotoVerificationError) {
            let key = try key(of: identity)
            return .success(try RecordProof.verify(car: car, did: identity.did, path: path, key: key, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    private func fetchRecordCAR(did: DID, collection: String, rkey: String, from identity: AtprotoIdentity) async throws
        -> Data
    {
        let pds: URL
        do {
            pds = try identity.requirePDS()
        } catch {
            throw AtprotoVerificationError(.identityUnavailable, message: "\(error)")
        }
        let request = XRPCRequest(
            method: .get, nsid: "com.atproto.sync.getRecord",
            queryItems: [
                URLQueryItem(name: "did", value: did.rawValue), URLQueryItem(name: "collection", value: collection),
                URLQueryItem(name: "rkey", value: rkey),
            ],
            headers: ["Accept": "application/vnd.ipld.car"], serviceURL: pds)
        let response = try await agent.send(request)
        guard response.isSuccess else { throw XRPCError.fromResponse(response, nsid: request.nsid) }
        return response.body
    }

    static func identity(of identifier: ATIdentifier, resolver: any IdentityResolver, fresh: Bool) async throws
        -> AtprotoIdentity
    {
        if fresh, let did = identifier.did { await resolver.invalidate(did: did) }
        do {
            return try await resolver.resolveIdentity(identifier)
        } catch {
            throw AtprotoVerificationError(.identityUnavailable, message: "\(error)")
        }
    }

    static func key(of identity: AtprotoIdentity) throws(AtprotoVerificationError) -> AtprotoPublicKey {
        do {
            return try identity.signingKey()
        } catch {
            throw AtprotoVerificationError(.unsupportedKey, message: "\(error)")
        }
    }

    private func canonical(_ uri: ATURI, did: DID) -> ATURI {
        guard let collection = uri.collection, let rkey = uri.rkey else { return uri }
        return ATURI(authority: ATIdentifier(did), collection: collection, rkey: rkey)
    }
}
