#!/usr/bin/env bash
# Every change to the public API (api/*.txt) gets a CHANGELOG entry: the newest commit that changed
# api/ must be followed, or accompanied, by a commit that changed CHANGELOG.md. Uncommitted changes
# to api/ need an uncommitted change to CHANGELOG.md beside them.
# Usage: scripts/check-changelog.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    echo "check-changelog: a shallow clone has not the history to compare; skipped"
    exit 0
fi
if ! git diff --quiet HEAD -- api/ && git diff --quiet HEAD -- CHANGELOG.md; then
    echo "error: api/ changed (uncommitted) and CHANGELOG.md did not: add an entry saying what changed and how to migrate"
    exit 1
fi
last_api=$(git log -1 --format=%H -- api/)
last_changelog=$(git log -1 --format=%H -- CHANGELOG.md)
[ -z "$last_api" ] && exit 0
if [ -z "$last_changelog" ] || ! git merge-base --is-ancestor "$last_api" "$last_changelog"; then
    echo "error: $(git log -1 --format='%h (%s)' "$last_api" | cut -c1-120) changed api/ after the last"
    echo "CHANGELOG.md entry: add one saying what changed and how to migrate"
    exit 1
fi
echo "check-changelog: the newest API change ($(git log -1 --format=%h "$last_api")) has its CHANGELOG entry"
