#!/usr/bin/env bash
# The committed digest of the public API, one file per documented module (api/<Module>.txt, written by
# scripts/api-digest.py from the module's symbol graph), so that a change to public API is a diff to
# review. Run after scripts/build-docs.sh, which extracts the symbol graphs (CI does both).
#
#   scripts/api-digest.sh            compare: prints the difference and fails when the API moved
#   scripts/api-digest.sh --update   rewrite api/ from the current build (then review and commit it,
#                                    with a CHANGELOG.md entry for what changed)
#
# DOCS_OUTPUT is where build-docs.sh wrote (default .build/docs). The graphs are Linux's, as CI's are:
# API under `#if canImport(Darwin)` is not in the digest.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs="${DOCS_OUTPUT:-.build/docs}/symbol-graphs"
[ -d "$graphs" ] || { echo "error: no symbol graphs in $graphs: run scripts/build-docs.sh first"; exit 1; }
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
for folder in "$graphs"/*/; do
    module=$(basename "$folder")
    python3 scripts/api-digest.py "$folder" >"$fresh/$module.txt"
done
if [ "${1:-}" = --update ]; then
    rm -rf api
    mkdir -p api
    cp "$fresh"/*.txt api/
    echo "api/: $(ls api | wc -l) modules written; review with git diff api/ and commit"
    exit 0
fi
if ! diff -ru api "$fresh" >"$fresh.diff"; then
    sed "s|$fresh|(this build)|g" "$fresh.diff"
    rm -f "$fresh.diff"
    echo "error: the public API differs from api/ (above). If the change is intended, run"
    echo "  scripts/build-docs.sh && scripts/api-digest.sh --update"
    echo "and commit api/ with a CHANGELOG.md entry; otherwise restore the API."
    exit 1
fi
rm -f "$fresh.diff"
echo "public API: matches api/ ($(ls "$fresh" | wc -l) modules)"
