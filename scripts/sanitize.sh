#!/usr/bin/env bash
# The test suite under a sanitizer: scripts/sanitize.sh address|thread [swift test --filter regex]
#
# Each sanitizer builds into a scratch folder of its own (.build-asan, .build-tsan: a whole build of the
# package and its generated SDK, several minutes the first time). A filter runs a subset, e.g.
#   scripts/sanitize.sh thread 'XRPCRuntimeTests|AtprotoIdentityResolutionTests'
# Any report fails the run: halt_on_error stops the test process at the first one, and the log is
# kept in the scratch folder. The integration tests run when ATPROTO_PDS_URL is set (scripts/pds.sh).
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
[ -z "$filter" ] || arguments+=(--filter "$filter")
# Leak checking is off: the Swift runtime's metadata caches and Foundation's globals stay reachable
# only through pointers LeakSanitizer does not follow, and would be reported at exit. The Swift
# backtracer waits on a crash; the sanitizer's own report is enough.
status=0
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    swift test "${arguments[@]}" 2>&1 | tee "$log" || status=$?
if grep -E "^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)" "$log"; then
    echo "error: $sanitizer sanitizer reports (full log: $log)"
    exit 1
fi
exit "$status"
