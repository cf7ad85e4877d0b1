// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency by its folder, which depends on where the main package is cloned.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

// ES256 keys for OAuth (DPoP proofs, client assertions) over swift-crypto, for Linux and Android where
// CryptoKit is missing. A package of its own: the main package never depends on swift-crypto.
let package = Package(
    name: "SwiftCryptoSigner",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SwiftCryptoSigner", targets: ["SwiftCryptoSigner"])
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
    ],
    targets: [
        .target(
            name: "SwiftCryptoSigner",
            dependencies: [
                .product(name: "OAuthCore", package: mainPackage),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Calls per second through the OAuth session vs the password session over loopback:
        // swift run -c release --package-path Companions/SwiftCryptoSigner oauth-call-bench
        .executableTarget(
            name: "oauth-call-bench",
            dependencies: [
                "SwiftCryptoSigner",
                .product(name: "AtprotoOAuth", package: mainPackage),
                .product(name: "OAuthCore", package: mainPackage),
                .product(name: "AtprotoIdentityResolution", package: mainPackage),
                .product(name: "XRPCRuntime", package: mainPackage),
                .product(name: "XRPCTesting", package: mainPackage),
            ]
        ),
        // Signatures checked with AtprotoCrypto's own P-256 verification; the OAuth client against the
        // shared PDS (skipped unless ATPROTO_PDS_URL is set).
        .testTarget(
            name: "SwiftCryptoSignerTests",
            dependencies: [
                "SwiftCryptoSigner",
                .product(name: "OAuthCore", package: mainPackage),
                .product(name: "AtprotoOAuth", package: mainPackage),
                .product(name: "AtprotoCrypto", package: mainPackage),
                .product(name: "AtprotoIdentityResolution", package: mainPackage),
                .product(name: "XRPCRuntime", package: mainPackage),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
