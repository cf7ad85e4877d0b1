import AtprotoLexicons
import Foundation

/// Why a Jetstream subscription could not start or ended.
///
/// Filter and parameter faults (``Code/invalidFilter``, ``Code/wrongEndpoint``,
/// ``Code/unsupported``) are found before anything connects.
public struct JetstreamError: AtprotoError, Hashable {
    /// What went wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A filter over its limit or with a malformed value (``JetstreamError/parameter`` names it).
        public static let invalidFilter: Code = "invalidFilter"
        /// A parameter of the other endpoint version: a v1 one (`wantedCollections`, `requireHello`...)
        /// given to v2, or a v2 one (`kinds`, `collections`...) given to v1.
        public static let wrongEndpoint: Code = "wrongEndpoint"
        /// Something this client does not do: zstd compression (`compress`, `zstdDictionary`).
        public static let unsupported: Code = "unsupported"
        /// The cursor is below the server's retention floor (v2 `CursorTooOld`): the events after
        /// it are gone; re-fetch the repos (backfill) and start again without a cursor.
        public static let cursorTooOld: Code = "cursorTooOld"
        /// The server refused the subscription (HTTP status in ``JetstreamError/status``).
        public static let rejected: Code = "rejected"
        /// The server sent an error frame other than `ConsumerTooSlow` (``JetstreamError/name``).
        public static let errorFrame: Code = "errorFrame"
        /// A frame that is not a Jetstream event: not JSON, missing fields, an event that does not
        /// decode. The connection is dropped, not resumed.
        public static let malformedEvent: Code = "malformedEvent"
        /// No connection could be made or kept, after the reconnect policy's attempts.
        public static let connectionFailed: Code = "connectionFailed"
        /// The service URL is not an http(s) or ws(s) URL with a host.
        public static let invalidService: Code = "invalidService"
    }

    /// What went wrong.
    public var code: Code
    /// The parameter at fault, for filter and parameter faults (`wantedDids`, `collections[3]`).
    public var parameter: String?
    /// The error name the server gave (`CursorTooOld`, `InvalidRequest`...), if any.
    public var name: String?
    /// The HTTP status of a refused subscription.
    public var status: Int?
    /// The cursor of the last event delivered before the error, if any: resume from it.
    public var cursor: Int?
    /// What went wrong, for people to read.
    public var message: String

    /// Creates an error.
    public init(
        _ code: Code, parameter: String? = nil, name: String? = nil, status: Int? = nil, cursor: Int? = nil,
        message: String
    ) {
        self.code = code
        self.parameter = parameter
        self.name = name
        self.status = status
        self.cursor = cursor
        self.message = message
    }

    public var description: String {
        var text = "Jetstream \(code)"
        if let parameter { text += " (\(parameter))" }
        if let status { text += " (HTTP status \(status))" }
        if let name { text += ": \(name)" }
        text += (name == nil ? ": " : " - ") + message
        if let cursor { text += " (last cursor \(cursor))" }
        return text
    }
}
