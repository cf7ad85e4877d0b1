// swift-tools-version: 6.1
import PackageDescription

// A command-line tool from zero to a signed-in call, on Linux and macOS: an OAuth sign-in (the
// development client, a loopback redirect, a DPoP key from swift-crypto), then calls through the
// methods generated from the lexicons it installed into its own target. Set-up (CI runs the same,
// by URL, in scripts/adopt-by-url.sh):
//
//   swift package --allow-writing-to-package-directory --allow-network-connections all \
//       install-lexicons --target SignIn com.atproto.server.getSession com.atproto.repo.createRecord app.bsky.feed.post
//   swift run sign-in alice.bsky.social
let package = Package(
    name: "SignIn",
    platforms: [.macOS(.v13)],
    products: [.executable(name: "sign-in", targets: ["SignIn"])],
    dependencies: [
        // An app names the package by URL, with the trait that brings the swift-crypto signer:
        // .package(url: "https://github.com/<owner>/swift-atproto-lexicons", branch: "main", traits: ["SwiftCryptoSigner"])
        .package(name: "swift-atproto-lexicons", path: "../..", traits: ["SwiftCryptoSigner"])
    ],
    targets: [
        .executableTarget(
            name: "SignIn",
            dependencies: [
                .product(name: "AtprotoOAuth", package: "swift-atproto-lexicons"),
                .product(name: "SwiftCryptoSigner", package: "swift-atproto-lexicons"),
            ],
            exclude: ["lexicons", "lexgen.json", "lexicons.manifest.json"],
            plugins: [.plugin(name: "LexiconGen", package: "swift-atproto-lexicons")]
        )
    ],
    swiftLanguageModes: [.v6]
)
