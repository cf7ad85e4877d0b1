import AtprotoData
import Foundation
import HTTPTransport
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
    /// The transport's error, when the call went through an `HTTPTransport` and it failed.
    public var underlying: HTTPTransportError?

    /// Creates an error.
    public init(
        _ code: Code, nsid: NSID, service: String? = nil, message: String, underlying: HTTPTransportError? = nil
    ) {
        self.code = code
        self.nsid = nsid
        self.service = service
        self.message = message
        self.underlying = underlying
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

    /// Maps a transport's error; `service` names where the call went.
    init(_ error: HTTPTransportError, nsid: NSID, service: String?) {
        let code: Code
        switch error.code {
        case .timedOut: code = .timedOut
        case .cancelled: code = .cancelled
        case .hostNotFound, .cannotConnect: code = .cannotConnect
        case .connectionLost: code = .connectionLost
        default: code = .other
        }
        self.init(code, nsid: nsid, service: service, message: error.message, underlying: error)
    }
}

extension XRPCTransportError: XRPCCallFailure {
    /// The same kind of failure, as a call's code; ``Code/other`` is the agent's own.
    package var callErrorCode: XRPCCallError.Code {
        switch code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotConnect: return .cannotConnect
        case .connectionLost: return .connectionLost
        default: return .agentFailed
        }
    }
}
