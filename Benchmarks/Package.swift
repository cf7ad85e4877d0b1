// swift-tools-version: 6.1
import PackageDescription

// The benchmarks: executables that print figures (docs/Performance.md), a package of their own so that
// the root manifest is the product only. They build against the root package's products, as an app
// does, never against its package-internal API:
//
//     swift run -c release --package-path Benchmarks crypto-bench
//
// Traits of the same names as the root package's turn those on there: `--traits SwiftCryptoSigner`
// for oauth-call-bench, `--traits XRPCHummingbird` for server-bench's comparison over HTTP,
// `--traits NIOHTTPTransport` for wait-bench's NIO side.
let package = Package(
    name: "swift-atproto-lexicons-benchmarks",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],
    traits: [
        .trait(name: "SwiftCryptoSigner", description: "oauth-call-bench, with the root package's signer trait"),
        .trait(
            name: "XRPCHummingbird", description: "server-bench over HTTP too, with the root package's server trait"),
        .trait(name: "NIOHTTPTransport", description: "wait-bench with the root package's NIO HTTP transport"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(
            name: "swift-atproto-lexicons", path: "..",
            traits: [
                .trait(name: "SwiftCryptoSigner", condition: .when(traits: ["SwiftCryptoSigner"])),
                .trait(name: "XRPCHummingbird", condition: .when(traits: ["XRPCHummingbird"])),
                .trait(name: "NIOHTTPTransport", condition: .when(traits: ["NIOHTTPTransport"])),
            ]),
        // Used only when the trait XRPCHummingbird is on: the bare route server-bench compares with.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0", traits: []),
    ],
    targets: [
        // What the benchmarks share: median CPU time over alternating rounds of ours and a reference
        // (a Python child process), and how figures are printed.
        .target(name: "BenchmarkSupport", path: "Support"),
        // Handles of the loopback server or the shared PDS resolved through the public HTTPTransport seam.
        .target(name: "HostFetching", dependencies: [lexicons("AtprotoIdentityResolution")], path: "HostFetching"),
        // Typed decode of a timeline page beside our untyped parse, Foundation and Python in alternating
        // rounds.
        .executableTarget(
            name: "lexicon-decode-bench", dependencies: [lexicons("AtprotoLexicons"), "BenchmarkSupport"],
            path: "DecodeBenchmark"),
        // DAG-CBOR / CAR decoding figures for a synthetic firehose, in memory and over a loopback socket.
        .executableTarget(
            name: "xrpc-bench",
            dependencies: [
                lexicons("XRPCRuntime"), lexicons("AtprotoVerification"), lexicons("XRPCTesting"),
                lexicons("AtprotoLexicons"), "BenchmarkSupport",
            ],
            path: "StreamBenchmark"),
        // The runtime's per-call overhead over raw URLSession.
        .executableTarget(
            name: "xrpc-call-bench", dependencies: [lexicons("XRPCRuntime"), lexicons("XRPCTesting")],
            path: "CallBenchmark"),
        // SHA-256 (through CIDs) and ECDSA verification for both curves (AtprotoCrypto, inside the
        // verification's product).
        .executableTarget(
            name: "crypto-bench",
            dependencies: [lexicons("AtprotoVerification"), "BenchmarkSupport"],
            path: "CryptoBenchmark"),
        // Cached-lookup throughput and the cost of a cold resolution.
        .executableTarget(
            name: "identity-bench",
            dependencies: [
                lexicons("AtprotoIdentityResolution"), lexicons("XRPCRuntime"), lexicons("XRPCTesting"), "HostFetching",
            ],
            path: "IdentityBenchmark"),
        // Rich text figures (segments of a 300-grapheme post, detection over a timeline page's texts)
        // beside straightforward ports as references.
        .executableTarget(
            name: "bluesky-bench", dependencies: [lexicons("BlueskyKit"), lexicons("AtprotoLexicons")],
            path: "RichTextBenchmark"),
        // Jetstream v2 events through the public client beside a raw JSON parse of the same frames.
        .executableTarget(
            name: "jetstream-bench",
            dependencies: [lexicons("Jetstream"), lexicons("XRPCRuntime"), "BenchmarkSupport"],
            path: "JetstreamBenchmark"),
        // Backfill then live beside the whole-repository verification of the same repository (the shared PDS).
        .executableTarget(
            name: "backfill-bench", dependencies: [lexicons("AtprotoBackfill"), lexicons("XRPCRuntime")],
            path: "BackfillBenchmark"),
        // Whole-repository and firehose verification figures against the shared PDS.
        .executableTarget(
            name: "verify-bench",
            dependencies: [
                lexicons("AtprotoVerification"), lexicons("AtprotoIdentityResolution"), lexicons("XRPCRuntime"),
                "BenchmarkSupport", "HostFetching",
            ],
            path: "VerificationBenchmark"),
        // getFeedSkeleton through XRPCServer's core beside a bare route with the same bytes, and
        // service-auth verifications beside one ECDSA verification; with the trait XRPCHummingbird,
        // the comparison over HTTP too.
        .executableTarget(
            name: "server-bench",
            dependencies: [
                lexicons("XRPCServer"), lexicons("AtprotoLexicons"), lexicons("AtprotoIdentityResolution"),
                "BenchmarkSupport", lexicons("XRPCHummingbird"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["XRPCHummingbird"])),
            ],
            path: "ServerBenchmark"),
        // The cost of one moderation decision and of a 100-post page.
        .executableTarget(
            name: "moderation-bench", dependencies: [lexicons("BlueskyKit"), lexicons("AtprotoLexicons")],
            path: "ModerationBenchmark"),
        // The CPU a request costs while it waits for a slow answer, URLSessionTransport beside
        // NIOHTTPTransport (trait NIOHTTPTransport; without it, URLSessionTransport alone).
        .executableTarget(
            name: "wait-bench",
            dependencies: [
                lexicons("XRPCRuntime"), lexicons("XRPCTesting"), lexicons("NIOHTTPTransport"), "BenchmarkSupport",
            ],
            path: "WaitBenchmark"),
        // Calls per second through the OAuth session vs the password session over loopback (trait
        // SwiftCryptoSigner; without it the executable says so and exits).
        .executableTarget(
            name: "oauth-call-bench",
            dependencies: [
                lexicons("SwiftCryptoSigner"), lexicons("AtprotoOAuth"),
                lexicons("AtprotoIdentityResolution"), lexicons("XRPCRuntime"), lexicons("XRPCTesting"),
            ],
            path: "OAuthCallBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)

/// A product of the root package.
func lexicons(_ product: String) -> Target.Dependency {
    .product(name: product, package: "swift-atproto-lexicons")
}
