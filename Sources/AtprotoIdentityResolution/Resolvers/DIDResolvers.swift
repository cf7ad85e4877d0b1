import AtprotoSyntax
import Foundation
import HTTPTransport

/// Resolves `did:plc` DIDs from a PLC directory: `GET <directory>/<did>`.
public struct PLCDirectoryResolver: DIDResolver {
    /// The public PLC directory, `https://plc.directory`.
    public static let publicDirectory = URL(string: "https://plc.directory")

    /// The directory's base URL.
    public var directory: URL
    /// The HTTP transport documents are fetched through; the resolver follows same-host redirects.
    public var transport: any HTTPTransport
    /// Timeouts and size limits.
    public var limits: IdentityFetchLimits

    /// Creates a resolver for `directory`.
    public init(
        directory: URL, transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = .init()
    ) {
        self.directory = directory
        self.transport = transport
        self.limits = limits
    }

    /// Resolves a `did:plc` DID; see ``DIDResolver/resolveDID(_:)``.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        try DIDSyntax.check(did, method: "plc")
        var base = directory.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/" + did.rawValue) else {
            throw IdentityError(.invalidIdentifier, identifier: did.rawValue, message: "no URL can be made on \(base)")
        }
        let response = try await IdentityFetch(transport: transport, limits: limits).get(
            url, accept: "application/did+ld+json, application/json", maximumSize: limits.maximumDocumentSize,
            identifier: did.rawValue)
        return try DocumentAnswer.read(response, url: url, did: did)
    }
}

/// Resolves `did:web` DIDs: `https://<host>/.well-known/did.json`.
///
/// atproto allows host names only (no paths). `did:web:localhost%3A<port>` is fetched over plain
/// `http`, for development, as the spec allows; every other host over `https`.
public struct WebDIDResolver: DIDResolver {
    /// The HTTP transport documents are fetched through; the resolver follows same-host redirects.
    public var transport: any HTTPTransport
    /// Timeouts and size limits.
    public var limits: IdentityFetchLimits
    /// Hosts fetched from another base URL (the package's tests and benchmarks).
    package var hostOverrides: HostOverrides

    /// Creates a resolver.
    public init(
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = .init()
    ) {
        self.init(transport: transport, limits: limits, hostOverrides: HostOverrides())
    }

    /// Creates a resolver that fetches the hosts of `hostOverrides` from other base URLs.
    package init(
        transport: any HTTPTransport = URLSessionTransport(resourceTimeout: .seconds(30)),
        limits: IdentityFetchLimits = .init(),
        hostOverrides: HostOverrides
    ) {
        self.transport = transport
        self.limits = limits
        self.hostOverrides = hostOverrides
    }

    /// Resolves a `did:web` DID; see ``DIDResolver/resolveDID(_:)``.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        try DIDSyntax.check(did, method: "web")
        let (host, port) = try Self.hostAndPort(of: did)
        let scheme = host == "localhost" ? "http" : "https"
        let (target, hostHeader) = hostOverrides.url(
            host: host, path: "/.well-known/did.json", defaultScheme: scheme, port: port)
        guard let url = target else {
            throw IdentityError(.invalidIdentifier, identifier: did.rawValue, message: "no URL can be made for \(host)")
        }
        let response = try await IdentityFetch(transport: transport, limits: limits).get(
            url, accept: "application/did+ld+json, application/json", maximumSize: limits.maximumDocumentSize,
            identifier: did.rawValue, hostHeader: hostHeader.map { _ in port.map { "\(host):\($0)" } ?? host })
        return try DocumentAnswer.read(response, url: url, did: did)
    }

    /// The host (lower-cased) and port a `did:web` names: `%3A` separates a port; any other `:` is a
    /// path, which atproto does not allow; a port is allowed only for `localhost`.
    static func hostAndPort(of did: DID) throws(IdentityError) -> (String, Int?) {
        let identifier = did.methodSpecificIdentifier ?? ""
        guard !identifier.contains(":") else {
            throw IdentityError(
                .unsupportedDIDMethod, identifier: did.rawValue,
                message: "atproto allows did:web with a host name only, not a path")
        }
        let parts = identifier.replacingOccurrences(of: "%3a", with: "%3A").components(separatedBy: "%3A")
        let host = parts[0].lowercased()
        guard parts.count <= 2, !host.isEmpty, !host.contains("%"),
            host == "localhost" || ATHandle.syntaxError(in: host) == nil
        else {
            throw IdentityError(
                .invalidIdentifier, identifier: did.rawValue, message: "\"\(identifier)\" is not a host name")
        }
        guard parts.count == 2 else { return (host, nil) }
        guard host == "localhost", let port = Int(parts[1]), (1...65535).contains(port) else {
            throw IdentityError(
                .invalidIdentifier, identifier: did.rawValue,
                message: "a port is allowed only on localhost, and must be 1-65535")
        }
        return (host, port)
    }
}

/// Resolves a DID by its method: `did:plc` from a PLC directory, `did:web` over HTTPS.
public struct StandardDIDResolver: DIDResolver {
    /// The `did:plc` resolver.
    public var plc: PLCDirectoryResolver
    /// The `did:web` resolver.
    public var web: WebDIDResolver

    /// Creates a resolver from its methods.
    public init(plc: PLCDirectoryResolver, web: WebDIDResolver) {
        self.plc = plc
        self.web = web
    }

    /// Resolves `did` by its method; others are ``IdentityError/Code/unsupportedDIDMethod``.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        switch did.method {
        case "plc": return try await plc.resolveDID(did)
        case "web": return try await web.resolveDID(did)
        default: try DIDSyntax.check(did, method: "plc or web")
        }
        throw IdentityError(.unsupportedDIDMethod, identifier: did.rawValue, message: "unreachable")
    }
}

enum DIDSyntax {
    static func check(_ did: DID, method: String) throws(IdentityError) {
        if let problem = DID.syntaxError(in: did.rawValue) {
            throw IdentityError(.invalidIdentifier, identifier: did.rawValue, message: "not a DID: \(problem)")
        }
        guard let actual = did.method, method.split(separator: " ").contains(Substring(actual)) else {
            throw IdentityError(
                .unsupportedDIDMethod, identifier: did.rawValue,
                message: "did:\(did.method ?? "?") is not supported here (atproto uses did:\(method))")
        }
    }
}

/// Reading a DID document answer: status, JSON, and the `id` check.
enum DocumentAnswer {
    static func read(_ response: HTTPTransportResponse, url: URL, did: DID) throws(IdentityError) -> DIDDocument {
        switch response.status {
        case 200: break
        case 404, 410:
            throw IdentityError(
                .didNotFound, identifier: did.rawValue,
                message:
                    "GET \(url.absoluteString): HTTP \(response.status)\(response.status == 410 ? " (tombstoned)" : "")"
            )
        default:
            throw IdentityError(
                .unexpectedStatus, identifier: did.rawValue,
                message: "GET \(url.absoluteString): HTTP \(response.status)")
        }
        let document: DIDDocument
        do {
            document = try DIDDocument(jsonData: response.body, maximumSize: Int.max)
        } catch {
            throw IdentityError(
                .malformedAnswer, identifier: did.rawValue, message: "GET \(url.absoluteString): \(error)")
        }
        guard document.id == did else {
            throw IdentityError(
                .documentMismatch, identifier: did.rawValue,
                message: "GET \(url.absoluteString) answered the document of \(document.id.rawValue)")
        }
        return document
    }
}
