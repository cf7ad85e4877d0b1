import AtprotoSyntax
import Foundation

/// An XRPC call that failed on this side of the wire: its input could not be encoded (nothing was
/// sent), or the server's successful answer could not be read into the endpoint's output type.
///
/// A server's error answer is an ``XRPCError``, a call that got no answer an `XRPCTransportError`;
/// this one is neither, so a `catch let error as XRPCError` never sees a local failure.
public struct XRPCClientError: AtprotoError {
    /// What failed. An open set, matched with `==`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input could not be encoded into a request body; nothing was sent.
        public static let encodingFailed: Code = "encodingFailed"
        /// The server answered with a success status, but the body is not the endpoint's output.
        public static let decodingFailed: Code = "decodingFailed"
    }

    /// What failed.
    public var code: Code
    /// The endpoint's NSID.
    public var nsid: NSID
    /// What went wrong and where, for people to read.
    public var message: String
    /// The answer that could not be read (``Code/decodingFailed``), or `nil` when nothing was sent.
    public var response: XRPCResponse?
    /// The error that caused this one: usually a `LexiconDecodingError` (with its path) or a
    /// `JSONParseError` (with line and column).
    public var underlying: any Error

    /// Creates an error.
    public init(_ code: Code, nsid: NSID, response: XRPCResponse? = nil, message: String, underlying: any Error) {
        self.code = code
        self.nsid = nsid
        self.message = message
        self.response = response
        self.underlying = underlying
    }

    public var description: String {
        var text = "\(nsid): \(message)"
        if let response { text += " (status \(response.status))" }
        return text + ": \(underlying)"
    }
}
