#!/usr/bin/env bash
# Compiles the package's C target (Sources/CSHA256Accel) for the Apple platforms and arm64 Linux,
# which CI (x86-64 Linux) never builds otherwise: arm64.c, the SHA-256 of every Apple Silicon device,
# would compile to nothing here. Swift's clang cross-compiles C with its own headers (stddef, stdint,
# arm_neon, cpuid, immintrin); the OS declarations the target uses beyond them are stubbed below,
# copied by hand from Darwin's sys/sysctl.h and glibc's sys/auxv.h, with the two stdlib.h functions
# that immintrin.h's mm_malloc.h declares against. Warnings are errors. Each object
# must define the entry points of its architecture, so a file compiled to nothing fails.
# Usage: scripts/cross-compile-c.sh   (about a second)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stubs/sys"
cat >"$work/stubs/sys/sysctl.h" <<'EOF'
#include <stddef.h>
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
EOF
cat >"$work/stubs/stdlib.h" <<'EOF'
#include <stddef.h>
void *malloc(size_t size);
void free(void *pointer);
EOF
cat >"$work/stubs/sys/auxv.h" <<'EOF'
unsigned long getauxval(unsigned long type);
#define AT_HWCAP 16
EOF

source=Sources/CSHA256Accel
nm="$(dirname "$(command -v clang)")/llvm-nm"  # the toolchain's, beside its clang
status=0
for target in arm64-apple-macos13 arm64-apple-ios16 arm64-apple-xros1 x86_64-apple-macos13 aarch64-unknown-linux-gnu; do
    case $target in
    x86_64-*) accelerated=x86.c ;;
    *) accelerated=arm64.c ;;
    esac
    for file in "$source"/*.c; do
        object="$work/$target-$(basename "$file" .c).o"
        if ! clang --target="$target" -std=gnu11 -O1 -Wall -Wextra -Werror -nostdlibinc -I"$work/stubs" \
            -I"$source/include" -I"$source" -c "$file" -o "$object"; then
            echo "error: $file does not compile for $target"
            status=1
            continue
        fi
        if [ "$(basename "$file")" = "$accelerated" ]; then
            for symbol in csha256_accelerated csha256_compress; do
                if ! "$nm" --defined-only "$object" | grep -qE " T _?$symbol\$"; then
                    echo "error: $file compiled for $target defines no $symbol"
                    status=1
                fi
            done
        fi
    done
    [ $status -eq 0 ] && echo "$target: $(ls "$source"/*.c | wc -l) C files compiled"
done
exit $status
