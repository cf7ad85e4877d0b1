#!/usr/bin/env bash
# Prints the spine's figures (not a test): corpus generation time with a debug and a release lexgen;
# the clean debug build time of XRPCRuntime + AtprotoLexicons beside a fixed anchor built in the same
# run (scripts/make-anchor-package.py: 400 synthetic structs, nothing but the toolchain), as a ratio
# that stays comparable across machines and loads; and the peak memory of the biggest compiler
# processes of a clean release build of the SDK (scripts/peak-rss.py reads each one's VmHWM).
#
#   scripts/benchmark.sh [runs]      (default 5 runs per generation figure; RELEASE=0 skips the release build)
#
# Needs the standard lexicons installed (swift run lexgen install --from ../shared/lexicons/atproto).
# Uses its own build folders (.build-bench-*), so it never disturbs .build.
#
# Measured on the 2-core Linux machine (Swift 6.3.1, shared with other builds: load 1-5), 2026-11-25,
# clean folders, back to back in one run each (/usr/bin/time; swift build --target AtprotoLexicons):
#   debug, SDK in one module (e9aa59e) vs one module per namespace (92928c9), wall / user CPU:
#     idle:    50.5 s / 81.3 s  vs  52.7 s / 84.5 s      (anchor, first version: 34.8 s)
#     loaded:  65.8 / 83.8, 61.1 / 84.1, 97.1 / 92.5  vs  69.2 / 84.4, 67.1 / 89.4, 110.3 / 102.9
#     so the split costs 4-14 % wall, 1-11 % CPU: SwiftPM starts a module once its dependencies are
#     wholly compiled, and the namespaces are a chain (com.atproto <- app.bsky <- chat.bsky <- tools.ozone).
#   anchor (this version) before the last two loaded pairs: 62.6 s, then 38.8 s: ratios one module /
#     per namespace 0.98 / 1.07, then 2.50 / 2.84 (the load changed within the run); this script's
#     run: anchor 61.6 s, SDK 88.7 s, ratio 1.44. On a shared machine take the median of several runs.
#   release, peak memory of one compiler process (scripts/peak-rss.py; GNU time's max RSS agrees):
#     one module 1959 MiB (AtprotoLexicons, 256 s wall, 230 s user); per namespace 859-868 MiB
#     (AppBskyLexicons; ToolsOzoneLexicons 614, XRPCRuntime 530, ComAtprotoLexicons 506; 210-237 s wall).
#   XRPCRuntime alone: 23.5 s user of the build's ~85; the SDK waits for all of it (about 8 s of 50 s
#     wall idle), but what generated code does not need (sessions, transport, retries, the POSIX
#     WebSocket client) is about a quarter of it, so splitting it would save about 2 s on 2 cores.
#   ATProtoKit: its upstream snapshot is too large to fetch here, but the fork KC-2001MS/ATProtoKit at
#     ccca511b has the same sources and builds here; measured by hand beside ours (never built by this
#     script), our clean debug build of the runtime and SDK is 1.18x its CPU time: docs/Performance.md.
#     2026-11-27 at cd2d43a (load ~2, six alternating rounds): runtime + SDK 1.13x (1.04-1.20),
#     Examples/FeedReader (runtime, plugin tool, its 25 lexicons) 0.45x (0.44-0.48), runtime 0.37x.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

seconds() { python3 -c 'import time; print(f"{time.monotonic():.4f}")'; }

# Prints "min median max" of running "$@" $runs times.
time_runs() {
    local values=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(seconds)
        "$@" >/dev/null
        end=$(seconds)
        values+=("$(python3 -c "print(f'{$end - $start:.3f}')")")
    done
    printf '%s\n' "${values[@]}" | sort -n | python3 -c '
import sys
v = [float(x) for x in sys.stdin]
print(f"min {v[0]:.3f} s  median {v[len(v)//2]:.3f} s  max {v[-1]:.3f} s  ({len(v)} runs)")'
}

echo "== generating the standard corpus ($(find lexicons -name '*.json' | wc -l) files)"
swift build --scratch-path .build-bench-tools -c debug --product lexgen >/dev/null
swift build --scratch-path .build-bench-tools -c release --product lexgen >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
debug_bin=$(swift build --scratch-path .build-bench-tools -c debug --show-bin-path)/lexgen
release_bin=$(swift build --scratch-path .build-bench-tools -c release --show-bin-path)/lexgen
# Each run writes into a fresh folder so every file is rendered and written.
gen() { rm -rf "$out/gen"; "$1" lexicons --output "$out/gen" --quiet; }
printf 'debug lexgen:   '; time_runs gen "$debug_bin"
printf 'release lexgen: '; time_runs gen "$release_bin"

echo "== clean debug builds, back to back: the anchor, then XRPCRuntime + AtprotoLexicons"
# Prints "<seconds> <line>": the wall time of a clean build, and the seconds until the line
# "Building for debugging..." (the end of SwiftPM's plugin-tool phase; 0 when there is none).
timed_build() {
    "$@" 2>&1 | python3 -c '
import sys, time
start = time.monotonic()
tools = 0.0
for line in sys.stdin:
    if not tools and line.startswith("Building for debugging"):
        tools = time.monotonic() - start
    if "error:" in line:
        sys.stderr.write(line)
print(f"{time.monotonic() - start:.1f} {tools:.1f}")'
}
anchor=$(mktemp -d)
trap 'rm -rf "$out" "$anchor"' EXIT
python3 scripts/make-anchor-package.py "$anchor"
result=$(timed_build swift build --package-path "$anchor" --scratch-path "$anchor/.build")
anchor_seconds=${result% *}
rm -rf .build-bench-sdk
# Everything a user's first build does: SwiftPM builds the plugin's lexgen tool (always in debug),
# runs it once per namespace module, then compiles XRPCRuntime and the generated SDK.
result=$(timed_build swift build --scratch-path .build-bench-sdk --target AtprotoLexicons)
sdk_seconds=${result% *}
tool_seconds=${result#* }
rm -rf .build-bench-sdk
echo "anchor (scripts/make-anchor-package.py): $anchor_seconds s on $(nproc) cores"
echo "XRPCRuntime + AtprotoLexicons: $sdk_seconds s (plugin tool $tool_seconds s, then the runtime, plugin runs and SDK)"
python3 -c "print(f'ratio SDK / anchor: {$sdk_seconds / $anchor_seconds:.2f}')"

if [ "${RELEASE:-1}" != 0 ]; then
    echo "== clean release build of XRPCRuntime + AtprotoLexicons: peak memory per compiler process"
    # Whole-module optimization: one swift-frontend per module, so the biggest module sets the peak.
    rm -rf .build-bench-release
    scripts/peak-rss.py --top 6 -- swift build -c release --scratch-path .build-bench-release \
        --target AtprotoLexicons >/dev/null
    rm -rf .build-bench-release
fi

echo "== clean debug build of an app that generates only what it uses (Examples/FeedReader: 5 NSIDs, 24 lexicons"
echo "   with their refs, plus its own; XRPCRuntime + plugin tool + its module), from an empty build folder"
swift run lexgen install app.bsky.feed.getTimeline app.bsky.feed.post app.bsky.actor.getProfile \
    com.atproto.repo.createRecord com.atproto.repo.listRecords --from ../shared/lexicons/atproto \
    --to Examples/FeedReader/Sources/FeedReader/lexicons \
    --manifest Examples/FeedReader/Sources/FeedReader/lexicons.manifest.json >/dev/null 2>&1
rm -rf .build-bench-feedreader
result=$(timed_build swift build --package-path Examples/FeedReader --scratch-path .build-bench-feedreader --target FeedReader)
app_seconds=${result% *}
rm -rf .build-bench-feedreader
echo "FeedReader: $app_seconds s"
python3 -c "print(f'ratio FeedReader / whole SDK: {$app_seconds / $sdk_seconds:.2f}; FeedReader / anchor: {$app_seconds / $anchor_seconds:.2f}')"
