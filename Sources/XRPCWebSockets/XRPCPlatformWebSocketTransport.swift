import Foundation

/// The WebSocket transport for the platform: `URLSessionWebSocketTask` on Apple platforms; on
/// Linux this package's ``POSIXWebSocketTransport`` for `ws://` and `URLSessionWebSocketTask` for
/// `wss://`, which works only where the system's libcurl supports WebSockets (otherwise use a TLS
/// transport, such as `NIOWebSocketTransport`, the product behind the trait of the same name).
public struct XRPCPlatformWebSocketTransport: XRPCWebSocketTransport {
    /// The largest message accepted.
    public var maximumMessageSize: Int

    /// Creates the transport.
    public init(maximumMessageSize: Int = 16 << 20) {
        self.maximumMessageSize = maximumMessageSize
    }

    public func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        #if canImport(Darwin)
            return try await URLSessionWebSocketTransport(maximumMessageSize: maximumMessageSize)
                .connect(to: url, headers: headers)
        #else
            let scheme = url.scheme?.lowercased()
            if scheme == "ws" || scheme == "http" {
                return try await POSIXWebSocketTransport(
                    maximumFrameSize: maximumMessageSize, maximumMessageSize: maximumMessageSize
                ).connect(to: url, headers: headers)
            }
            return try await URLSessionWebSocketTransport(maximumMessageSize: maximumMessageSize)
                .connect(to: url, headers: headers)
        #endif
    }
}
