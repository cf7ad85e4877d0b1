#!/usr/bin/env bash
# The committed digest of the public API, one file per documented product (api/<Module>.txt), so that
# a change to public API is a diff to review. A module's digest is written by scripts/api-digest.py
# from its symbol graph; lexgen's (api/lexgen.txt) is the help of each of its commands, since its
# command line is its interface. Run after scripts/build-docs.sh, which extracts the symbol graphs
# (CI does both).
#
#   scripts/api-digest.sh            compare: prints the difference and fails when the API moved
#   scripts/api-digest.sh --update   rewrite api/ from the current build (then review and commit it,
#                                    with a CHANGELOG.md entry for what changed)
#
# DOCS_OUTPUT is where build-docs.sh wrote (default .build/docs). LEXGEN is the lexgen binary to ask
# (default: debug/lexgen beside DOCS_OUTPUT's folder, so <scratch>/debug/lexgen for <scratch>/docs).
# The graphs are Linux's, as CI's are: API under `#if canImport(Darwin)` is not in the digest.
#
# The trait products (SwiftCryptoSigner, NIOWebSocketTransport, NIOHTTPTransport, XRPCHummingbird) have graphs only when
# build-docs.sh built them (TRAIT_SCRATCH); without, their digests are neither compared nor rewritten,
# and the run says so.
set -euo pipefail
cd "$(dirname "$0")/.."
trait_modules="SwiftCryptoSigner NIOWebSocketTransport NIOHTTPTransport XRPCHummingbird"
docs="${DOCS_OUTPUT:-.build/docs}"
graphs="$docs/symbol-graphs"
lexgen="${LEXGEN:-$(dirname "$docs")/debug/lexgen}"
[ -d "$graphs" ] || { echo "error: no symbol graphs in $graphs: run scripts/build-docs.sh first"; exit 1; }
[ -x "$lexgen" ] || { echo "error: no lexgen binary at $lexgen: build it (swift build) or set LEXGEN"; exit 1; }
fresh=$(mktemp -d)
trap 'rm -rf "$fresh" "$fresh.diff"' EXIT
for folder in "$graphs"/*/; do
    module=$(basename "$folder")
    python3 scripts/api-digest.py "$folder" >"$fresh/$module.txt"
done
# lexgen: `lexgen --help`, then each command's help, written out only where it differs from the first.
{
    echo "\$ lexgen --help"
    "$lexgen" --help
    for command in generate install verify lint breaking; do
        echo
        echo "\$ lexgen $command --help"
        if "$lexgen" "$command" --help | cmp -s - <("$lexgen" --help); then
            echo "(the same as lexgen --help)"
        else
            "$lexgen" "$command" --help
        fi
    done
} >"$fresh/lexgen.txt"
# The trait products not built this time keep their committed digests out of the comparison.
missing=()
for module in $trait_modules; do
    [ -e "$fresh/$module.txt" ] && continue
    missing+=("$module")
    [ -e "api/$module.txt" ] && cp "api/$module.txt" "$fresh/$module.txt"
done
[ ${#missing[@]} -gt 0 ] && echo "note: ${missing[*]} not built (no TRAIT_SCRATCH for build-docs.sh): their digests are left as they are"
if [ "${1:-}" = --update ]; then
    rm -rf api
    mkdir -p api
    cp "$fresh"/*.txt api/
    echo "api/: $(ls api | wc -l) digests written; review with git diff api/ and commit"
    exit 0
fi
if ! diff -ru api "$fresh" >"$fresh.diff"; then
    sed "s|$fresh|(this build)|g" "$fresh.diff"
    echo "error: the public API differs from api/ (above). If the change is intended, run"
    echo "  TRAIT_SCRATCH=<a build with the traits on> scripts/build-docs.sh && scripts/api-digest.sh --update"
    echo "and commit api/ with a CHANGELOG.md entry; otherwise restore the API."
    exit 1
fi
echo "public API: matches api/ ($(ls "$fresh" | wc -l) digests)"
