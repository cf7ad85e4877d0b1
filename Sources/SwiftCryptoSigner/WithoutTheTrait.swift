#if !SwiftCryptoSigner
    // Without the trait this module is empty; these names say what to enable instead of "cannot
    // find in scope".

    /// Needs the `SwiftCryptoSigner` package trait.
    @available(
        *, unavailable,
        message: "enable the SwiftCryptoSigner trait: .package(url: ..., from: ..., traits: [\"SwiftCryptoSigner\"])"
    )
    public struct SwiftCryptoES256KeyFactory: Sendable {
        /// Unavailable without the trait.
        public init() {}
    }

    /// Needs the `SwiftCryptoSigner` package trait.
    @available(
        *, unavailable,
        message: "enable the SwiftCryptoSigner trait: .package(url: ..., from: ..., traits: [\"SwiftCryptoSigner\"])"
    )
    public struct SwiftCryptoES256Signer: Sendable {
        /// Unavailable without the trait.
        public init() {}
    }
#endif
