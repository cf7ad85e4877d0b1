import AtprotoData
import Foundation
import XRPCCore
import XRPCWebSockets

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An XRPC call that got no response: the connection failed, timed out or was cancelled.
///
/// A server that answered, even with an error status, gives an `XRPCError` instead.
public struct XRPCTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no response arrived. An open set: new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The call took longer than its timeout.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The calling task was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// No connection could be made: unknown host, refused, no network, TLS failure. The server
        /// never saw the request.
        public static let cannotConnect = Kind(rawValue: "cannotConnect")
        /// The connection broke before a complete response; the server may have acted on the request.
        public static let connectionLost = Kind(rawValue: "connectionLost")
        /// Anything else.
        public static let other = Kind(rawValue: "other")
    }

    /// Why no response arrived.
    public var kind: Kind
    /// The endpoint's NSID.
    public var nsid: NSID
    /// The service the call went to (scheme, host and port), or `nil` when unknown.
    public var service: String?
    /// What the system reported, for people to read.
    public var underlyingDescription: String

    /// Creates an error.
    public init(kind: Kind, nsid: NSID, service: String? = nil, underlyingDescription: String) {
        self.kind = kind
        self.nsid = nsid
        self.service = service
        self.underlyingDescription = underlyingDescription
    }

    public var description: String {
        let place = service.map { " on \($0)" } ?? ""
        let what: String
        switch kind {
        case .timedOut: what = "timed out"
        case .cancelled: what = "was cancelled"
        case .cannotConnect: what = "could not connect"
        case .connectionLost: what = "lost its connection"
        default: what = "failed without a response"
        }
        return "\(nsid)\(place) \(what): \(underlyingDescription)"
    }

    /// Maps a URLSession error; `service` names where the call went.
    init(_ error: any Error, nsid: NSID, service: String?) {
        guard let urlError = error as? URLError else {
            let kind: Kind = error is CancellationError ? .cancelled : .other
            self.init(kind: kind, nsid: nsid, service: service, underlyingDescription: "\(error)")
            return
        }
        let kind: Kind
        switch urlError.code {
        case .timedOut: kind = .timedOut
        case .cancelled: kind = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .internationalRoamingOff, .dataNotAllowed, .callIsActive, .unsupportedURL, .badURL:
            kind = .cannotConnect
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            kind = .connectionLost
        default: kind = .other
        }
        let reported = urlError.userInfo[NSLocalizedDescriptionKey] as? String
        let text = reported.map { "\($0) (URLError \(urlError.code.rawValue))" } ?? "URLError \(urlError.code.rawValue)"
        self.init(kind: kind, nsid: nsid, service: service, underlyingDescription: text)
    }
}
