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

echo "== clean debug build of XRPCRuntime + AtprotoLexicons (plugin included, lexgen prebuilt)"
rm -rf .build-bench-sdk
swift build --scratch-path .build-bench-sdk --product lexgen >/dev/null
start=$(seconds)
swift build --scratch-path .build-bench-sdk --target AtprotoLexicons >/dev/null
end=$(seconds)
python3 -c "print(f'clean build: {$end - $start:.1f} s on $(nproc) cores')"
rm -rf .build-bench-sdk
