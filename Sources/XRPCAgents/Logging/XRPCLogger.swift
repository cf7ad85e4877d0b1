import Foundation

/// One line of the SDK's log: what an agent or session did (a call and its status, a retry, a
/// refresh, a login), with its level and fields.
///
/// Records never carry a credential: no token, password, key, authorization code or PKCE verifier,
/// and no header value of `Authorization`, `DPoP` or `Cookie`. Messages name methods, NSIDs,
/// statuses, durations, hosts and DIDs.
public struct XRPCLogRecord: Sendable, Hashable, CustomStringConvertible {
    /// How much a record matters, from ``debug`` (every call) to ``error`` (a session ended).
    public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Every call and its status.
        case debug
        /// Logins, refreshes, sign-outs.
        case info
        /// Retries, failed refreshes, calls without a response.
        case warning
        /// A session that ended for good.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warning: return "warning"
            case .error: return "error"
            }
        }
    }

    /// How much the record matters.
    public var level: Level
    /// What wrote it: `URLSessionAgent`, `RetryingAgent`, `PasswordSession`, `OAuthSession`,
    /// `OAuthHTTP`.
    public var source: String
    /// What happened, for people to read.
    public var message: String
    /// Fields for machines: `method`, `nsid`, `status`, `ms`, `attempt`, `did`...
    public var metadata: [String: String]

    /// Creates a record.
    public init(level: Level, source: String, message: String, metadata: [String: String] = [:]) {
        self.level = level
        self.source = source
        self.message = message
        self.metadata = metadata
    }

    /// `[level] source: message key=value ...`, the fields sorted by name.
    public var description: String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "[\(level)] \(source): \(message)" + (fields.isEmpty ? "" : " " + fields.joined(separator: " "))
    }
}

/// Where agents and sessions send their ``XRPCLogRecord``s: a closure the app supplies (print it,
/// hand it to `os.Logger` or swift-log), and the lowest level it wants.
///
/// ```swift
/// let logger = XRPCLogger(minimumLevel: .debug) { record in print(record) }
/// let agent = RetryingAgent(wrapping: URLSessionAgent(serviceURL: service, logger: logger), logger: logger)
/// let session = PasswordSession(service: service, agent: agent, logger: logger)
/// ```
///
/// The default everywhere is ``disabled``: nothing is formatted and nothing is written.
public struct XRPCLogger: Sendable {
    /// Receives each record at or above the minimum level.
    public typealias Sink = @Sendable (XRPCLogRecord) -> Void

    /// The lowest level handed to the sink.
    public var minimumLevel: XRPCLogRecord.Level
    private let sink: Sink?

    /// Creates a logger that hands every record at `minimumLevel` or above to `sink`.
    public init(minimumLevel: XRPCLogRecord.Level = .info, _ sink: @escaping Sink) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    private init() {
        self.minimumLevel = .error
        self.sink = nil
    }

    /// Writes nothing.
    public static var disabled: XRPCLogger { XRPCLogger() }

    /// Prints each record to standard error.
    public static func standardError(minimumLevel: XRPCLogRecord.Level = .info) -> XRPCLogger {
        XRPCLogger(minimumLevel: minimumLevel) { record in
            FileHandle.standardError.write(Data((record.description + "\n").utf8))
        }
    }

    /// Whether a record at `level` would be written; check it before building an expensive message.
    public func isEnabled(_ level: XRPCLogRecord.Level) -> Bool { sink != nil && level >= minimumLevel }

    /// Writes a record when `level` is enabled; the message and fields are built only then.
    public func log(
        _ level: XRPCLogRecord.Level, _ source: String, _ message: @autoclosure () -> String,
        _ metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard let sink, level >= minimumLevel else { return }
        sink(XRPCLogRecord(level: level, source: source, message: message(), metadata: metadata()))
    }

    /// Milliseconds since `start`, rounded, as a log field (`ms`).
    package static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let value = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(Int(value.rounded()))
    }
}
