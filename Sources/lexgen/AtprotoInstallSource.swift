import AtprotoIdentityResolution
import AtprotoLexiconResolution
import Foundation
import LexGenCommandLine
import LexGenInstall
import LexGenKit
import XRPCAgents
import XRPCCore

/// `lexgen install <nsid>` over atproto: a ``LexiconResolver`` seen as an install source.
struct AtprotoInstallSource: LexiconInstallSource {
    let resolver: LexiconResolver
    /// One DNS lookup per authority, however many of its lexicons an install takes.
    let authorities = AuthorityCache()
    var label: String { "atproto" }
    /// `--dns-server` and `--plc-directory` as given, recorded in the manifest for the commands errors
    /// suggest; `nil` for the defaults.
    let resolverOptions: LexiconManifest.ResolverOptions?

    init(_ options: LexGen.NetworkOptions) throws {
        var dns: (any DNSTXTLookup)?
        if !options.dnsServers.isEmpty {
            dns = UDPDNSClient(nameservers: try options.dnsServers.map(Self.nameserver))
        }
        var plc: URL? = PLCDirectoryResolver.publicDirectory
        if let directory = options.plcDirectory {
            guard let url = URL(string: directory), url.scheme == "https" || url.scheme == "http" else {
                throw InstallError(file: nil, message: "--plc-directory \(directory) is not an http(s) URL")
            }
            plc = url
        }
        let given = LexiconManifest.ResolverOptions(dnsServers: options.dnsServers, plcDirectory: options.plcDirectory)
        resolverOptions = given == LexiconManifest.ResolverOptions() ? nil : given
        let lookup = try dns ?? UDPDNSClient.system()
        let identities = CachingIdentityResolver(
            wrapping: try StandardIdentityResolver(dns: lookup, plcDirectory: plc))
        resolver = try LexiconResolver(
            identityResolver: identities, dns: lookup,
            verification: options.skipVerification ? .skipped : .required)
    }

    /// `host`, `host:port`, `[v6]:port`, where the host is an IP address or a host name (resolved now).
    static func nameserver(_ text: String) throws -> DNSNameserver {
        do {
            return try DNSNameserver(parsing: text)
        } catch {
            throw InstallError(file: nil, message: "--dns-server \(error.message)")
        }
    }

    func lexicon(_ nsid: String) async throws -> FetchedLexicon? {
        try await Self.reaching {
            fetched(
                try await resolver.fetch(
                    NSID(rawValue: nsid), from: try await authorities.did(of: nsid, resolver: resolver)))
        }
    }

    /// The DID `_lexicon.<authority>` names now (looked up once per authority and run).
    func currentPublisher(of nsid: String) async throws -> String? {
        try await Self.reaching { try await authorities.did(of: nsid, resolver: resolver).rawValue }
    }

    /// Runs a lookup; a failure to reach DNS, an authority's record, a DID's document or a PDS is
    /// ``LexiconSourceUnreachable`` (the install then points to `--from <folder>`).
    private static func reaching<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LexiconResolutionError
            where [.noAuthority, .dnsFailed, .identityUnavailable, .serverError].contains(error.code)
        {
            throw LexiconSourceUnreachable(error)
        }
    }

    func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? {
        guard let record = entry.record else { return try await lexicon(entry.nsid) }
        let authority = ATURI(rawValue: record.uri).authority
        guard let did = authority.did else {
            throw InstallError(file: nil, message: "\(entry.nsid): the pinned URI \(record.uri) does not name a DID")
        }
        return try await Self.reaching { fetched(try await resolver.fetch(NSID(rawValue: entry.nsid), from: did)) }
    }

    /// The schema records of the pattern's authority whose NSIDs match it and whose own authority is
    /// the same DID (a repository cannot publish lexicons for an authority that does not name it).
    func nsids(matching pattern: String) async throws -> [String] {
        let did = try await Self.reaching { try await resolver.authority(of: pattern) }
        let prefix = String(pattern.dropLast())
        var matching: [String] = []
        for nsid in try await resolver.publishedNSIDs(of: did, prefix: prefix).map({ $0.rawValue }) {
            guard let owner = try? await resolver.authority(of: nsid), owner == did else {
                FileHandle.standardError.write(
                    Data(
                        "lexgen install: warning: \(nsid) is published by \(did.rawValue), which its authority's _lexicon record does not name; skipped\n"
                            .utf8))
                continue
            }
            matching.append(nsid)
        }
        return matching
    }

    private func fetched(_ lexicon: ResolvedLexicon) -> FetchedLexicon {
        FetchedLexicon(
            nsid: lexicon.nsid.rawValue, path: FetchedLexicon.path(for: lexicon.nsid.rawValue), data: lexicon.fileData,
            record: LexiconManifest.RecordPin(uri: lexicon.uri.rawValue, cid: lexicon.cid.description))
    }
}

/// The DIDs of authorities already looked up during one run.
actor AuthorityCache {
    private var dids: [String: DID] = [:]

    func did(of nsid: String, resolver: LexiconResolver) async throws -> DID {
        let domain = try LexiconAuthority(of: nsid).domain
        if let did = dids[domain] { return did }
        let did = try await resolver.authority(of: nsid)
        dids[domain] = did
        return did
    }
}
