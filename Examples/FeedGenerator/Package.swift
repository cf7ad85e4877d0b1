// swift-tools-version: 6.1
import PackageDescription

// A feed generator: follows a PDS's firehose through the verified stream (every commit proved against
// its signature and MST before it is read), or a Jetstream service's posts (FEEDGEN_SOURCE=jetstream,
// resumed after a restart from a checkpoint file), keeps the posts its rule selects, and serves
// app.bsky.feed.describeFeedGenerator and app.bsky.feed.getFeedSkeleton with service auth, plus its
// did:web document, over Hummingbird (the trait XRPCHummingbird of the package). docs/Services.md walks
// through it; run it with:
//
//   FEEDGEN_PDS_URL=http://127.0.0.1:2583 FEEDGEN_PUBLISHER_DID=did:plc:... swift run feed-generator
let package = Package(
    name: "FeedGenerator",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // An app names the package by URL: .package(url: "https://github.com/<owner>/swift-atproto-lexicons",
        // branch: "main", traits: ["XRPCHummingbird"])
        .package(name: "swift-atproto-lexicons", path: "../..", traits: ["XRPCHummingbird"])
    ],
    targets: [
        .target(
            name: "FeedGenerator",
            dependencies: [
                .product(name: "XRPCServer", package: "swift-atproto-lexicons"),
                .product(name: "XRPCHummingbird", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoLexicons", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoVerification", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoIdentityResolution", package: "swift-atproto-lexicons"),
                .product(name: "XRPCRuntime", package: "swift-atproto-lexicons"),
                .product(name: "Jetstream", package: "swift-atproto-lexicons"),
            ]
        ),
        .executableTarget(
            name: "feed-generator",
            dependencies: [
                "FeedGenerator",
                .product(name: "XRPCServer", package: "swift-atproto-lexicons"),
                .product(name: "XRPCHummingbird", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoIdentityResolution", package: "swift-atproto-lexicons"),
                .product(name: "XRPCRuntime", package: "swift-atproto-lexicons"),
                .product(name: "Jetstream", package: "swift-atproto-lexicons"),
            ]),
        .testTarget(
            name: "FeedGeneratorTests",
            dependencies: [
                "FeedGenerator",
                .product(name: "XRPCServer", package: "swift-atproto-lexicons"),
                .product(name: "XRPCHummingbird", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoLexicons", package: "swift-atproto-lexicons"),
                .product(name: "AtprotoIdentityResolution", package: "swift-atproto-lexicons"),
                .product(name: "XRPCRuntime", package: "swift-atproto-lexicons"),
                .product(name: "Jetstream", package: "swift-atproto-lexicons"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
