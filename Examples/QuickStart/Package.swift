// swift-tools-version: 6.1
import PackageDescription

// README's Quick start as a complete app: the Bluesky app layer (com.atproto and app.bsky) by URL, with nothing
// to run first (no lexicons to install, no plugin, no extra package). CI builds it from a bare clone
// with zero warnings and runs it against the shared PDS (scripts/adopt-by-url.sh).
let package = Package(
    name: "QuickStart",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // An app names the package by URL: .package(url: "https://github.com/<owner>/swift-atproto-lexicons", branch: "main")
        .package(name: "swift-atproto-lexicons", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [.product(name: "BlueskyKit", package: "swift-atproto-lexicons")]
        )
    ],
    swiftLanguageModes: [.v6]
)
