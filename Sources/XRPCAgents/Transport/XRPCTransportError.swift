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
public struct XRPCTransportError: AtprotoError, Hashable {
    /// Why no response arrived. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The call took longer than its timeout.
        public static let timedOut: Code = "timedOut"
        /// The calling task was cancelled.
        public static let cancelled: Code = "cancelled"
        /// No connection could be made: unknown host, refused, no network, TLS failure. The server
        /// never saw the request.
        public static let cannotConnect: Code = "cannotConnect"
        /// The connection broke before a complete response; the server may have acted on the request.
        public static let connectionLost: Code = "connectionLost"
        /// Anything else.
        public static let other: Code = "other"
    }

    /// Why no response arrived.
    public var code: Code
    /// The endpoint's NSID.
    public var nsid: NSID
    /// The service the call went to (scheme, host and port), or `nil` when unknown.
    public var service: String?
    /// What the system reported, for people to read.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, nsid: NSID, service: String? = nil, message: String) {
        self.code = code
        self.nsid = nsid
        self.service = service
        self.message = message
    }

    public var description: String {
        let place = service.map { " on \($0)" } ?? ""
        let what: String
        switch code {
        case .timedOut: what = "timed out"
        case .cancelled: what = "was cancelled"
        case .cannotConnect: what = "could not connect"
        case .connectionLost: what = "lost its connection"
        default: what = "failed without a response"
        }
        return "\(nsid)\(place) \(what): \(message)"
    }

    /// Maps a URLSession error; `service` names where the call went.
    init(_ error: any Error, nsid: NSID, service: String?) {
        guard let urlError = error as? URLError else {
            let code: Code = error is CancellationError ? .cancelled : .other
            self.init(code, nsid: nsid, service: service, message: "\(error)")
            return
        }
        let code: Code
        switch urlError.code {
        case .timedOut: code = .timedOut
        case .cancelled: code = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .internationalRoamingOff, .dataNotAllowed, .callIsActive, .unsupportedURL, .badURL:
            code = .cannotConnect
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            code = .connectionLost
        default: code = .other
        }
        let reported = urlError.userInfo[NSLocalizedDescriptionKey] as? String
        let text = reported.map { "\($0) (URLError \(urlError.code.rawValue))" } ?? "URLError \(urlError.code.rawValue)"
        self.init(code, nsid: nsid, service: service, message: text)
    }
}
