#!/usr/bin/env bash
# Regenerates the committed SDK: each namespace module's Swift (Sources/<Module>/Generated/) from the
# committed lexicons/, with the module's lexgen.json (which lexicons it generates) and the modules it
# depends on imported, as Package.swift declares them. Files are rewritten only when their bytes change.
#   scripts/generate-sdk.sh           regenerate in place
#   scripts/generate-sdk.sh --check   regenerate into a scratch folder and fail on any difference from
#                                     what is committed (CI), printing the command that refreshes it
set -euo pipefail
cd "$(dirname "$0")/.."

# Module, then the modules whose lexicons it imports (its dependencies in Package.swift).
modules=(
    "ComAtprotoLexicons"
    "AppBskyLexicons ComAtprotoLexicons"
    "ChatBskyLexicons AppBskyLexicons ComAtprotoLexicons"
    "ToolsOzoneLexicons ChatBskyLexicons AppBskyLexicons ComAtprotoLexicons"
    "OtherAtprotoLexicons AppBskyLexicons ComAtprotoLexicons"
)

check=false
[ "${1:-}" = --check ] && check=true
swift build --product lexgen >/dev/null
lexgen=$(swift build --product lexgen --show-bin-path)/lexgen
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

status=0
for line in "${modules[@]}"; do
    read -r module dependencies <<<"$line"
    imports=()
    for dependency in $dependencies; do imports+=(--import "$dependency=Sources/$dependency/lexgen.json"); done
    output="Sources/$module/Generated"
    if $check; then
        mkdir -p "$scratch/$module"
        [ -d "$output" ] && cp -R "$output/." "$scratch/$module/"
        output="$scratch/$module"
    fi
    "$lexgen" --config "Sources/$module/lexgen.json" --module-name "$module" --output "$output" --quiet \
        ${imports[@]+"${imports[@]}"}
    if $check && ! diff -r "Sources/$module/Generated" "$output" >"$scratch/$module.diff" 2>&1; then
        echo "error: Sources/$module/Generated differs from what lexgen generates from lexicons/:"
        head -40 "$scratch/$module.diff"
        status=1
    fi
done
if [ "$status" != 0 ]; then
    echo "error: the committed SDK is not what lexgen generates; refresh it with: scripts/generate-sdk.sh"
    exit 1
fi
$check && echo "generate-sdk: the committed SDK is what lexgen generates from lexicons/"
exit 0
