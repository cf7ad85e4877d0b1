import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// WebSocket connections through `URLSessionWebSocketTask`: `ws://` and `wss://` on Apple
/// platforms. On Linux it works only where the system's libcurl was built with WebSocket support;
/// elsewhere connecting fails with an ``XRPCWebSocketError`` (use ``POSIXWebSocketTransport`` for `ws://`).
public struct URLSessionWebSocketTransport: XRPCWebSocketTransport {
    /// The largest message accepted.
    public var maximumMessageSize: Int
    /// How long the opening handshake may take.
    public var connectTimeout: Duration

    /// Creates a transport.
    public init(maximumMessageSize: Int = 16 << 20, connectTimeout: Duration = .seconds(30)) {
        self.maximumMessageSize = maximumMessageSize
        self.connectTimeout = connectTimeout
    }

    public func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        let target = try XRPCWebSocketTarget(url)
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.scheme = target.secure ? "wss" : "ws"
        guard let webSocketURL = components?.url else {
            throw XRPCWebSocketError(.unsupportedURL, message: "\(url) is not a URL")
        }
        var request = URLRequest(url: webSocketURL)
        // URLSession's request timeout is an idle timeout: a quiet stream must not end after a minute.
        request.timeoutInterval = 7 * 24 * 3600
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let delegate = OpeningDelegate()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maximumMessageSize
        let connection = URLSessionWebSocketConnection(task: task, session: session)
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    delegate.start(continuation)
                    // The timer before the task: a task that opened before its timer was stored
                    // would leave that timer to cancel the open connection later.
                    delegate.startTimer(connectTimeout) { task.cancel() }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            connection.close(code: .goingAway, reason: "")
            if Task.isCancelled { throw CancellationError() }
            let status = (task.response as? HTTPURLResponse)?.statusCode
            if let timeout = error as? XRPCWebSocketError, timeout.code == .timedOut { throw timeout }
            if let status, status != 101 {
                throw XRPCWebSocketError(
                    .handshakeFailed, status: status, message: "the server answered the upgrade with status \(status)")
            }
            throw XRPCWebSocketError(
                .cannotConnect, message: "cannot open \(webSocketURL): \(error.localizedDescription)")
        }
        return connection
    }
}

// @unchecked Sendable: `continuation` and `timer` are read and written under `lock`.
/// Resumes a connect call once the task opens or fails.
private final class OpeningDelegate: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?

    func start(_ continuation: CheckedContinuation<Void, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    private var timer: Task<Void, Never>?

    /// Fails the connect call with ``XRPCWebSocketError/Code/timedOut`` and calls `cancel` unless the
    /// task opens or fails within `timeout`.
    func startTimer(_ timeout: Duration, cancel: @escaping @Sendable () -> Void) {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.finish(
                .failure(XRPCWebSocketError(.timedOut, message: "the WebSocket did not open within \(timeout)")))
            cancel()
        }
        lock.withLock { self.timer = timer }
    }

    private func finish(_ result: Result<Void, any Error>) {
        let (pending, timer): (CheckedContinuation<Void, any Error>?, Task<Void, Never>?) = lock.withLock {
            defer { (continuation, self.timer) = (nil, nil) }
            return (continuation, self.timer)
        }
        timer?.cancel()
        pending?.resume(with: result)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        finish(.success(()))
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        finish(
            .failure(XRPCWebSocketError(.closedByPeer, message: "the server closed the connection while opening it")))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(.failure(error ?? XRPCWebSocketError(.connectionLost, message: "the connection ended before it opened")))
    }
}

// @unchecked Sendable: `closed` is under `lock`; `task` and `session` are `let`s of thread-safe URLSession objects.
/// A connection over a `URLSessionWebSocketTask`.
private final class URLSessionWebSocketConnection: XRPCWebSocketConnection, @unchecked Sendable {
    private let task: URLSessionWebSocketTask
    private let session: URLSession
    private let lock = NSLock()
    private var closed = false

    init(task: URLSessionWebSocketTask, session: URLSession) {
        self.task = task
        self.session = session
    }

    deinit { close(code: .goingAway, reason: "") }

    func receive() async throws -> XRPCWebSocketMessage? {
        do {
            let message = try await withTaskCancellationHandler {
                try await task.receive()
            } onCancel: { [task] in
                task.cancel(with: .goingAway, reason: nil)
            }
            switch message {
            case .data(let data): return .binary(data)
            case .string(let text): return .text(text)
            @unknown default:
                throw XRPCWebSocketError(.other, message: "URLSession returned a message of an unknown kind")
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if lock.withLock({ closed }) {
                throw XRPCWebSocketError(.closed, message: "the connection was closed on this side")
            }
            let code = task.closeCode
            if code == .normalClosure { return nil }
            if code != .invalid {
                let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                throw XRPCWebSocketError(
                    .closedByPeer, closeCode: XRPCWebSocketCloseCode(rawValue: UInt16(clamping: code.rawValue)),
                    message: "the server closed the connection\(reason.isEmpty ? "" : ": " + reason)")
            }
            throw XRPCWebSocketError(.connectionLost, message: error.localizedDescription)
        }
    }

    func send(_ message: XRPCWebSocketMessage) async throws {
        switch message {
        case .binary(let data): try await task.send(.data(data))
        case .text(let text): try await task.send(.string(text))
        }
    }

    func close(code: XRPCWebSocketCloseCode, reason: String) {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .goingAway
        task.cancel(with: closeCode, reason: reason.isEmpty ? nil : Data(reason.utf8))
        session.finishTasksAndInvalidate()
    }
}
