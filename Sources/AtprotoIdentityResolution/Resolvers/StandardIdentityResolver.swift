import AtprotoSyntax
import Foundation
import HTTPTransport

/// Resolves identities on the device: handles through DNS and HTTPS, DIDs through a PLC directory and
/// `did:web`, the handle checked both ways.
///
/// ```swift
/// let resolver = try StandardIdentityResolver()            // the system's nameservers, plc.directory
/// let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: "alice.example.com"))
/// ```
///
/// Every part can be swapped: pass any ``HandleResolver`` and ``DIDResolver``.
public struct StandardIdentityResolver: IdentityResolver {
    /// Resolves handles.
    public var handles: any HandleResolver
    /// Resolves DIDs.
    public var dids: any DIDResolver

    /// Creates a resolver from its two halves.
    public init(handles: any HandleResolver, dids: any DIDResolver) {
        self.handles = handles
        self.dids = dids
    }

    /// Creates the standard resolver.
    ///
    /// - Parameters:
    ///   - dns: Where TXT records come from; `nil` reads the nameservers of `/etc/resolv.conf`.
    ///   - plcDirectory: The PLC directory; the public one by default.
    ///   - transport: The HTTP transport documents are fetched through (`URLSessionTransport` by default).
    ///   - limits: Timeouts and size limits for every fetch.
    ///   - handlePolicy: How DNS and HTTPS combine for handles.
    /// - Throws: ``DNSError`` when `dns` is `nil` and the system lists no nameserver.
    public init(
        dns: (any DNSTXTLookup)? = nil,
        plcDirectory: URL? = PLCDirectoryResolver.publicDirectory,
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits(),
        handlePolicy: StandardHandleResolver.Policy = .race
    ) throws {
        try self.init(
            dns: dns, plcDirectory: plcDirectory, transport: transport, limits: limits, handlePolicy: handlePolicy,
            hostOverrides: HostOverrides())
    }

    /// Creates the standard resolver asking `nameservers` for TXT records: for devices with no
    /// `/etc/resolv.conf` (iOS), and for a local DNS server in tests.
    ///
    /// ```swift
    /// let resolver = StandardIdentityResolver(nameservers: [DNSNameserver(host: "9.9.9.9")])
    /// ```
    ///
    /// - Parameters:
    ///   - nameservers: The DNS servers asked in turn over UDP (TCP for a truncated answer).
    ///   - dnsLimits: How long each query waits and how many rounds are asked (two seconds, two rounds
    ///     by default).
    ///   - plcDirectory: The PLC directory; the public one by default.
    ///   - transport: The HTTP transport documents are fetched through (`URLSessionTransport` by default).
    ///   - limits: Timeouts and size limits for every fetch.
    ///   - handlePolicy: How DNS and HTTPS combine for handles.
    public init(
        nameservers: [DNSNameserver],
        dnsLimits: DNSQueryLimits = DNSQueryLimits(),
        plcDirectory: URL? = PLCDirectoryResolver.publicDirectory,
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits(),
        handlePolicy: StandardHandleResolver.Policy = .race
    ) {
        self.init(
            lookup: UDPDNSClient(nameservers: nameservers, limits: dnsLimits), plcDirectory: plcDirectory,
            transport: transport,
            limits: limits, handlePolicy: handlePolicy, hostOverrides: HostOverrides())
    }

    /// The standard resolver fetching the hosts of `hostOverrides` from other base URLs (the package's
    /// tests and benchmarks).
    package init(
        dns: (any DNSTXTLookup)? = nil,
        plcDirectory: URL? = PLCDirectoryResolver.publicDirectory,
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits(),
        handlePolicy: StandardHandleResolver.Policy = .race,
        hostOverrides: HostOverrides
    ) throws {
        self.init(
            lookup: try dns ?? UDPDNSClient.system(), plcDirectory: plcDirectory, transport: transport, limits: limits,
            handlePolicy: handlePolicy, hostOverrides: hostOverrides)
    }

    private init(
        lookup: any DNSTXTLookup, plcDirectory: URL?, transport: any HTTPTransport, limits: IdentityFetchLimits,
        handlePolicy: StandardHandleResolver.Policy, hostOverrides: HostOverrides
    ) {
        let directory = plcDirectory ?? URL(fileURLWithPath: "/")
        self.handles = StandardHandleResolver(
            dns: DNSHandleResolver(lookup: lookup),
            wellKnown: WellKnownHandleResolver(transport: transport, limits: limits, hostOverrides: hostOverrides),
            policy: handlePolicy)
        self.dids = StandardDIDResolver(
            plc: PLCDirectoryResolver(directory: directory, transport: transport, limits: limits),
            web: WebDIDResolver(transport: transport, limits: limits, hostOverrides: hostOverrides))
    }

    /// Resolves `handle` through ``handles``.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        try await handles.resolveHandle(handle)
    }

    /// Resolves `did` through ``dids``.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        try await dids.resolveDID(did)
    }

    /// Nothing to forget: this resolver keeps no answers (wrap it in a ``CachingIdentityResolver`` to
    /// keep them), so every resolution asks again.
    public func invalidate(did: DID) async {}
}
