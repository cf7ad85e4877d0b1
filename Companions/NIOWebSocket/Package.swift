// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency by its folder, which depends on where the main package is cloned.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

// A WebSocket transport over SwiftNIO, with TLS (NIOSSL), for `wss://` event streams on Linux, where
// URLSessionWebSocketTask does not work. A package of its own: the main package never depends on it.
let package = Package(
    name: "NIOWebSocketTransport",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "NIOWebSocketTransport", targets: ["NIOWebSocketTransport"])
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    ],
    targets: [
        .target(
            name: "NIOWebSocketTransport",
            dependencies: [
                .product(name: "XRPCRuntime", package: mainPackage),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "NIOWebSocketTransportTests",
            dependencies: [
                "NIOWebSocketTransport", .product(name: "XRPCRuntime", package: mainPackage),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
