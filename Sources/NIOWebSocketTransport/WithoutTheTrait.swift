#if !NIOWebSocketTransport
    // Without the trait this module is empty; this name says what to enable instead of "cannot find
    // in scope".

    /// Needs the `NIOWebSocketTransport` package trait.
    @available(
        *, unavailable,
        message:
            "enable the NIOWebSocketTransport trait: .package(url: ..., from: ..., traits: [\"NIOWebSocketTransport\"])"
    )
    public struct NIOWebSocketTransport: Sendable {
        /// Unavailable without the trait.
        public init() {}
    }
#endif
