#!/usr/bin/env bash
# The test suite under a sanitizer: scripts/sanitize.sh address|thread [swift test --filter regex]
#
# Each sanitizer builds into a scratch folder of its own (.build-asan, .build-tsan: a whole build of the
# package and its generated SDK, several minutes the first time), so the normal build is kept. A filter
# runs a subset, e.g.
#   scripts/sanitize.sh thread 'XRPCRuntimeTests|AtprotoIdentityResolutionTests'
# Any report fails the run: halt_on_error stops the test process at the first one, and the log is
# kept in the scratch folder. The integration tests run when ATPROTO_PDS_URL is set (scripts/pds.sh);
# CI runs `scripts/sanitize.sh thread` after the normal tests, with the PDS they used.
#
# ThreadSanitizer, without a filter (as CI runs it):
# - first the planted race (Tests/XRPCRuntimeTests/PlantedRaceTests.swift, skipped in normal runs) must
#   be reported: a sanitizer that does not watch would make every clean run worthless;
# - then the whole suite, but for the five single-threaded arithmetic sweeps below: no thread in
#   them, so nothing for the sanitizer to find, and they take 140 of its 340 seconds (the normal
#   tests run them in full). Their code runs concurrently in other tests, which stay in.
# scripts/tsan-suppressions.txt holds the toolchain's false positives, each with why.
#
# SANITIZE_TRAITS=<comma-separated traits> builds and tests with those package traits on (CI turns on
# all three, so the suite under ThreadSanitizer includes the signer, the NIO transport and the
# Hummingbird server, and no other build compiles the package with traits). The build's output is
# kept in <scratch>/build.log, for a check of its warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: scripts/sanitize.sh address|thread [filter]}
filter=${2:-}
case "$sanitizer" in
address) scratch=.build-asan ;;
thread) scratch=.build-tsan ;;
*) echo "unknown sanitizer $sanitizer (address or thread)"; exit 2 ;;
esac
mkdir -p "$scratch"
log=$scratch/sanitize.log
arguments=(--scratch-path "$scratch" --sanitize="$sanitizer")
[ -z "${SANITIZE_TRAITS:-}" ] || arguments+=(--traits "$SANITIZE_TRAITS")
build_arguments=("${arguments[@]}")
# The tests run what was just built: `swift test` would build again, and with the three traits on
# it was seen compiling the whole package again (SwiftPM passes the traits' -D flags in an order that
# is not the same from one command to the next).
arguments+=(--skip-build)
[ -z "$filter" ] || arguments+=(--filter "$filter")
# Leak checking is off: the Swift runtime's metadata caches and Foundation's globals stay reachable
# only through pointers LeakSanitizer does not follow, and would be reported at exit. The Swift
# backtracer waits on a crash; the sanitizer's own report is enough.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan-suppressions.txt"
reports="^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)"

build_start=$SECONDS
swift build --build-tests "${build_arguments[@]}" 2>&1 | tee "$scratch/build.log"
echo "the $sanitizer-sanitized build took $((SECONDS - build_start)) s"

if [ "$sanitizer" = thread ] && [ -z "$filter" ]; then
    planted=$scratch/planted-race.log
    ATPROTO_PLANTED_RACE=1 swift test "${arguments[@]}" --filter PlantedRaceTests >"$planted" 2>&1 || true
    if ! grep -q "^WARNING: ThreadSanitizer: .*race" "$planted"; then
        cat "$planted"
        echo "error: ThreadSanitizer did not report the planted race (PlantedRaceTests, log above): it is not watching"
        exit 1
    fi
    echo "ThreadSanitizer reported the planted race; now the suite"
    arguments+=(
        --skip 'ScalarMultiplicationTests.testLinearCombinationMatchesDoubleAndAddOn'
        --skip 'ScalarMultiplicationTests.testGeneratorTablesHoldTheOddMultiples'
        --skip 'SignatureVerificationTests.testEveryOwnVectorIsAnsweredAsOpenSSLAndAtprotoRulesSay'
        --skip 'SplicedInversionTests.testProvesWhatTheTreeProvesAndNothingElse'
    )
fi

status=0
swift test "${arguments[@]}" 2>&1 | tee "$log" || status=$?
if grep -E "$reports" "$log"; then
    echo "error: $sanitizer sanitizer reports (full log: $log)"
    exit 1
fi
exit "$status"
