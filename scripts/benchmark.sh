#!/usr/bin/env bash
# Prints the spine's figures (not a test): corpus generation time with a debug and a release lexgen,
# and the clean debug build time of XRPCRuntime + AtprotoLexicons.
#
#   scripts/benchmark.sh [runs]      (default 5 runs per generation figure)
#
# Needs the standard lexicons installed (swift run lexgen install --from ../shared/lexicons/atproto).
# Uses its own build folders (.build-bench-*), so it never disturbs .build.
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

echo "== clean debug build of XRPCRuntime + AtprotoLexicons, from an empty build folder"
# Everything a user's first build does: SwiftPM builds the plugin's lexgen tool (always in debug),
# runs it, then compiles XRPCRuntime and the generated SDK. The line "Building for debugging..." marks
# the end of the plugin-tool phase, so the figure is printed in total and split there.
rm -rf .build-bench-sdk
swift build --scratch-path .build-bench-sdk --target AtprotoLexicons 2>&1 | python3 -c '
import os, sys, time
start = time.monotonic()
tools = None
for line in sys.stdin:
    if tools is None and line.startswith("Building for debugging"):
        tools = time.monotonic() - start
    if "error:" in line:
        sys.stderr.write(line)
total = time.monotonic() - start
tools = tools or 0.0
print(f"clean build: {total:.1f} s on {os.cpu_count()} cores "
      f"(plugin tool {tools:.1f} s, then XRPCRuntime + plugin run + AtprotoLexicons {total - tools:.1f} s)")'
rm -rf .build-bench-sdk

echo "== clean debug build of an app that generates only what it uses (Examples/FeedReader: 5 NSIDs, 24 lexicons"
echo "   with their refs, plus its own; XRPCRuntime + plugin tool + its module), from an empty build folder"
swift run lexgen install app.bsky.feed.getTimeline app.bsky.feed.post app.bsky.actor.getProfile \
    com.atproto.repo.createRecord com.atproto.repo.listRecords --from ../shared/lexicons/atproto \
    --to Examples/FeedReader/Sources/FeedReader/lexicons \
    --manifest Examples/FeedReader/Sources/FeedReader/lexicons.manifest.json >/dev/null 2>&1
rm -rf .build-bench-feedreader
start=$(seconds)
swift build --package-path Examples/FeedReader --scratch-path .build-bench-feedreader --target FeedReader >/dev/null
end=$(seconds)
python3 -c "print(f'FeedReader clean build: {$end - $start:.1f} s (compare with the whole SDK above)')"
