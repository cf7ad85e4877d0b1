import AtprotoData
import Foundation
import XRPCWebSockets

/// Why an event stream ended with an error: the server's error frame, a refused subscription, a
/// frame that could not be read, or a connection that could not be kept.
///
/// ```swift
/// do {
///     for try await message in client.com.atproto.sync.subscribeRepos(cursor: saved) { ... }
/// } catch let error where error.code(for: ComAtprotoSyncSubscribeRepos.self) == .futureCursor {
///     // start again without a cursor
/// }
/// ```
public struct XRPCEventStreamError: AtprotoError, Hashable {
    /// What ended the stream. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server sent an error frame (`op: -1`): ``XRPCEventStreamError/name`` holds its error
        /// name (`FutureCursor`, `ConsumerTooSlow`...).
        public static let errorFrame: Code = "errorFrame"
        /// The server refused the subscription with an HTTP error instead of upgrading:
        /// ``XRPCEventStreamError/status`` and, from an XRPC error body, ``XRPCEventStreamError/name``.
        public static let rejected: Code = "rejected"
        /// A frame that is not a DAG-CBOR header and body of the event-stream format. The spec makes
        /// this a hard error: the connection is dropped, not resumed.
        public static let malformedFrame: Code = "malformedFrame"
        /// A message failed the stream's ``XRPCEventStreamOptions/frameCheck`` (a firehose commit whose
        /// signature or proof does not hold, for example); the message says which and why.
        public static let frameCheckFailed: Code = "frameCheckFailed"
        /// No connection could be made or kept (after the reconnect policy's attempts, if any).
        public static let connectionFailed: Code = "connectionFailed"
        /// No service to connect to, or a URL the transport cannot open.
        public static let invalidService: Code = "invalidService"
    }

    /// What ended the stream.
    public var code: Code
    /// The subscription's NSID.
    public var nsid: NSID
    /// The error name from an error frame or an XRPC error body (`"FutureCursor"`), if any.
    public var name: String?
    /// What went wrong, for people to read: the server's message, or where and why reading failed.
    public var message: String
    /// The HTTP status of a refused subscription.
    public var status: Int?
    /// The `seq` of the last message delivered before the error, if any: resume after it.
    public var lastSequence: Int?

    /// Creates an error.
    public init(
        _ code: Code, nsid: NSID, name: String? = nil, status: Int? = nil, lastSequence: Int? = nil,
        message: String
    ) {
        self.code = code
        self.nsid = nsid
        self.name = name
        self.message = message
        self.status = status
        self.lastSequence = lastSequence
    }

    /// Whether the server refused the upgrade as unauthorized: status 401, or 400 with
    /// `ExpiredToken` or `InvalidToken`.
    public var isUnauthorized: Bool {
        guard code == .rejected else { return false }
        return status == 401 || (status == 400 && (name == "ExpiredToken" || name == "InvalidToken"))
    }

    /// The error name as one of the subscription's declared errors, or its open case.
    public func code<E: XRPCEndpoint>(for endpoint: E.Type) -> E.Error {
        E.Error(name: name ?? "")
    }

    public var description: String {
        var text = "\(nsid) event stream: \(code)"
        if let status { text += " (HTTP status \(status))" }
        if let name { text += ": \(name)" }
        if !message.isEmpty { text += (name == nil ? ": " : " - ") + message }
        if let lastSequence { text += " (last seq \(lastSequence))" }
        return text
    }
}
