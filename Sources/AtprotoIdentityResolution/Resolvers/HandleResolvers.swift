import AtprotoSyntax
import Foundation
import HTTPTransport

/// Resolves a handle through DNS: the TXT records of `_atproto.<handle>` that start with `did=`.
///
/// Several records naming different DIDs are an error (``IdentityError/Code/handleConflict``); none
/// is ``IdentityError/Code/handleNotFound``.
public struct DNSHandleResolver: HandleResolver {
    /// Where TXT records come from.
    public var lookup: any DNSTXTLookup

    /// Creates a resolver that asks `lookup`, the app's own.
    public init(lookup: any DNSTXTLookup) {
        self.lookup = lookup
    }

    /// Creates a resolver that asks `nameservers` in turn over UDP (TCP for a truncated answer), for
    /// `limits.attempts` rounds, each query waiting up to `limits.timeout` (two rounds of two seconds
    /// by default): for devices with no `/etc/resolv.conf`, and for a local DNS server in tests.
    ///
    /// ```swift
    /// let dns = DNSHandleResolver(nameservers: [DNSNameserver(host: "9.9.9.9")])
    /// ```
    public init(nameservers: [DNSNameserver], limits: DNSQueryLimits = DNSQueryLimits()) {
        self.lookup = UDPDNSClient(nameservers: nameservers, limits: limits)
    }

    /// Resolves `handle`; see ``HandleResolver/resolveHandle(_:)``.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        let name = "_atproto." + handle.normalized.rawValue
        let records: [String]
        do {
            records = try await lookup.txtRecords(for: name)
        } catch {
            if Task.isCancelled { throw IdentityError(.cancelled, identifier: handle.rawValue, message: "cancelled") }
            let kind: IdentityError.Code = (error as? DNSError)?.code == .timedOut ? .timedOut : .unreachable
            throw IdentityError(kind, identifier: handle.rawValue, message: "DNS TXT \(name): \(error)")
        }
        var dids: [String] = []
        for record in records where record.hasPrefix("did=") {
            let text = String(record.dropFirst(4))
            guard DID.syntaxError(in: text) == nil else { continue }
            if !dids.contains(text) { dids.append(text) }
        }
        guard let first = dids.first else {
            throw IdentityError(
                .handleNotFound, identifier: handle.rawValue, message: "DNS TXT \(name): no did= record")
        }
        guard dids.count == 1 else {
            throw IdentityError(
                .handleConflict, identifier: handle.rawValue,
                message: "DNS TXT \(name) names several DIDs: \(dids.joined(separator: ", "))")
        }
        return DID(rawValue: first)
    }
}

/// Resolves a handle over HTTPS: `https://<handle>/.well-known/atproto-did`, whose body is the DID.
public struct WellKnownHandleResolver: HandleResolver {
    /// The HTTP transport documents are fetched through; the resolver follows same-host redirects.
    public var transport: any HTTPTransport
    /// Timeouts and size limits.
    public var limits: IdentityFetchLimits
    /// Hosts fetched from another base URL (the package's tests and benchmarks).
    package var hostOverrides: HostOverrides

    /// Creates a resolver.
    public init(
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits()
    ) {
        self.init(transport: transport, limits: limits, hostOverrides: HostOverrides())
    }

    /// Creates a resolver that fetches the hosts of `hostOverrides` from other base URLs.
    package init(
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = IdentityFetchLimits(),
        hostOverrides: HostOverrides
    ) {
        self.transport = transport
        self.limits = limits
        self.hostOverrides = hostOverrides
    }

    /// Resolves `handle`; see ``HandleResolver/resolveHandle(_:)``.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        let host = handle.normalized.rawValue
        let (target, hostHeader) = hostOverrides.url(host: host, path: "/.well-known/atproto-did")
        guard let url = target else {
            throw IdentityError(
                .invalidIdentifier, identifier: handle.rawValue, message: "no URL can be made for \(host)")
        }
        let fetch = IdentityFetch(transport: transport, limits: limits)
        let response = try await fetch.get(
            url, accept: "text/plain", maximumSize: limits.maximumHandleAnswerSize, identifier: handle.rawValue,
            hostHeader: hostHeader)
        guard response.status == 200 else {
            let kind: IdentityError.Code = response.status == 404 ? .handleNotFound : .unexpectedStatus
            throw IdentityError(
                kind, identifier: handle.rawValue, message: "GET \(url.absoluteString): HTTP \(response.status)")
        }
        let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = DID.syntaxError(in: text) {
            throw IdentityError(
                .malformedAnswer, identifier: handle.rawValue,
                message:
                    "GET \(url.absoluteString): the answer is not a DID (\(problem)): \(text.prefix(80).debugDescription)"
            )
        }
        return DID(rawValue: text)
    }
}
