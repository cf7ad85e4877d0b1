#!/usr/bin/env bash
# Prints, per module of Sources/, its lines of Swift and its public top-level types (struct, enum,
# class, actor, protocol, typealias declared `public` or `open` at the start of a line), largest
# first: the figures issue 23 asks of each layer. `@_spi` declarations are not counted.
#
#   scripts/api-figures.sh [package folder]      (default: this package)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
printf '%-28s %7s %7s\n' module lines types
for dir in Sources/*/; do
    module=$(basename "$dir")
    files=$(find "$dir" -name '*.swift' -not -path '*/.docc/*')
    [ -n "$files" ] || continue
    lines=$(cat $files | wc -l)
    types=$(cat $files | grep -vE '^@_spi' | grep -cE '^(@[A-Za-z_]+(\([^)]*\))? +)*(public|open) +(final +|indirect +)*(struct|enum|class|actor|protocol|typealias) ' || true)
    printf '%-28s %7d %7d\n' "$module" "$lines" "$types"
done | sort -k2 -nr
