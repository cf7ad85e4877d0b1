#!/usr/bin/env bash
# What a package that depends on one product of this one compiles before its own code, and what it
# costs: for each product given, a throwaway consumer package (one target importing the product,
# this package as a path dependency) built clean in debug from an empty scratch folder. Prints the
# wall and CPU (user + system) seconds of the build and the modules it compiled, ours and the
# consumer's, so a product that pulls in more than it needs shows.
#
#   scripts/build-cost.sh [product...]      (default: AtprotoCrypto XRPCRuntime)
#
# On a shared machine the seconds move with the load; the module list does not.
#
# Measured 2026-11-25 on the 2-core Linux machine (load 9-15 from other builds), main at 2f53640 (one
# XRPCRuntime module) against the layered runtime (issue 23), CPU seconds of two runs each:
#   AtprotoCrypto: 24.6, 22.9 -> 19.8, 19.9 (XRPCRuntime's 9.7k lines -> AtprotoData + SHA2)
#   XRPCRuntime:   22.6, 20.2 -> 26.5, 26.9 (one module -> five: more compiler jobs, each loading
#                  Foundation; the layers buy an app that imports the umbrella nothing in CPU)
# Measured 2026-11-26, same machine (load 10-17), main at 1265d1d against the dups branch (one bounded
# loader, SocketAddresses, the trust modules on the layers), CPU seconds, before -> after (two runs):
#   AtprotoCrypto: 23.8 -> 23.5, 23.7 (the same modules)
#   XRPCRuntime:   34.6 -> 33.2, 33.1 (two more small modules, BoundedURLLoading and SocketAddresses,
#                  and a smaller XRPCAgents)
# Every consumer also builds the LexiconGen plugin's tool (the *-tool modules): SwiftPM compiles the
# tools of every plugin in the package graph, used or not. Before: LexGenKit (with the installer) and
# LexGenCommandLine; after: LexGenSchema, LexGenKit, AtprotoSyntax, SHA2 and LexGenCommandLine.
#
# The runtime and the whole SDK (swift build --target AtprotoLexicons, clean) beside ATProtoKit's clean
# debug build, alternating rounds, 2026-11-25 at 1265d1d: 82.0/69.6, 85.2/69.2, 98.7/86.9 CPU s, median
# 1.18x (1.14-1.23); of our ~104 s, the SDK modules take 65 %, the runtime 15 %, the plugin's tool 10 %,
# and LLVM's code generation is 61 % of all compiler time. docs/Performance.md has the profile.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ $# -gt 0 ] || set -- AtprotoCrypto XRPCRuntime
for product in "$@"; do
    consumer=$(mktemp -d)
    mkdir -p "$consumer/Sources/Consumer"
    cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Consumer", platforms: [.macOS(.v13)],
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "Consumer", dependencies: [.product(name: "$product", package: "$(basename "$root")")])]
)
MANIFEST
    echo "import $product" >"$consumer/Sources/Consumer/Consumer.swift"
    times=$(mktemp)
    /usr/bin/time -f '%e %U %S' -o "$times" swift build --package-path "$consumer" --scratch-path "$consumer/.build" >/dev/null
    read -r wall user sys <"$times"
    # A module was compiled when its build folder holds object files (SwiftPM makes a folder for every
    # target of the graph, compiled or not).
    modules=$(for dir in "$consumer"/.build/debug/*.build; do
        if compgen -G "$dir/*.o" >/dev/null; then basename "$dir" .build; fi
    done | sort | tr '\n' ' ')
    python3 -c "print(f'$product: wall {$wall:.1f} s, CPU {$user + $sys:.1f} s; modules: $modules')"
    rm -rf "$consumer" "$times"
done
