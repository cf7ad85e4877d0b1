#if !NIOHTTPTransport
    // Without the trait this module is empty; this name says what to enable instead of "cannot find
    // in scope".

    /// Needs the `NIOHTTPTransport` package trait.
    @available(
        *, unavailable,
        message: "enable the NIOHTTPTransport trait: .package(url: ..., from: ..., traits: [\"NIOHTTPTransport\"])"
    )
    public struct NIOHTTPTransport: Sendable {
        /// Unavailable without the trait.
        public init() {}
    }
#endif
