#!/usr/bin/env bash
# Builds a DocC archive for each catalog (Sources/<Module>/<Module>.docc, where SwiftPM's docc plugin
# and the Swift Package Index look) with the toolchain's docc (no plugin dependency).
#
# Usage: scripts/build-docs.sh [scratch-path]   (default .build; run after `swift build`, which made
#        the modules: symbol graphs are extracted from them, nothing is compiled again)
# Output: <scratch-path>/docs/<Module>.doccarchive and a log per module. Any warning of a catalog page
# (Sources/<Module>/<Module>.docc: a topic that names no symbol...) or of a doc comment fails the run.
# STRICT="A B" limits the doc-comment check to those modules (catalog warnings always fail).
#
# The trait products (TRAIT_MODULES below) compile to empty modules unless their package traits are
# on, so their catalogs are built from another build, one with the traits on:
#   TRAIT_SCRATCH=<its scratch path>   e.g. after
#   swift build --scratch-path .build-traits --traits SwiftCryptoSigner,NIOWebSocketTransport,NIOHTTPTransport,XRPCHummingbird
# Without TRAIT_SCRATCH they are skipped (said so), and the rest is built as usual.
#
# A catalog whose landing page says `@TechnologyRoot` documents no module's symbols (lexgen: a command
# line and two plugins); it is converted from its articles alone.
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
trait_modules="SwiftCryptoSigner NIOWebSocketTransport NIOHTTPTransport XRPCHummingbird"
trait_scratch=${TRAIT_SCRATCH:-}
output="${DOCS_OUTPUT:-$scratch/docs}"
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$output"
mkdir -p "$output"
# Every catalog (Sources/<Module>/<Module>.docc), each of which .spi.yml must name so the Swift Package
# Index builds it too.
catalogs=$(find Sources -mindepth 2 -maxdepth 2 -name '*.docc' | sed 's|.*/||; s|\.docc$||' | sort)
strict=${STRICT:-$catalogs}
for module in $catalogs; do
    grep -qE "^ *- $module\$" .spi.yml || { echo "error: .spi.yml does not name the documentation target $module"; exit 1; }
done
if [ -n "$trait_scratch" ] && [ ! -d "$trait_scratch/debug" ]; then
    echo "error: TRAIT_SCRATCH=$trait_scratch holds no debug build"
    exit 1
fi
skipped=()
for module in ${MODULES:-$catalogs}; do
    start=$(date +%s%N)
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "error: no catalog $catalog"; exit 1; }
    from=$scratch
    if [[ " $trait_modules " == *" $module "* ]]; then
        if [ -z "$trait_scratch" ]; then
            skipped+=("$module")
            continue
        fi
        from=$trait_scratch
    fi
    symbols=()
    if ! grep -q '@TechnologyRoot' "$catalog/$module.md" 2>/dev/null; then
        modules="$from/debug/Modules"
        [ -d "$modules" ] || modules="$from/debug"
        # C targets are found through their module maps: the ones SwiftPM wrote beside their objects
        # (CSHA256Accel), and the ones of dependencies' C targets in their checkouts (the traits'
        # packages: _AtomicsShims, CNIOLinux, CCryptoBoringSSL...).
        c_modules=()
        for map in "$from"/debug/*.build/module.modulemap "$from"/checkouts/*/Sources/*/include/module.modulemap; do
            [[ "$map" == *-tool.build/* ]] && continue
            [ -e "$map" ] && c_modules+=(-I "$(dirname "$map")")
        done
        graphs="$output/symbol-graphs/$module"
        mkdir -p "$graphs"
        swift-symbolgraph-extract -module-name "$module" -I "$modules" "${c_modules[@]}" -target "$triple" \
            -output-dir "$graphs" -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols
        if [ "$module" = AtprotoLexicons ] && [ "${DOCS_FULL_SDK:-0}" != 1 ]; then
            python3 scripts/filter-symbol-graph.py "$graphs" "Sources/AtprotoLexicons/"
        fi
        symbols=(--additional-symbol-graph-dir "$graphs")
    fi
    docc convert "$catalog" "${symbols[@]}" \
        --output-path "$output/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.atproto.swift.$module" >"$output/$module.log" 2>&1 || {
        cat "$output/$module.log"
        echo "error: docc could not convert the $module catalog (log above)"
        exit 1
    }
    # Each diagnostic is a "warning:" or "error:" line followed by its "--> <file>" line.
    problems=$(grep -A1 -E '^(warning|error):' "$output/$module.log" | grep -cE -- '--> .*\.(md|swift):' || true)
    # docc names catalog files relative to the catalog (`--> Module.md:27:5`), sources by `../` paths.
    in_catalog=$(grep -A1 -E '^(warning|error):' "$output/$module.log" | grep -cE -- '--> [A-Za-z]' || true)
    if [ "$in_catalog" -gt 0 ] || { [ "$problems" -gt 0 ] && [[ " ${strict//$'\n'/ } " == *" $module "* ]]; }; then
        cat "$output/$module.log"
        echo "error: the $module documentation has $problems warnings (log above)"
        exit 1
    fi
    elapsed=$((($(date +%s%N) - start) / 1000000))
    note=""
    [ "$problems" -gt 0 ] && note="  ($problems doc-comment warnings: $output/$module.log)"
    [ ${#symbols[@]} -eq 0 ] && note="  (articles only)"
    printf '%-28s %3d.%03d s%s\n' "$module" $((elapsed / 1000)) $((elapsed % 1000)) "$note"
done
if [ ${#skipped[@]} -gt 0 ]; then
    echo "skipped the trait products ${skipped[*]} (empty modules without their package traits); to build"
    echo "their documentation, set TRAIT_SCRATCH=<scratch path of a build with --traits ${trait_modules// /,}>"
fi
echo "docs: $output/<Module>.doccarchive"
