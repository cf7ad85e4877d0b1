// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-atproto-lexicons",
    platforms: [.macOS(.v13), .iOS(.v16), .visionOS(.v1)],
    products: [
        .executable(name: "lexgen", targets: ["lexgen"]),
        .plugin(name: "LexiconGen", targets: ["LexiconGen"]),
        // One product per job (README, "Products"); each module re-exports what its API takes and returns.
        // The runtime's layers (AtprotoSyntax, AtprotoData, XRPCCore, XRPCAgents, XRPCWebSockets,
        // AtprotoCrypto, OAuthCore) are modules inside these, not products of their own.
        .library(name: "AtprotoLexicons", targets: ["AtprotoLexicons"]),
        .library(name: "BlueskyKit", targets: ["BlueskyKit"]),
        .library(name: "BlueskyChat", targets: ["BlueskyChat"]),
        .library(name: "Jetstream", targets: ["Jetstream"]),
        .library(name: "AtprotoTap", targets: ["AtprotoTap"]),
        .library(name: "AtprotoOAuth", targets: ["AtprotoOAuth"]),
        .library(name: "AtprotoIdentityResolution", targets: ["AtprotoIdentityResolution"]),
        .library(name: "AtprotoVerification", targets: ["AtprotoVerification"]),
        .library(name: "AtprotoBackfill", targets: ["AtprotoBackfill"]),
        .library(name: "AtprotoLexiconResolution", targets: ["AtprotoLexiconResolution"]),
        .library(name: "XRPCServer", targets: ["XRPCServer"]),
        .library(name: "XRPCRuntime", targets: ["XRPCRuntime"]),
        // The generator as a library, for the fuzz package (Fuzz/): its load -> render pipeline in memory.
        // Not for apps (the underscore says so): its API follows lexgen's needs and may change in any release.
        .library(name: "_LexGenKit", targets: ["LexGenKit", "LexGenSchema"]),
        // Test support, not for apps: StubAgent (XRPCTesting) and a loopback HTTP server (LoopbackHTTPServer),
        // for companion packages' tests and benchmarks.
        .library(name: "XRPCTesting", targets: ["XRPCTesting", "LoopbackHTTPServer"]),
    ],
    // The benchmarks are a package of their own beside this one (Benchmarks/Package.swift), built
    // against these products only: docs/Performance.md.
    targets: [
        // The runtime's layers, each a module, dependencies pointing down (README, "Layout"):
        // atproto syntax: identifiers and string formats (DID, handle, NSID, AT-URI, TID, datetime...).
        .target(name: "AtprotoSyntax"),
        // Data: JSON, DAG-CBOR, CIDs, CAR files, multiformats, the data-model rules.
        .target(name: "AtprotoData", dependencies: ["AtprotoSyntax", "SHA2"]),
        // WebSocket clients behind one protocol (URLSession; POSIX sockets for ws:// on Linux); no atproto.
        .target(name: "XRPCWebSockets", dependencies: ["AtprotoSyntax", "SocketAddresses", "HTTPMessages"]),
        // IPv4/IPv6 socket addresses for the package's POSIX sockets (literals, name lookup, binding),
        // package-visible only: the WebSocket client, DNS, the OAuth loopback redirect, the test server.
        .target(name: "SocketAddresses"),
        // What generated code calls, and all it imports: lexicon value protocols, validation, the client,
        // endpoints, the agent protocol, event-stream framing. Re-exports syntax and data.
        .target(
            name: "XRPCCore",
            dependencies: ["AtprotoSyntax", "AtprotoData", "XRPCWebSockets", "HTTPMessages", "LexiconValidation"]),
        // Lexicon validation of JSON values against their schemas (the catalog, the validator, its
        // errors), under XRPCCore, which re-exports it: generated code still imports XRPCCore alone.
        .target(name: "LexiconValidation", dependencies: ["AtprotoSyntax", "AtprotoData"]),
        // Agents, sessions and transports: the URLSession agent, retries, logging, the password session.
        .target(
            name: "XRPCAgents",
            dependencies: ["AtprotoSyntax", "AtprotoData", "XRPCWebSockets", "XRPCCore", "HTTPTransport"]),
        // What apps import: an umbrella re-exporting the layers above (no code of its own).
        .target(
            name: "XRPCRuntime",
            dependencies: ["AtprotoSyntax", "AtprotoData", "XRPCWebSockets", "XRPCCore", "XRPCAgents", "HTTPTransport"]
        ),
        // SHA-256 with no dependencies, package-visible only (no public SHA256 to collide with CryptoKit's or
        // swift-crypto's): CIDs, AtprotoCrypto, AtprotoVerification's MST, OAuthCore and lexgen's manifest share it.
        .target(name: "SHA2", dependencies: ["CSHA256Accel"]),
        // SHA-256 blocks with the CPU's instructions (x86-64 SHA extensions, ARMv8 SHA2), chosen at run time.
        .target(name: "CSHA256Accel"),
        // Public keys of atproto (multikey, did:key) and ECDSA verification over secp256k1 and P-256,
        // in Swift. Public data only: signing keys never go through this package's arithmetic.
        .target(name: "AtprotoCrypto", dependencies: ["AtprotoSyntax", "AtprotoData", "SHA2"]),
        // Identity resolution: handle and DID resolution, DID documents, caching; pluggable like the agent.
        .target(
            name: "AtprotoIdentityResolution",
            dependencies: [
                "AtprotoSyntax", "AtprotoData", "XRPCCore", "XRPCAgents", "AtprotoCrypto", "HTTPTransport",
                "SocketAddresses",
            ]),
        // The one HTTP transport protocol every exchange goes through (XRPC calls, identity fetches, OAuth
        // requests) and its URLSession default. No product: the modules that take a transport re-export it.
        .target(name: "HTTPTransport", dependencies: ["AtprotoSyntax", "BoundedURLLoading", "HTTPMessages"]),
        // The HTTP message every layer shares (header fields kept in order, repeated names kept; the
        // response): the transport, the XRPC client and server, the loopback test server. No dependencies.
        .target(name: "HTTPMessages"),
        // The one bounded URLSession loader under URLSessionTransport, package-visible only.
        .target(name: "BoundedURLLoading", dependencies: ["AdmissionGates"]),
        // A keyed first-come-first-served gate with a limit per key (hosts of a loader, accounts whose
        // preferences are edited), package-visible only. No dependencies.
        .target(name: "AdmissionGates"),
        // A repository's records as an app reads them: a commit's operations, records decoded into the app's
        // types (LexiconRecordTypes, DecodedRecord). Small, so the SDK takes it without the verification.
        .target(name: "AtprotoRepository", dependencies: ["AtprotoSyntax", "AtprotoData", "XRPCCore"]),
        // Verified repository data: commit signatures, MST proofs, whole repositories, the firehose.
        .target(
            name: "AtprotoVerification",
            dependencies: [
                "AtprotoSyntax", "AtprotoData", "XRPCCore", "AtprotoRepository", "AtprotoCrypto",
                "AtprotoIdentityResolution", "SHA2",
            ]),
        // Backfill then live: repositories fetched whole and proved (getRepo), their live firehose commits
        // held until then, resync when a commit does not follow; cursor and state through an app's store.
        .target(
            name: "AtprotoBackfill",
            dependencies: [
                "AtprotoSyntax", "XRPCCore", "AtprotoLexicons", "AtprotoVerification", "AtprotoIdentityResolution",
            ]
        ),
        // Lexicons resolved over atproto: _lexicon DNS -> DID -> PDS -> proved com.atproto.lexicon.schema record.
        .target(
            name: "AtprotoLexiconResolution",
            dependencies: [
                "AtprotoSyntax", "AtprotoData", "XRPCCore", "XRPCAgents", "AtprotoCrypto", "AtprotoIdentityResolution",
                "AtprotoVerification",
            ]),
        // OAuth 2.1 building blocks (PKCE, metadata, PAR, tokens, revocation, DPoP, JWS), no atproto.
        .target(name: "OAuthCore", dependencies: ["AtprotoSyntax", "SHA2", "HTTPTransport"]),
        // The atproto OAuth client; its session is an XRPCAgent.
        .target(
            name: "AtprotoOAuth",
            dependencies: [
                "AtprotoSyntax", "XRPCCore", "XRPCAgents", "AtprotoIdentityResolution", "OAuthCore", "SocketAddresses",
                "HTTPTransport",
            ]),
        // The server half of XRPC: endpoints served from their generated types, service auth verified and
        // obtained, event-stream frames; request in, response out, no HTTP server (the adapter is a trait).
        .target(
            name: "XRPCServer",
            dependencies: ["AtprotoSyntax", "AtprotoData", "XRPCCore", "AtprotoCrypto", "AtprotoIdentityResolution"]),
        // The generator: load -> resolve -> plan -> render -> write. Shared by lexgen, the plugin and the tests.
        // The NSID grammar is AtprotoSyntax's and the manifest's SHA-256 is SHA2's: one of each.
        .target(name: "LexGenKit", dependencies: ["LexGenSchema", "AtprotoSyntax", "SHA2"]),
        // The generator's first stage: lexicon documents read into schemas, every node with its JSON path
        // and line, and the diagnostics (compiler-style) that every stage reports.
        .target(name: "LexGenSchema", dependencies: ["AtprotoSyntax"]),
        // The commands of lexgen (generate, install, verify, lint, breaking), shared by both executables.
        .target(name: "LexGenCommandLine", dependencies: ["LexGenKit"]),
        // lexgen install: the installer (named lexicons and their refs, folders, the pinned manifest) and
        // its command. Only the lexgen executable links it, so the plugin's tool compiles none of it.
        .target(name: "LexGenInstall", dependencies: ["LexGenKit", "LexGenCommandLine", "SHA2"]),
        // The command line: a thin shell over LexGenCommandLine, plus lexicon resolution over atproto.
        .executableTarget(
            name: "lexgen", dependencies: ["LexGenCommandLine", "LexGenInstall", "AtprotoLexiconResolution"]),
        // lexgen without the network: the plugin's tool, so a build compiles only the generator first.
        .executableTarget(name: "LexGenTool", dependencies: ["LexGenCommandLine"]),
        // Build-tool plugin: runs lexgen over a target's lexicons at build time.
        .plugin(name: "LexiconGen", capability: .buildTool(), dependencies: ["LexGenTool"]),
        // The SDK for the standard lexicons: an umbrella (what apps import) over one module per namespace,
        // each committed as lexgen generates it from its part of lexicons/ (the include/exclude of its
        // lexgen.json) into Sources/<Module>/Generated: scripts/generate-sdk.sh refreshes it, CI checks it.
        // An app that imports the SDK compiles no generator and runs no plugin. Refs across namespaces
        // are imports (com.atproto <- app.bsky <- chat.bsky <- tools.ozone), so the modules' compiles
        // overlap. The lexgen.json files stay: the umbrella's names every lexicon, for downstream modules
        // whose own lexicons the LexiconGen plugin generates with refs to these types.
        // It re-exports AtprotoRepository, whose types a firehose commit's operations are.
        .target(
            name: "AtprotoLexicons",
            dependencies: [
                "XRPCRuntime", "ComAtprotoLexicons", "AppBskyLexicons", "ChatBskyLexicons", "ToolsOzoneLexicons",
                "OtherAtprotoLexicons", "AtprotoRepository", "AtprotoRecordCalls",
            ],
            exclude: ["lexgen.json"]
        ),
        .target(name: "ComAtprotoLexicons", dependencies: ["XRPCCore"], exclude: ["lexgen.json"]),
        // The com.atproto.repo calls typed by the record type (create, get, list, put, delete, applyWrites,
        // pages of a collection, blob upload), hand-written over com.atproto alone: the umbrella and
        // BlueskyKit re-export it, so BlueskyKit needs no namespace but com.atproto and app.bsky.
        .target(name: "AtprotoRecordCalls", dependencies: ["XRPCCore", "ComAtprotoLexicons"]),
        .target(name: "AppBskyLexicons", dependencies: ["ComAtprotoLexicons"], exclude: ["lexgen.json"]),
        .target(
            name: "ChatBskyLexicons", dependencies: ["AppBskyLexicons", "ComAtprotoLexicons"], exclude: ["lexgen.json"]
        ),
        .target(
            name: "ToolsOzoneLexicons",
            dependencies: ["ChatBskyLexicons", "AppBskyLexicons", "ComAtprotoLexicons"],
            exclude: ["lexgen.json"]
        ),
        // The standard lexicons of other namespaces (site.standard, ...).
        .target(
            name: "OtherAtprotoLexicons", dependencies: ["AppBskyLexicons", "ComAtprotoLexicons"],
            exclude: ["lexgen.json"]
        ),
        // The Bluesky app layer on the generated SDK: rich text, composing posts, moderation decisions.
        // Hand-written Bluesky policy lives here, never in the generated layer. It takes com.atproto and
        // app.bsky only (not the umbrella): an app that takes BlueskyKit compiles no chat.bsky, tools.ozone
        // or other namespace; the types are the same modules' whichever product reaches them.
        .target(
            name: "BlueskyKit",
            dependencies: [
                "XRPCRuntime", "ComAtprotoLexicons", "AppBskyLexicons", "AtprotoRecordCalls",
                "AtprotoIdentityResolution", "BlueskyPreferences", "BlueskyVideo",
            ]
        ),
        // Video upload to a video service (app.bsky.video: limits, multipart upload with service auth,
        // progress, retries, abort, job polling); BlueskyKit re-exports it for the composer's video embed.
        .target(name: "BlueskyVideo", dependencies: ["XRPCRuntime", "AppBskyLexicons"]),
        // The account's settings, under BlueskyKit (which re-exports it): every app.bsky.actor preference
        // typed, read and edited through one serialized lane per account (unknown items kept byte for
        // byte), and the profile record edited with compare-and-swap.
        .target(
            name: "BlueskyPreferences",
            dependencies: [
                "XRPCRuntime", "ComAtprotoLexicons", "AppBskyLexicons", "AtprotoRecordCalls", "AdmissionGates",
            ]
        ),
        // BlueskyKit for the chat.bsky namespace (Bluesky's direct messages): chat profiles as moderation
        // subjects. A product of its own so that BlueskyKit compiles no chat.bsky.
        .target(name: "BlueskyChat", dependencies: ["BlueskyKit", "ChatBskyLexicons"]),
        // A client of Jetstream (v2 `network.bsky.jetstream.subscribeEvents` and legacy v1 `/subscribe`):
        // filters checked before connecting, records typed, a cursor to resume from. A product of its
        // own: a backend that reads Jetstream needs neither BlueskyKit nor the firehose's verification.
        .target(name: "Jetstream", dependencies: ["AtprotoLexicons"]),
        // A client of Tap (indigo's cmd/tap), run beside an app: its /channel events typed and
        // acknowledged, repos added and removed. A product of its own, like Jetstream's client.
        .target(name: "AtprotoTap", dependencies: ["AtprotoLexicons"]),
        // A tiny loopback HTTP server (POSIX sockets) for the transport tests and the benchmarks.
        .target(name: "LoopbackHTTPServer", dependencies: ["SocketAddresses", "HTTPMessages"]),
        // Test doubles: StubAgent, an XRPCAgent that answers from a closure and records requests.
        .target(name: "XRPCTesting", dependencies: ["XRPCCore"]),
        // Test support, in no product: SplitMix64, the seeded generator of the property tests; the load tests'
        // fault injection (seeded loopback faults, session fault figures, concurrent calls).
        .target(name: "SeededRandom", path: "Tests/Support/SeededRandom"),
        .target(
            name: "LoopbackFaultInjection", dependencies: ["LoopbackHTTPServer", "SeededRandom"],
            path: "Tests/Support/LoopbackFaultInjection"),
        // A video service on loopback (app.bsky.video's multipart upload behind service auth) for the
        // video upload tests: the real one is not on the shared PDS.
        .target(
            name: "VideoServiceStandIn",
            dependencies: ["LoopbackHTTPServer", "XRPCServer", "AppBskyLexicons", "AtprotoIdentityResolution"],
            path: "Tests/Support/VideoServiceStandIn"),
        .testTarget(
            name: "AtprotoCryptoTests", dependencies: ["AtprotoCrypto", "SeededRandom"],
            exclude: ["signature-vectors.json"]),
        .testTarget(
            name: "AtprotoIdentityResolutionTests",
            dependencies: [
                "SeededRandom",
                "AtprotoIdentityResolution", "XRPCRuntime", "XRPCTesting", "LoopbackHTTPServer", "SocketAddresses",
            ]),
        // The firehose tests open subscribeRepos through the generated SDK.
        .testTarget(
            name: "AtprotoVerificationTests",
            dependencies: [
                "SeededRandom", "AtprotoVerification", "AtprotoLexicons", "AtprotoLexiconResolution", "XRPCTesting",
            ]),
        // Backfill then live: offline over scripted firehoses and snapshots, and against the shared PDS
        // (skipped unless ATPROTO_PDS_URL is set) with accounts writing while it runs.
        .testTarget(name: "AtprotoBackfillTests", dependencies: ["AtprotoBackfill", "XRPCRuntime", "SeededRandom"]),
        // The runtime's layers, tested together (each file imports the layers it tests).
        .testTarget(
            name: "XRPCRuntimeTests",
            dependencies: [
                "LoopbackFaultInjection",
                "XRPCRuntime", "AtprotoSyntax", "AtprotoData", "XRPCWebSockets", "XRPCCore", "XRPCAgents", "SHA2",
                "XRPCTesting", "LoopbackHTTPServer", "SecretLeakTesting", "LexiconValidation",
            ]),
        // The server core and the service-auth verifier; test tokens are signed with AtprotoCrypto's
        // curve arithmetic (@testable), in test code only.
        .testTarget(
            name: "XRPCServerTests",
            dependencies: [
                "XRPCServer", "XRPCCore", "AtprotoCrypto", "AtprotoIdentityResolution", "XRPCTesting", "SHA2",
                "XRPCHummingbird",  // its tests compile only with the trait (the module is empty without it)
                "XRPCServerTestLexicons",
            ]),
        // The server tests' own lexicons (Tests/Support/XRPCServerTestLexicons/lexicons), generated by the plugin.
        .target(
            name: "XRPCServerTestLexicons", dependencies: ["XRPCCore"], path: "Tests/Support/XRPCServerTestLexicons",
            exclude: ["lexgen.json", "lexicons"], plugins: ["LexiconGen"]),
        .testTarget(name: "OAuthCoreTests", dependencies: ["OAuthCore", "LoopbackHTTPServer"]),
        // The secret-leak checks (where a secret shows in logs, descriptions, dumps) the session tests share.
        .target(name: "SecretLeakTesting", dependencies: ["XRPCAgents"], path: "Tests/Support/SecretLeakTesting"),
        .testTarget(name: "BoundedURLLoadingTests", dependencies: ["BoundedURLLoading", "LoopbackHTTPServer"]),
        .testTarget(name: "AdmissionGatesTests", dependencies: ["AdmissionGates"]),
        .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport", "LoopbackHTTPServer"]),
        .testTarget(
            name: "AtprotoOAuthTests",
            dependencies: [
                "LoopbackFaultInjection",
                "AtprotoOAuth", "OAuthCore", "AtprotoIdentityResolution", "XRPCRuntime", "LoopbackHTTPServer",
                "SecretLeakTesting",
            ]),
        .testTarget(
            name: "LexGenKitTests",
            dependencies: [
                "SeededRandom",
                "LexGenKit", "LexGenSchema", "LexGenInstall", "lexgen", "SHA2", "XRPCRuntime", "XRPCTesting",
                "LexGenTestSupport",
            ],
            exclude: ["Golden"]
        ),
        // lexgen install over atproto (unit, and against the shared PDS when ATPROTO_PDS_URL is set).
        .testTarget(
            name: "LexiconInstallTests",
            dependencies: [
                "LexGenKit", "LexGenSchema", "LexGenInstall", "AtprotoLexiconResolution", "AtprotoIdentityResolution",
                "XRPCRuntime", "lexgen", "LexGenTestSupport",
            ]),
        // LexgenRun: the lexgen binary run as a user runs it, for the test targets that depend on it.
        .target(name: "LexGenTestSupport", path: "Tests/Support/LexGenTestSupport"),
        .testTarget(
            name: "BlueskyKitTests",
            dependencies: [
                "SeededRandom", "BlueskyKit", "BlueskyChat", "BlueskyPreferences", "AtprotoLexicons", "XRPCRuntime",
                "AtprotoIdentityResolution", "XRPCTesting",
            ]),
        .testTarget(
            name: "AtprotoLexiconsTests",
            dependencies: [
                "AtprotoLexicons", "XRPCRuntime", "XRPCServer", "XRPCTesting", "SeededRandom", "LoopbackHTTPServer",
            ]),
        // The firehose against a real PDS: skipped unless ATPROTO_PDS_URL (+ _HANDLE, _PASSWORD) is set;
        // a loopback TCP proxy (LoopbackHTTPServer) cuts its connections to test resumption.
        .testTarget(
            name: "EventStreamIntegrationTests",
            dependencies: ["AtprotoLexicons", "AtprotoIdentityResolution", "LoopbackHTTPServer", "XRPCTesting"]),
        // The interop record lexicon (read from ../shared, never copied), generated by the plugin, and
        // the interop record data run through the generated type. Not a product.
        .target(
            name: "InteropRecordLexicon",
            dependencies: ["XRPCCore"],
            path: "Tests/Support/InteropRecordLexicon",
            exclude: ["lexgen.json"],
            plugins: ["LexiconGen"]
        ),
        .testTarget(name: "InteropRecordTests", dependencies: ["InteropRecordLexicon"]),
        // The Jetstream client: filters and frames offline, both endpoints against the PDS of the
        // environment (skipped unless ATPROTO_PDS_URL is set).
        .testTarget(name: "JetstreamTests", dependencies: ["Jetstream", "XRPCTesting"]),
        // The Tap client against a loopback stand-in of Tap's documented protocol (in the tests).
        .testTarget(
            name: "AtprotoTapTests",
            dependencies: ["AtprotoTap", "XRPCWebSockets", "LoopbackHTTPServer", "SecretLeakTesting"]),
        // Video upload against the loopback video service, with service-auth tokens from the shared PDS
        // (skipped unless ATPROTO_PDS_URL is set), and its posts through BlueskyKit's composer.
        .testTarget(
            name: "BlueskyVideoTests",
            dependencies: [
                "BlueskyKit", "BlueskyVideo", "VideoServiceStandIn", "XRPCTesting", "AtprotoIdentityResolution",
            ]),
        // Against a real PDS (scripts/pds.sh start): skipped unless ATPROTO_PDS_URL is set.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["AtprotoLexicons", "BlueskyKit", "XRPCTesting", "SecretLeakTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - Optional parts behind package traits (off by default: a default build resolves no package)
//
// An app enables a trait on its dependency (`.package(url: ..., from: ..., traits: ["SwiftCryptoSigner"])`)
// and depends on the product of the same name. Every use of the packages below is conditioned on its
// trait, so SwiftPM neither resolves nor builds them while the trait is off; the targets then compile
// to empty modules (their sources are wrapped in `#if <trait>`).
package.traits = [
    .trait(
        name: "SwiftCryptoSigner",
        description: "ES256 keys over swift-crypto (SwiftCryptoES256KeyFactory) for OAuth where CryptoKit is missing"
    ),
    .trait(
        name: "NIOWebSocketTransport",
        description: "A WebSocket transport over SwiftNIO with TLS (NIOSSL), for wss:// event streams on Linux"
    ),
    .trait(
        name: "NIOHTTPTransport",
        description:
            "An HTTP transport over SwiftNIO with TLS (NIOSSL): on Linux, waits on answers without URLSession's polling"
    ),
    .trait(
        name: "XRPCHummingbird",
        description: "An HTTP server for XRPCServer's router over Hummingbird 2, subscriptions as WebSockets"
    ),
    .default(enabledTraits: []),
]
package.dependencies += [
    // Used only when the trait SwiftCryptoSigner is on.
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
    // Used only when the trait NIOWebSocketTransport is on.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    // Used only when the trait XRPCHummingbird is on (Hummingbird's own traits off: no swift-configuration).
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
]
package.products += [
    .library(name: "SwiftCryptoSigner", targets: ["SwiftCryptoSigner"]),
    .library(name: "NIOWebSocketTransport", targets: ["NIOWebSocketTransport"]),
    .library(name: "NIOHTTPTransport", targets: ["NIOHTTPTransport"]),
    .library(name: "XRPCHummingbird", targets: ["XRPCHummingbird"]),
]
package.targets += [
    // ES256Signer over swift-crypto's P-256 (BoringSSL on Linux), for the OAuth client (trait SwiftCryptoSigner).
    .target(
        name: "SwiftCryptoSigner",
        dependencies: [
            "OAuthCore",
            .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["SwiftCryptoSigner"])),
        ]),
    // Not a product: OAuthCore's CryptoKit signer (a symlink to its one source file) compiled against
    // swift-crypto, the same API, so that Linux CI type-checks and tests the Apple-only source.
    .target(
        name: "CryptoKitSignerTwin",
        dependencies: [
            "OAuthCore",
            .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["SwiftCryptoSigner"])),
        ],
        swiftSettings: [.define("CRYPTOKIT_TWIN")]),
    // Signatures checked with AtprotoCrypto; the OAuth client against the shared PDS (skipped unless
    // ATPROTO_PDS_URL is set).
    .testTarget(
        name: "SwiftCryptoSignerTests",
        dependencies: [
            "SwiftCryptoSigner", "CryptoKitSignerTwin", "OAuthCore", "AtprotoOAuth", "AtprotoCrypto",
            "AtprotoIdentityResolution", "XRPCRuntime",
            .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["SwiftCryptoSigner"])),
            "NIOWebSocketTransport",  // WithoutTheTraitTests type-checks a use of it against its module
        ]),
    // wss:// event streams on Linux over SwiftNIO + NIOSSL (trait NIOWebSocketTransport).
    .target(
        name: "NIOWebSocketTransport",
        dependencies: [
            "XRPCRuntime",
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIOWebSocketTransport"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIOWebSocketTransport"])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIOWebSocketTransport"])),
            .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["NIOWebSocketTransport"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIOWebSocketTransport"])),
        ]),
    // Against the PDS over ws:// and over wss:// against tls_websocket_server.py (a self-signed certificate).
    .testTarget(
        name: "NIOWebSocketTransportTests",
        dependencies: [
            "NIOWebSocketTransport", "XRPCRuntime", "XRPCCore",
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIOWebSocketTransport"])),
        ],
        exclude: ["tls_websocket_server.py"]),
]

// HTTP requests over SwiftNIO + NIOSSL (trait NIOHTTPTransport): no polling while an answer is awaited.
package.targets += [
    .target(
        name: "NIOHTTPTransport",
        dependencies: [
            "HTTPTransport",
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIOHTTPTransport"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIOHTTPTransport"])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIOHTTPTransport"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIOHTTPTransport"])),
        ]),
    // Against LoopbackHTTPServer (the same checks as URLSessionTransport's), over TLS against
    // tls_websocket_server.py (symlinked from NIOWebSocketTransportTests: a self-signed certificate), and
    // a session's calls against the PDS (skipped unless ATPROTO_PDS_URL is set).
    .testTarget(
        name: "NIOHTTPTransportTests",
        dependencies: [
            "NIOHTTPTransport", "HTTPTransport", "LoopbackHTTPServer", "XRPCRuntime", "AtprotoLexicons",
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIOHTTPTransport"])),
        ],
        exclude: ["tls_websocket_server.py"]),
]

// An HTTP server for XRPCServer's router (trait XRPCHummingbird): bodies bounded and timed, WebSocket subscriptions.
package.targets += [
    .target(
        name: "XRPCHummingbird",
        dependencies: [
            "XRPCServer", "AtprotoData",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["XRPCHummingbird"])),
            .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["XRPCHummingbird"])),
            .product(
                name: "HummingbirdWebSocket", package: "hummingbird-websocket",
                condition: .when(traits: ["XRPCHummingbird"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["XRPCHummingbird"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["XRPCHummingbird"])),
            .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["XRPCHummingbird"])),
        ])
]

// MARK: - The install as a command plugin, for Xcode projects (no Package.swift to `swift run lexgen` from)
// and packages alike: swift package --allow-writing-to-package-directory --allow-network-connections all \
//     install-lexicons --target <name> <nsid>... [--from <folder>]
package.products.append(.plugin(name: "InstallLexicons", targets: ["InstallLexicons"]))
package.targets.append(
    .plugin(
        name: "InstallLexicons",
        capability: .command(
            intent: .custom(
                verb: "install-lexicons",
                description: "Install lexicons (and their refs) into a target, for the LexiconGen plugin"),
            permissions: [
                .allowNetworkConnections(
                    scope: .all(),
                    reason: "Lexicons are resolved over atproto (DNS, the DID's PDS) unless --from names a folder"),
                .writeToPackageDirectory(
                    reason: "The lexicons, their manifest and lexgen.json are written into the chosen target"),
            ]),
        dependencies: ["lexgen"]))
