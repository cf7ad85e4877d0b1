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
    ///   - hostOverrides: Hosts fetched from another base URL (tests, development).
    /// - Throws: ``DNSError`` when `dns` is `nil` and the system lists no nameserver.
    public init(
        dns: (any DNSTXTLookup)? = nil,
        plcDirectory: URL? = PLCDirectoryResolver.publicDirectory,
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits(),
        handlePolicy: StandardHandleResolver.Policy = .race,
        hostOverrides: HostOverrides = HostOverrides()
    ) throws {
        let lookup = try dns ?? UDPDNSClient.system()
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
    public func resolveHandle(_ handle: Handle) async throws(IdentityError) -> DID {
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
