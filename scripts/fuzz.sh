#!/usr/bin/env bash
# libFuzzer over every parser of the package (Fuzz/, a package of its own that depends on this one).
#
#   scripts/fuzz.sh build                      build both fuzz executables (release, fuzzer + address)
#   scripts/fuzz.sh seeds                      (re)make the seed corpora from ../shared (+ the PDS if up)
#   scripts/fuzz.sh run <seconds> [target...]  fuzz each target (default: all) for <seconds>
#   scripts/fuzz.sh selftest                   a planted bug one mutation from its seed must be found
#   scripts/fuzz.sh list                       the targets
#
# Corpora live in .build-fuzz/corpus/<target> (git-ignored): seeds are copied in from ../shared and,
# when ATPROTO_PDS_URL is set, from the shared PDS; what libFuzzer adds stays there between runs.
# Crashes land in .build-fuzz/artifacts/<target>/; run the executable on one to reproduce it:
#   SWIFT_BACKTRACE=enable=no .build-fuzz/release/atproto-fuzz <target> <crash file>
# Each run prints one summary line per target: executions, coverage (cov, ft), corpus size, crashes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${ATPROTO_FUZZ_SCRATCH:-$root/.build-fuzz}
shared=${ATPROTO_SHARED:-$root/../shared}

# Targets and the executable that holds each.
core_targets="json dagcbor car websocket event-frame formats did-document multikey signature dns repository mst mst-ops firehose oauth-metadata oauth-token jws lexicon lexicon-install service-auth xrpc-router"
sdk_targets="record feed-page frame-writing"

executable_for() {
    case " $sdk_targets " in *" $1 "*) echo atproto-fuzz-sdk ;; *) echo atproto-fuzz ;; esac
}

build() {
    # Coverage for libFuzzer plus AddressSanitizer on every module, and libFuzzer's runtime without its
    # main (FuzzDriver calls LLVMFuzzerRunDriver). Not -sanitize=fuzzer: SwiftPM applies -Xswiftc to the
    # plugin's host tool (lexgen) too, and linking libFuzzer's main beside an executable's own fails
    # (ld.gold: internal error in format_file_lineno). ASan's leak check stays off while the plugin runs.
    local swiftc runtime
    swiftc=$(readlink -f "$(command -v swiftc)")
    runtime=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a | head -1)
    local products=("$@")
    [ ${#products[@]} -gt 0 ] || products=(atproto-fuzz atproto-fuzz-sdk)
    for product in "${products[@]}"; do
        # swift-build itself has crashed here once (SIGSEGV in libdispatch's event loop, before compiling
        # anything): a crash of the build tool, not of our code, gets up to two more attempts.
        local attempt status
        for attempt in 1 2 3; do
            status=0
            ASAN_OPTIONS=detect_leaks=0 swift build --package-path Fuzz --scratch-path "$scratch" -c release \
                -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
                -Xswiftc -enable-testing -Xlinker "$runtime" -Xlinker -lstdc++ --product "$product" || status=$?
            [ "$status" -gt 128 ] || break
            echo "fuzz.sh: swift build of $product died of signal $((status - 128)) (attempt $attempt); again" >&2
        done
        [ "$status" -eq 0 ] || return "$status"
    done
}

seeds() {
    python3 scripts/fuzz-seeds.py --shared "$shared" --out "$scratch/corpus"
}

# Fuzzes one target for $2 seconds into its log (its summary is printed by `run`).
fuzz_one() {
    local target=$1 seconds=$2
    local exe
    exe=$scratch/release/$(executable_for "$target")
    mkdir -p "$scratch/corpus/$target" "$scratch/artifacts/$target" "$scratch/logs"
    # The Swift runtime's backtracer would wait on each crash; libFuzzer and ASan report instead.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
        "$exe" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=262144 \
        -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target/" \
        "$scratch/corpus/$target" >"$scratch/logs/$target.log" 2>&1 || true
}

run() {
    local seconds=$1
    shift
    local targets=("$@")
    [ ${#targets[@]} -gt 0 ] || read -r -a targets <<<"$core_targets $sdk_targets"
    seeds
    # Targets run FUZZ_JOBS at a time (default: one per core): each fuzzer is one thread, so on CI's
    # two cores the run takes half the wall time for the same executions per target.
    local jobs=${FUZZ_JOBS:-$(nproc)}
    for target in "${targets[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        fuzz_one "$target" "$seconds" &
    done
    wait
    local failed=0
    for target in "${targets[@]}"; do
        local log=$scratch/logs/$target.log
        local crashes execs cov ft units
        crashes=$(find "$scratch/artifacts/$target" -type f | wc -l)
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
        ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
        units=$(find "$scratch/corpus/$target" -type f | wc -l)
        printf '%-15s execs=%-10s cov=%-6s ft=%-7s corpus=%-6s crashes=%s\n' \
            "$target" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$units" "$crashes"
        if [ "$crashes" -gt 0 ] || ! grep -q '^stat::number_of_executed_units' "$log"; then
            failed=1
            echo "  -> see $log and $scratch/artifacts/$target/"
        fi
    done
    return $failed
}

selftest() {
    # A fuzzer whose instrumentation silently broke would pass every run: it must find this one. A
    # search is random: with inputs of any length, one run in ten missed it within 120 s (1.5M
    # executions: libFuzzer spent them on longer inputs, other DAG-CBOR values) while others found it in
    # a few hundred. Inputs are held to the seed's length, five bytes, the planted text's (-max_len=5,
    # -len_control=0), so the executions go to the bytes that matter; up to three runs (each with a
    # random seed), and a fuzzer that cannot find it (which misses every time) still fails.
    local dir=$scratch/selftest attempt
    for attempt in 1 2 3; do
        rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
        printf 'dbuga' >"$dir/corpus/seed"  # DAG-CBOR: the text "buga", one byte from the bug
        if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$scratch/release/atproto-fuzz" planted \
            -max_len=5 -len_control=0 -max_total_time=60 -artifact_prefix="$dir/artifacts/" "$dir/corpus" \
            >"$dir/log" 2>&1
        then
            grep -q "the planted bug was found" "$dir/log" || { echo "error: the run failed otherwise ($dir/log)"; return 1; }
            echo "selftest: the planted bug was found after $(grep -oE '^#[0-9]+' "$dir/log" | tail -1 | tr -d '#') runs (attempt $attempt)"
            return 0
        fi
        echo "selftest: attempt $attempt did not find the planted bug in 60 s"
    done
    echo "error: the planted bug was not found in three runs of 60 s (last log: $dir/log)"
    return 1
}

case "${1:-}" in
build) shift; build "$@" ;;
seeds) seeds ;;
run) shift; run "$@" ;;
selftest) selftest ;;
list) echo $core_targets $sdk_targets | tr ' ' '\n' ;;
*) sed -n '2,15p' "$0"; exit 2 ;;
esac
