import AtprotoLexicons
import Foundation

/// How reading from one connection ended, when it did not end cleanly.
enum JetstreamConnectionEnd: Error {
    /// The connection failed or the server dropped the reader (`ConsumerTooSlow`): open another.
    case retry(String)
    /// The stream ends with this error.
    case fail(JetstreamError)
}

/// One connection's messages.
protocol JetstreamConnectionReader: AnyObject, Sendable {
    /// The next message; `nil` when the server closed cleanly.
    func next() async throws(JetstreamConnectionEnd) -> JetstreamMessage?
    /// Drops the connection.
    func close()
}

// @unchecked Sendable: only its iterator uses it, and AsyncIteratorProtocol allows one task at a time per iterator.
/// The mutable state of a ``JetstreamStream`` iterator: the reader of the current connection, the
/// last cursor delivered, the failures in a row.
final class JetstreamIteratorState: @unchecked Sendable {
    private let client: JetstreamClient
    private let url: URL
    /// The cursor of the last event delivered (or the one the app resumed after): events at or
    /// before it are ones already handled.
    private var lastCursor: Int?
    private var reader: (any JetstreamConnectionReader)?
    private var failures = 0
    private var finished = false

    /// A v2 timestamp cursor (unix microseconds, at least 10^15) to start from: the server finds the
    /// first event at or after it; it is no `seq`, so nothing is skipped against it.
    private var startTime: Int?

    init(client: JetstreamClient, url: URL, after: Int?) {
        self.client = client
        self.url = url
        if client.version == .v2, let after, after >= JetstreamIteratorState.timestampCursorMinimum {
            startTime = after
        } else {
            lastCursor = after
        }
    }

    /// Jetstream reads a cursor at least this large as unix microseconds, a smaller one as a `seq`.
    static let timestampCursorMinimum = 1_000_000_000_000_000

    deinit { reader?.close() }

    func next() async throws(JetstreamError) -> JetstreamMessage? {
        while !finished {
            guard !Task.isCancelled else { return end() }
            let reader = currentReader()
            let message: JetstreamMessage?
            do {
                message = try await reader.next()
            } catch {
                if Task.isCancelled { return end() }
                switch error {
                case .fail(var failure):
                    failure.cursor = lastCursor
                    _ = end()
                    throw failure
                case .retry(let reason):
                    try await reconnect(after: reason)
                    continue
                }
            }
            guard let message else {
                guard client.reconnectPolicy != nil else { return end() }
                try await reconnect(after: "the server closed the connection")
                continue
            }
            if case .event(let event) = message {
                if let lastCursor, event.cursor <= lastCursor { continue }
                lastCursor = event.cursor
                startTime = nil
                failures = 0
            }
            return message
        }
        return nil
    }

    /// The open connection's reader, or one for a new connection resuming from the last cursor.
    private func currentReader() -> any JetstreamConnectionReader {
        if let reader { return reader }
        var target = url
        if let cursor = lastCursor ?? startTime, var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        {
            components.queryItems =
                (components.queryItems ?? []) + [URLQueryItem(name: "cursor", value: String(cursor))]
            target = components.url ?? url
        }
        let made: any JetstreamConnectionReader = JetstreamSocketReader(client: client, url: target)
        reader = made
        return made
    }

    /// Drops the connection and waits before the next one, or throws when the policy allows no more.
    private func reconnect(after reason: String) async throws(JetstreamError) {
        reader?.close()
        reader = nil
        failures += 1
        guard let policy = client.reconnectPolicy, failures <= policy.maximumAttempts else {
            _ = end()
            let attempts = client.reconnectPolicy.map { _ in " after \(failures) attempts in a row" } ?? ""
            throw JetstreamError(.connectionFailed, cursor: lastCursor, message: reason + attempts)
        }
        let delay = policy.initialDelay * (1 << min(failures - 1, 16))
        try? await Task.sleep(for: min(delay, policy.maximumDelay))
    }

    private func end() -> JetstreamMessage? {
        finished = true
        reader?.close()
        reader = nil
        return nil
    }
}
