#!/usr/bin/env bash
# Builds a DocC archive for each module with a catalog (Sources/<Module>/<Module>.docc, where SwiftPM's
# docc plugin and the Swift Package Index look) with the toolchain's docc (no plugin dependency).
#
# Usage: scripts/build-docs.sh [scratch-path]   (default .build; run after `swift build`, which made
#        the modules: symbol graphs are extracted from them, nothing is compiled again)
# Output: <scratch-path>/docs/<Module>.doccarchive and a log per module. A warning of a catalog page
# (Sources/<Module>/<Module>.docc: a topic that names no symbol...) fails the run for every module; for
# the modules in STRICT (default below) so does any warning of a doc comment. Other modules' doc
# comments, which link to symbols of modules a single-module archive cannot see, are counted.
#
# AtprotoLexicons: its full symbol graph is the generated SDK (79 MB of JSON). Measured on the 2-core
# Linux machine: converting it all took 168 s (720 MB peak memory) and wrote a 678 MB archive, against
# 5 s and 2.9 MB for the hand-written part, so the catalog documents that part (symbols declared in
# Sources/AtprotoLexicons/*.swift and the types they extend); generated types follow their lexicons. Set
# DOCS_FULL_SDK=1 to convert the whole graph anyway. MODULES="A B" builds only those; DOCS_OUTPUT
# puts the archives elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-.build}
modules="$scratch/debug/Modules"
[ -d "$modules" ] || modules="$scratch/debug"
output="${DOCS_OUTPUT:-$scratch/docs}"
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
strict=${STRICT:-"AtprotoSyntax AtprotoData XRPCWebSockets XRPCCore XRPCAgents HTTPTransport XRPCRuntime XRPCTesting AtprotoLexicons AtprotoCrypto AtprotoRepository"}
rm -rf "$output"
mkdir -p "$output"
# Every module with a catalog (Sources/<Module>/<Module>.docc), each of which .spi.yml must name so the
# Swift Package Index builds it too.
catalogs=$(find Sources -mindepth 2 -maxdepth 2 -name '*.docc' | sed 's|.*/||; s|\.docc$||' | sort)
c_modules=()
for map in "$scratch"/debug/*.build/module.modulemap; do
    [[ "$map" == *-tool.build/* ]] && continue
    [ -e "$map" ] && c_modules+=(-I "$(dirname "$map")")
done
for module in $catalogs; do
    grep -qE "^ *- $module\$" .spi.yml || { echo "error: .spi.yml does not name the documentation target $module"; exit 1; }
done
for module in ${MODULES:-$catalogs}; do
    start=$(date +%s%N)
    graphs="$output/symbol-graphs/$module"
    mkdir -p "$graphs"
    # C targets (CSHA256Accel) are found through the module maps SwiftPM wrote beside their objects.
    swift-symbolgraph-extract -module-name "$module" -I "$modules" "${c_modules[@]}" -target "$triple" \
        -output-dir "$graphs" -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols
    if [ "$module" = AtprotoLexicons ] && [ "${DOCS_FULL_SDK:-0}" != 1 ]; then
        python3 scripts/filter-symbol-graph.py "$graphs" "Sources/AtprotoLexicons/"
    fi
    docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
        --output-path "$output/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.atproto.swift.$module" >"$output/$module.log" 2>&1 || {
        cat "$output/$module.log"
        echo "error: docc could not convert the $module catalog (log above)"
        exit 1
    }
    # Each diagnostic is a "warning:" or "error:" line followed by its "--> <file>" line.
    problems=$(grep -A1 -E '^(warning|error):' "$output/$module.log" | grep -cE -- '--> .*\.(md|swift):' || true)
    # docc names catalog files relative to the catalog (`--> Module.md:27:5`), sources by `../` paths.
    catalog=$(grep -A1 -E '^(warning|error):' "$output/$module.log" | grep -cE -- '--> [A-Za-z]' || true)
    if [ "$catalog" -gt 0 ] || { [ "$problems" -gt 0 ] && [[ " $strict " == *" $module "* ]]; }; then
        cat "$output/$module.log"
        echo "error: the $module documentation has $problems warnings (log above)"
        exit 1
    fi
    elapsed=$((($(date +%s%N) - start) / 1000000))
    note=""
    [ "$problems" -gt 0 ] && note="  ($problems doc-comment warnings: $output/$module.log)"
    printf '%-28s %3d.%03d s%s\n' "$module" $((elapsed / 1000)) $((elapsed % 1000)) "$note"
done
echo "docs: $output/<Module>.doccarchive"
