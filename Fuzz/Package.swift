// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency by its folder, which depends on where the main package is cloned.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent
    .lowercased()

// libFuzzer targets over the main package's parsers. Not part of the normal build: the executables
// need libFuzzer's runtime, which only `-sanitize=fuzzer` links. Build and run them with
// scripts/fuzz.sh (release, `-sanitize=fuzzer,address`, `-enable-testing` so the harnesses can reach
// internal parsers such as the DNS answer and WebSocket frame readers through `@testable import`).
let package = Package(
    name: "AtprotoFuzz",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "atproto-fuzz", targets: ["atproto-fuzz"]),
        .executable(name: "atproto-fuzz-sdk", targets: ["atproto-fuzz-sdk"]),
    ],
    dependencies: [.package(path: "..")],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver, so one executable can hold several targets.
        .target(name: "CLibFuzzer"),
        // Picks a target by name and hands it to libFuzzer.
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"]),
        // Every parser but the generated SDK's (which takes long to build instrumented), and the server.
        .executableTarget(
            name: "atproto-fuzz",
            dependencies: [
                "FuzzDriver",
                .product(name: "XRPCRuntime", package: mainPackage),
                .product(name: "AtprotoIdentityResolution", package: mainPackage),
                .product(name: "AtprotoVerification", package: mainPackage),
                .product(name: "AtprotoOAuth", package: mainPackage),
                .product(name: "_LexGenKit", package: mainPackage),
                .product(name: "AtprotoLexiconResolution", package: mainPackage),
                .product(name: "XRPCServer", package: mainPackage),
                "FuzzServerLexicons",
            ]
        ),
        // The endpoints the server targets serve, generated from their lexicons by the LexiconGen plugin.
        .target(
            name: "FuzzServerLexicons",
            dependencies: [.product(name: "XRPCRuntime", package: mainPackage)],
            exclude: ["lexgen.json", "lexicons"],
            plugins: [.plugin(name: "LexiconGen", package: mainPackage)]
        ),
        // Typed decoding through the generated SDK: a record and a feed page, app.bsky's (so BlueskyKit,
        // which compiles com.atproto and app.bsky only, not the whole SDK instrumented).
        .executableTarget(
            name: "atproto-fuzz-sdk",
            dependencies: [
                "FuzzDriver", .product(name: "BlueskyKit", package: mainPackage),
                .product(name: "XRPCServer", package: mainPackage),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
