import AtprotoSyntax
import XRPCCore

/// An error a server answers with: the status, and the `{"error", "message"}` body the XRPC spec
/// describes.
///
/// ``code`` is the wire name of the error (`InvalidRequest`, `UnknownFeed`): an open set, with a
/// `static let` for each name the spec gives a meaning. A handler throws one to answer with it; a
/// declared error of its endpoint comes through ``declared(_:status:message:)``, so its name is the
/// lexicon's. Anything else a handler throws is answered `500 InternalServerError` without its text,
/// which goes to the router's log instead.
public struct XRPCServerError: AtprotoError, Hashable {
    /// The name in the body's `error` field. An open set: a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The wire name.
        public let rawValue: String
        /// Wraps a wire name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// 400: parameters, input or method that do not fit the endpoint.
        public static let invalidRequest: Code = "InvalidRequest"
        /// 401: no credentials, or credentials of the wrong kind.
        public static let authenticationRequired: Code = "AuthenticationRequired"
        /// 403: the caller is known but may not call this.
        public static let forbidden: Code = "Forbidden"
        /// 404: the path is not an XRPC method path (`/xrpc/<nsid>`).
        public static let notFound: Code = "NotFound"
        /// 413: the body is larger than the server takes.
        public static let payloadTooLarge: Code = "PayloadTooLarge"
        /// 429: too many requests.
        public static let rateLimitExceeded: Code = "RateLimitExceeded"
        /// 500: the handler failed; the body says no more than that.
        public static let internalServerError: Code = "InternalServerError"
        /// 501: no handler for this NSID.
        public static let methodNotImplemented: Code = "MethodNotImplemented"
        /// 502: a service the handler depends on answered badly.
        public static let upstreamFailure: Code = "UpstreamFailure"
        /// 503: the server cannot take the request now.
        public static let notEnoughResources: Code = "NotEnoughResources"
        /// 504: a service the handler depends on did not answer in time.
        public static let upstreamTimeout: Code = "UpstreamTimeout"

        /// 401: the service-auth token is not a well-formed JWT, or its header or claims are of the wrong shape.
        public static let badJwt: Code = "BadJwt"
        /// 401: the token's `exp` has passed.
        public static let jwtExpired: Code = "JwtExpired"
        /// 401: the token's `aud` is not this service.
        public static let badJwtAudience: Code = "BadJwtAudience"
        /// 401: the token's `lxm` is missing or names another method.
        public static let badJwtLexiconMethod: Code = "BadJwtLexiconMethod"
        /// 401: the signature is not the issuer's (after one fresh look at its DID document).
        public static let badJwtSignature: Code = "BadJwtSignature"
        /// 401: a token with this `jti` was already accepted.
        public static let jwtReplayed: Code = "JwtReplayed"
    }

    /// The wire name.
    public var code: Code
    /// The HTTP status.
    public var status: Int
    /// The body's `message`: what is wrong and where (the parameter, the field path). Never a token.
    public var message: String
    /// Extra response header fields (`Retry-After`, `WWW-Authenticate`, `Allow`), in order.
    public var headers: HTTPHeaderFields

    /// Creates an error; without a status, the spec's status for the code (400 for names it does
    /// not list, as for an endpoint's declared errors).
    public init(_ code: Code, status: Int? = nil, headers: HTTPHeaderFields = [:], message: String) {
        self.code = code
        self.status = status ?? Self.defaultStatus(of: code)
        self.message = message
        self.headers = headers
    }

    /// One of an endpoint's declared errors (`AppBskyFeedGetFeedSkeleton.Error.unknownFeed`), by its
    /// lexicon name.
    public static func declared(_ name: some XRPCErrorName, status: Int = 400, message: String) -> XRPCServerError {
        XRPCServerError(Code(rawValue: name.name), status: status, message: message)
    }

    /// The status the spec gives each of its names; 400 for any other.
    public static func defaultStatus(of code: Code) -> Int {
        switch code {
        case .authenticationRequired, .badJwt, .jwtExpired, .badJwtAudience, .badJwtLexiconMethod, .badJwtSignature,
            .jwtReplayed:
            return 401
        case .forbidden: return 403
        case .notFound: return 404
        case .payloadTooLarge: return 413
        case .rateLimitExceeded: return 429
        case .internalServerError: return 500
        case .methodNotImplemented: return 501
        case .upstreamFailure: return 502
        case .notEnoughResources: return 503
        case .upstreamTimeout: return 504
        default: return 400
        }
    }

    public var description: String { "\(status) \(code.rawValue): \(message)" }
}
