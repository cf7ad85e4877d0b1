import AtprotoCrypto
import AtprotoData
import AtprotoIdentityResolution
import AtprotoSyntax
import AtprotoVerification
import Foundation
import XRPCAgents
import XRPCCore

/// Resolves lexicons over atproto: NSID -> its authority's `_lexicon` DNS TXT record -> DID -> the DID
/// document's PDS -> the `com.atproto.lexicon.schema` record whose key is the NSID, fetched with
/// `com.atproto.sync.getRecord` and proved against the account's signed commit.
///
/// ```swift
/// let resolver = try LexiconResolver(identityResolver: StandardIdentityResolver())
/// let lexicon = try await resolver.resolve("xyz.statusphere.status")
/// print(lexicon.uri, lexicon.cid, lexicon.isVerified)
/// try lexicon.fileData.write(to: url)
/// ```
///
/// A PDS whose `getRecord` proof is incomplete (some implementations build it from the wrong key) is not
/// trusted less and not trusted more: the whole repository is fetched (`com.atproto.sync.getRepo`),
/// proved, and the record read from it.
public struct LexiconResolver: Sendable {
    /// Whether records are proved before they are used.
    public enum Verification: Sendable, Hashable {
        /// Every record is proved: signed commit by the authority's key, MST path, hash (the default).
        case required
        /// Records are read with `com.atproto.repo.getRecord` and trusted as served. Only for a PDS you
        /// trust, or to look at a lexicon whose repository does not prove.
        case skipped
    }

    /// Resolves the authorities' DIDs to documents (PDS and key).
    public var identityResolver: any IdentityResolver
    /// Where `_lexicon` TXT records come from.
    public var dns: any DNSTXTLookup
    /// Sends the calls to each PDS (the request names the PDS; the agent's own service is not used).
    public var agent: any XRPCAgent
    /// Whether records are proved.
    public var verification: Verification
    /// Bounds on what a PDS may send.
    public var limits: AtprotoVerificationLimits

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - identityResolver: Resolves DIDs (a `CachingIdentityResolver` when you resolve many lexicons).
    ///   - dns: Where TXT records come from; `nil` reads the nameservers of `/etc/resolv.conf`.
    ///   - agent: Sends the calls to each PDS; a plain `URLSessionAgent` by default.
    ///   - verification: `.required` (the default) or `.skipped`.
    ///   - limits: Bounds on the CARs a PDS may send.
    /// - Throws: `DNSError` when `dns` is `nil` and the system lists no nameserver.
    public init(
        identityResolver: any IdentityResolver,
        dns: (any DNSTXTLookup)? = nil,
        agent: (any XRPCAgent)? = nil,
        verification: Verification = .required,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    ) throws {
        self.init(
            identityResolver: identityResolver, lookup: try dns ?? UDPDNSClient.system(), agent: agent,
            verification: verification, limits: limits)
    }

    /// Creates a resolver asking `nameservers` for `_lexicon` TXT records: for devices with no
    /// `/etc/resolv.conf`, and for a local DNS server in tests.
    ///
    /// - Parameters:
    ///   - identityResolver: Resolves DIDs (a `CachingIdentityResolver` when you resolve many lexicons).
    ///   - nameservers: The DNS servers asked in turn over UDP (TCP for a truncated answer).
    ///   - dnsLimits: How long each query waits and how many rounds are asked (two seconds, two rounds
    ///     by default).
    ///   - agent: Sends the calls to each PDS; a plain `URLSessionAgent` by default.
    ///   - verification: `.required` (the default) or `.skipped`.
    ///   - limits: Bounds on the CARs a PDS may send.
    public init(
        identityResolver: any IdentityResolver,
        nameservers: [DNSNameserver],
        dnsLimits: DNSQueryLimits = DNSQueryLimits(),
        agent: (any XRPCAgent)? = nil,
        verification: Verification = .required,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits()
    ) {
        self.init(
            identityResolver: identityResolver, lookup: UDPDNSClient(nameservers: nameservers, limits: dnsLimits),
            agent: agent,
            verification: verification, limits: limits)
    }

    private init(
        identityResolver: any IdentityResolver, lookup: any DNSTXTLookup, agent: (any XRPCAgent)?,
        verification: Verification, limits: AtprotoVerificationLimits
    ) {
        self.identityResolver = identityResolver
        self.dns = lookup
        self.agent = agent ?? URLSessionAgent(serviceURL: Self.placeholderService)
        self.verification = verification
        self.limits = limits
    }

    /// The NSID collection of lexicon schema records.
    public static let schemaCollection = "com.atproto.lexicon.schema"
    private static let placeholderService = URL(fileURLWithPath: "/")

    /// The DID that publishes the lexicons of `nsid`'s authority (or of a pattern's, `app.bsky.feed.*`).
    ///
    /// A `String`, not an `NSID`, because it also takes a pattern; pass an NSID's `rawValue`.
    ///
    /// - Throws: ``LexiconResolutionError``: `invalidNSID`, `noAuthority`, `ambiguousAuthority`, `dnsFailed`.
    public func authority(of nsid: String) async throws(LexiconResolutionError) -> DID {
        let authority = try LexiconAuthority(of: nsid)
        let records: [String]
        do {
            records = try await dns.txtRecords(for: authority.dnsName)
        } catch {
            throw LexiconResolutionError(.dnsFailed, nsid: nsid, message: "TXT \(authority.dnsName): \(error)")
        }
        let dids = Set(
            records.compactMap { record -> String? in
                guard record.hasPrefix("did=") else { return nil }
                return String(record.dropFirst(4))
            })
        guard let first = dids.first else {
            throw LexiconResolutionError(
                .noAuthority, nsid: nsid,
                message: "\(authority.dnsName) has no TXT record \"did=...\" (no one publishes "
                    + "lexicons for \(authority.domain))")
        }
        guard dids.count == 1 else {
            throw LexiconResolutionError(
                .ambiguousAuthority, nsid: nsid,
                message: "\(authority.dnsName) names several DIDs: \(dids.sorted().joined(separator: ", "))")
        }
        let did = DID(rawValue: first)
        guard did.isValid else {
            throw LexiconResolutionError(
                .noAuthority, nsid: nsid, message: "\(authority.dnsName) names \"\(first)\", not a DID")
        }
        return did
    }

    /// Resolves the current version of the lexicon `nsid`; see the type's description.
    ///
    /// - Throws: ``LexiconResolutionError`` naming the step that failed.
    public func resolve(_ nsid: NSID) async throws(LexiconResolutionError) -> ResolvedLexicon {
        let did = try await authority(of: nsid.rawValue)
        return try await fetch(nsid, from: did)
    }

    /// Fetches (and proves) the schema record of `nsid` from the repository of `did`, without asking DNS:
    /// for re-installing a lexicon pinned by its record URI.
    ///
    /// - Throws: ``LexiconResolutionError`` naming the step that failed.
    public func fetch(_ nsid: NSID, from did: DID) async throws(LexiconResolutionError) -> ResolvedLexicon {
        try await fetchRecord(nsid.rawValue, from: did)
    }

    private func fetchRecord(_ nsid: String, from did: DID) async throws(LexiconResolutionError) -> ResolvedLexicon {
        let uri = "at://\(did.rawValue)/\(Self.schemaCollection)/\(nsid)"
        guard verification == .required else {
            let (cid, value) = try await unverifiedRecord(nsid, did: did, pds: try await pds(of: did, nsid: nsid).pds)
            return try lexicon(nsid, uri: uri, cid: cid, value: value, revision: nil)
        }
        // The verification module's own record proof: identity, getRecord, signature (resolved again
        // once when it fails: a rotated key), MST path and hash.
        let proof: RecordProof
        do {
            proof = try await XRPCClient(agent: agent).proveRecord(
                at: ATURI(rawValue: uri), resolver: identityResolver, limits: limits)
        } catch let error as AtprotoVerificationError where error.code == .brokenProof {
            let (pds, identity) = try await pds(of: did, nsid: nsid)
            let key: AtprotoPublicKey
            do {
                key = try identity.signingKey()
            } catch {
                throw LexiconResolutionError(.identityUnavailable, nsid: nsid, message: "\(did.rawValue): \(error)")
            }
            return try await provedFromRepository(nsid, did: did, pds: pds, key: key, uri: uri)
        } catch let error as AtprotoVerificationError where error.code == .identityUnavailable {
            throw LexiconResolutionError(.identityUnavailable, nsid: nsid, message: "\(uri): \(error)")
        } catch let error as AtprotoVerificationError {
            throw LexiconResolutionError(.verificationFailed, nsid: nsid, message: "\(uri): \(error)")
        } catch let error as XRPCError where error.name == "RecordNotFound" {
            throw LexiconResolutionError(.notPublished, nsid: nsid, message: "\(uri): the PDS has no such record")
        } catch {
            throw LexiconResolutionError(.serverError, nsid: nsid, message: "\(uri): \(error)")
        }
        guard let (cid, value) = proof.record else {
            throw LexiconResolutionError(
                .notPublished, nsid: nsid, message: "\(uri) does not exist (proved absent at rev \(proof.commit.rev))")
        }
        return try lexicon(nsid, uri: uri, cid: cid, value: value.json, revision: proof.commit.rev)
    }

    /// The NSIDs of the schema records in `did`'s repository whose key starts with `prefix` (`app.bsky.`).
    ///
    /// - Throws: ``LexiconResolutionError`` (`serverError`, `identityUnavailable`).
    public func publishedNSIDs(of did: DID, prefix: String) async throws(LexiconResolutionError) -> [NSID] {
        let pds = try await pds(of: did, nsid: prefix + "*").pds
        var found: Set<String> = []
        var cursor: String?
        for _ in 0..<10_000 {
            var query = ["repo": did.rawValue, "collection": Self.schemaCollection, "limit": "100"]
            query["cursor"] = cursor
            let body = try await get("com.atproto.repo.listRecords", nsid: prefix + "*", pds: pds, query, car: false)
            guard let page = try? JSONValue.parse(body).objectValue, case .array(let records)? = page["records"] else {
                throw LexiconResolutionError(
                    .serverError, nsid: prefix + "*", message: "listRecords answered no records array")
            }
            for record in records {
                guard let uri = record.objectValue?["uri"]?.stringValue, let rkey = ATURI(rawValue: uri).rkey else {
                    continue
                }
                if rkey.rawValue.hasPrefix(prefix) { found.insert(rkey.rawValue) }
            }
            // The last page: no records, no cursor, or the same cursor again (a server that repeats it).
            let next = page["cursor"]?.stringValue
            if records.isEmpty || next == nil || next == cursor { break }
            cursor = next
        }
        return found.sorted().map { NSID(rawValue: $0) }
    }

    // MARK: - Steps

    /// The PDS of `did`, with its identity.
    private func pds(of did: DID, nsid: String) async throws(LexiconResolutionError) -> (
        pds: URL, identity: AtprotoIdentity
    ) {
        do {
            let identity = try await identityResolver.resolveIdentity(ATIdentifier(did))
            return (try identity.requirePDS(), identity)
        } catch {
            throw LexiconResolutionError(.identityUnavailable, nsid: nsid, message: "\(did.rawValue): \(error)")
        }
    }

    private func provedFromRepository(_ nsid: String, did: DID, pds: URL, key: AtprotoPublicKey, uri: String)
        async throws(LexiconResolutionError) -> ResolvedLexicon
    {
        let car = try await get("com.atproto.sync.getRepo", nsid: nsid, pds: pds, ["did": did.rawValue], car: true)
        do {
            let repository = try VerifiedRepository(car: car, did: did, key: key, limits: limits)
            guard let (cid, value) = try repository.record(atPath: Self.schemaCollection + "/" + nsid) else {
                throw LexiconResolutionError(
                    .notPublished, nsid: nsid,
                    message: "\(uri) does not exist (its repository at rev \(repository.commit.rev))")
            }
            return try lexicon(nsid, uri: uri, cid: cid, value: value.json, revision: repository.commit.rev)
        } catch let error as LexiconResolutionError {
            throw error
        } catch {
            throw LexiconResolutionError(
                .verificationFailed, nsid: nsid, message: "\(uri) (whole repository): \(error)")
        }
    }

    private func unverifiedRecord(_ nsid: String, did: DID, pds: URL) async throws(LexiconResolutionError)
        -> (CID, JSONValue)
    {
        let body = try await get(
            "com.atproto.repo.getRecord", nsid: nsid, pds: pds,
            ["repo": did.rawValue, "collection": Self.schemaCollection, "rkey": nsid], car: false)
        guard let answer = try? JSONValue.parse(body).objectValue, let value = answer["value"],
            let cidText = answer["cid"]?.stringValue, let cid = try? CID(cidText)
        else {
            throw LexiconResolutionError(
                .serverError, nsid: nsid, message: "getRecord answered without a value and a CID")
        }
        return (cid, value)
    }

    private func lexicon(_ nsid: String, uri: String, cid: CID, value: JSONValue, revision: String?)
        throws(LexiconResolutionError) -> ResolvedLexicon
    {
        guard case .object(var fields) = value else {
            throw LexiconResolutionError(.invalidRecord, nsid: nsid, message: "\(uri) is not an object")
        }
        if let type = fields.removeValue(forKey: "$type"), type.stringValue != Self.schemaCollection {
            throw LexiconResolutionError(
                .invalidRecord, nsid: nsid,
                message: "\(uri) has $type \(type.serializedString()), not \(Self.schemaCollection)")
        }
        guard fields["id"]?.stringValue == nsid else {
            let id = fields["id"].map { $0.serializedString() } ?? "none"
            throw LexiconResolutionError(
                .invalidRecord, nsid: nsid, message: "\(uri) holds a lexicon whose id is \(id)")
        }
        return ResolvedLexicon(
            nsid: NSID(rawValue: nsid), uri: ATURI(rawValue: uri), cid: cid, document: .object(fields),
            provedAtRevision: revision)
    }

    private func get(_ method: NSID, nsid: String, pds: URL, _ query: [String: String], car: Bool)
        async throws(LexiconResolutionError) -> Data
    {
        let request = XRPCRequest(
            method: .get, nsid: method,
            queryItems: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) },
            headers: car ? ["Accept": "application/vnd.ipld.car"] : [:], serviceURL: pds)
        let response: XRPCResponse
        do {
            response = try await agent.send(request)
        } catch {
            throw LexiconResolutionError(
                .serverError, nsid: nsid, message: "\(method) at \(pds.absoluteString): \(error)")
        }
        guard response.isSuccess else {
            let error = XRPCError.fromResponse(response, nsid: method)
            if error.name == "RecordNotFound" {
                throw LexiconResolutionError(
                    .notPublished, nsid: nsid, message: "\(pds.absoluteString) has no record for it")
            }
            throw LexiconResolutionError(
                .serverError, nsid: nsid, message: "\(method) at \(pds.absoluteString): \(error)")
        }
        return response.body
    }
}
