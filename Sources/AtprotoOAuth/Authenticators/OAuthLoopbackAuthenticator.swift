import Foundation
import OAuthCore
import SocketAddresses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: `listener` is read and written under `lock` (and in `deinit`); the rest are `let`s.
/// The user step for command-line tools: opens the browser (a closure the app passes), listens once
/// on `127.0.0.1` for the redirect, answers it with a short page, and returns the callback URL.
///
/// Use it with the development client (``OAuthClientConfiguration/development(redirectURI:scopes:)``)
/// or a client whose metadata registers an `http://127.0.0.1/...` redirect URI: the port is chosen
/// per sign-in. It accepts the redirect while the opener runs, so an opener may wait for the browser
/// (and the redirect) before it returns. It gives up `timeout` after the opener is called, when the
/// opener throws, and when its task is cancelled.
public final class OAuthLoopbackAuthenticator: OAuthUserAuthenticator, @unchecked Sendable {
    /// Opens `url` in the user's browser.
    public typealias BrowserOpener = @Sendable (URL) async throws -> Void

    private let timeout: Duration
    private let openBrowser: BrowserOpener
    private let lock = NSLock()
    private var listener: LoopbackSocket?

    /// Creates an authenticator that waits up to `timeout` for the redirect.
    public init(timeout: Duration = .seconds(300), openBrowser: @escaping BrowserOpener) {
        self.timeout = timeout
        self.openBrowser = openBrowser
    }

    deinit { listener?.close() }

    /// Starts listening and returns `registered` with host `127.0.0.1` and the chosen port.
    public func redirectURI(registered: String) async throws -> String {
        guard var components = URLComponents(string: registered), components.scheme == "http" else {
            throw OAuthError(.invalidRequest, message: "a loopback redirect URI is http://127.0.0.1/...")
        }
        let socket = try LoopbackSocket.listen()
        lock.withLock {
            listener?.close()
            listener = socket
        }
        components.host = "127.0.0.1"
        components.port = socket.port
        guard let text = components.string else {
            throw OAuthError(.invalidRequest, message: "no loopback redirect URI")
        }
        return text
    }

    /// Opens the browser on `url` and waits for one request to the redirect path.
    public func authenticate(_ url: URL, redirectURI: String) async throws -> URL {
        guard let socket = lock.withLock({ listener }) else {
            throw OAuthError(.invalidRequest, message: "call redirectURI(registered:) before authenticate")
        }
        defer {
            lock.withLock { if listener?.descriptor == socket.descriptor { listener = nil } }
            socket.close()
        }
        let path = URLComponents(string: redirectURI)?.path ?? "/"
        let cancelled = CancelFlag()
        let deadline = ContinuousClock.now + timeout
        // Accepting starts before the opener runs: an opener may wait for the browser, and so for the
        // redirect, before it returns.
        let target: String = try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        Thread.detachNewThread {
                            continuation.resume(
                                with: Result {
                                    try socket.acceptCallback(path: path, deadline: deadline, cancelled: cancelled)
                                })
                        }
                    }
                }
                group.addTask {
                    do {
                        try await self.openBrowser(url)
                    } catch {
                        cancelled.set()  // ends the accepting thread within its poll interval
                        throw error
                    }
                    return nil
                }
                while let next = try await group.next() {
                    if let target = next { return target }
                }
                throw OAuthError(.cancelled, message: "the sign-in was cancelled")
            }
        } onCancel: {
            cancelled.set()
        }
        guard let callback = URL(string: "http://127.0.0.1:\(socket.port)" + target) else {
            throw OAuthError(.invalidCallback, message: "the redirect's target is not a URL")
        }
        return callback
    }
}

// @unchecked Sendable: `value` is read and written under `lock`.
/// A flag set once from any thread.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A listening socket on 127.0.0.1 that takes one redirect.
struct LoopbackSocket: Sendable {
    let descriptor: Int32
    let port: Int

    static func listen() throws(OAuthError) -> LoopbackSocket {
        guard let (descriptor, address) = SocketAddress.loopback(port: 0).bound(stream: true) else {
            throw OAuthError(.transport, message: "could not bind a socket on 127.0.0.1: errno \(errno)")
        }
        guard startListening(descriptor) else {
            _ = closeDescriptor(descriptor)
            throw OAuthError(.transport, message: "could not listen on 127.0.0.1")
        }
        return LoopbackSocket(descriptor: descriptor, port: Int(address.port))
    }

    func close() { _ = closeDescriptor(descriptor) }

    /// Accepts connections until one asks for `path`; answers it and returns its request target.
    func acceptCallback(path: String, deadline: ContinuousClock.Instant, cancelled: CancelFlag) throws -> String {
        while true {
            if cancelled.isSet { throw OAuthError(.cancelled, message: "the sign-in was cancelled") }
            guard ContinuousClock.now < deadline else {
                throw OAuthError(.timedOut, message: "no redirect arrived in time")
            }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            defer { _ = closeDescriptor(connection) }
            #if canImport(Darwin)
                // Darwin has no MSG_NOSIGNAL: a browser that closed early must not raise SIGPIPE.
                var yes: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            guard let target = Self.readTarget(connection, deadline: deadline) else { continue }
            let requested = String(target.prefix { $0 != "?" })
            guard requested == path else {
                Self.respond(connection, status: "404 Not Found", body: "Not found")
                continue
            }
            Self.respond(connection, status: "200 OK", body: "Signed in. You can close this window.")
            return target
        }
    }

    /// The request target of a `GET` request line, reading at most 8 KiB.
    static func readTarget(_ connection: Int32, deadline: ContinuousClock.Instant) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while bytes.count < 8192, !bytes.contains(0x0A), ContinuousClock.now < deadline {
            var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        guard let end = bytes.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: bytes[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }

    static func respond(_ connection: Int32, status: String, body: String) {
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\nCache-Control: no-store\r\n\r\n" + body
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, sendFlags) }
    }
}

private func startListening(_ descriptor: Int32) -> Bool { listen(descriptor, 4) == 0 }

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Glibc.close(descriptor)
    #endif
}

/// `send` flags: no SIGPIPE when the browser already closed the connection.
private var sendFlags: Int32 {
    #if canImport(Darwin)
        0
    #else
        Int32(MSG_NOSIGNAL)
    #endif
}
