#!/usr/bin/env bash
# Adopts this package exactly as an app by URL does: a bare clone of HEAD served as file://, which
# SwiftPM checks out like any remote (no ../shared beside it), and three apps from Examples/ (as
# committed) whose dependency line is rewritten to that URL:
#   - QuickStart, README's Quick start: BlueskyKit (com.atproto and app.bsky, not the whole SDK) by
#     `branch: "main"` as README writes it, built with zero set-up commands, zero extra packages, zero warnings, no generator
#     compiled and no plugin run (the SDK is committed); then run against the PDS: signs in, posts with a
#     mention and a link, reads the timeline and decides what to show of each post, likes and unlikes
#     the post, follows and unfollows the second account, counts the unread notifications;
#   - FeedReader (at this revision, added under another name, atproto-kit), default traits: its lexicons installed into its own target by the InstallLexicons
#     command plugin, built with zero warnings, its tests run (one calls the PDS: password session);
#   - SignIn, trait SwiftCryptoSigner: the same install, plus one over atproto (a lexicon the PDS's
#     account publishes, resolved and proved), built with zero warnings, then run: an OAuth sign-in at
#     the PDS's authorization server (scripts/headless-browser.py posts the login form as a person
#     would) and calls through the generated methods.
# Each app's checkouts are checked: the default traits resolve no package, the signer's swift-crypto.
# Needs the shared PDS (eval "$(scripts/pds.sh start)") and ../shared/lexicons/atproto.
# Usage: scripts/adopt-by-url.sh [QuickStart|FeedReader|SignIn]...   (all three by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
lexicons=$(cd ../shared/lexicons/atproto && pwd)
: "${ATPROTO_PDS_URL:?start the PDS first: eval \"\$(scripts/pds.sh start)\"}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet --bare . "$work/swift-atproto-lexicons.git"
revision=$(git rev-parse HEAD)
# README's dependency line names the branch main: the clone's main is this revision, whatever is checked out.
git -C "$work/swift-atproto-lexicons.git" update-ref refs/heads/main "$revision"
url="file://$work/swift-atproto-lexicons.git"

# Copies Examples/<name> as committed at HEAD and points its dependency at the bare clone. With a
# second argument, the clone is reached under that identity instead (a package added by another URL
# name): its product and plugin lines are renamed to match, as the app's author would write them.
checkout_app() {
    local identity=${2:-swift-atproto-lexicons} app_url=$url requirement=${3:-revision: \"$revision\"}
    if [ "$identity" != swift-atproto-lexicons ]; then
        [ -e "$work/$identity.git" ] || git clone --quiet --bare . "$work/$identity.git"
        app_url="file://$work/$identity.git"
    fi
    git archive HEAD "Examples/$1" | tar -x -C "$work"
    python3 - "$work/Examples/$1/Package.swift" "$app_url" "$requirement" "$identity" <<'PY'
import re, sys
path, url, requirement, identity = sys.argv[1:]
text = open(path).read()
text, count = re.subn(r'\.package\(name: "swift-atproto-lexicons", path: "\.\./\.\."',
                      '.package(url: "%s", %s' % (url, requirement), text)
if count != 1:
    sys.exit("error: %s has no `.package(name: \"swift-atproto-lexicons\", path: \"../..\"` line" % path)
text = text.replace('package: "swift-atproto-lexicons"', 'package: "%s"' % identity)
open(path, "w").write(text)
PY
}

# Installs NSIDs into a target through the command plugin, from the upstream lexicons folder.
install_lexicons() {
    local target=$1
    shift
    swift package --allow-writing-to-package-directory --allow-network-connections all \
        install-lexicons --target "$target" "$@" --from "$lexicons"
}

# Publishes a record lexicon <nsid> as the PDS's account (com.atproto.lexicon.schema, keyed by NSID).
publish_lexicon() {
    python3 - "$1" <<'PY'
import json, os, sys, urllib.request
pds, nsid = os.environ["ATPROTO_PDS_URL"], sys.argv[1]
def call(method, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(pds + "/xrpc/" + method, data=json.dumps(body).encode(), headers=headers)
    return json.load(urllib.request.urlopen(request, timeout=20))
session = call("com.atproto.server.createSession", {
    "identifier": os.environ.get("ATPROTO_PDS_HANDLE", "alice.test"),
    "password": os.environ.get("ATPROTO_PDS_PASSWORD", "hunter2")})
record = {"$type": "com.atproto.lexicon.schema", "lexicon": 1, "id": nsid, "defs": {"main": {
    "type": "record", "key": "tid", "record": {"type": "object", "required": ["status"],
    "properties": {"status": {"type": "string", "maxLength": 32}}}}}}
call("com.atproto.repo.putRecord", {"repo": session["did"], "collection": "com.atproto.lexicon.schema",
     "rkey": nsid, "record": record}, session["accessJwt"])
PY
}

# The packages SwiftPM checked out for the app must be exactly these (traits decide the rest).
expect_checkouts() {
    local found
    found=$(ls .build/checkouts | sort | tr '\n' ' ')
    if [ "$found" != "$* " ]; then
        echo "error: the app resolved [$found], expected [$* ]"
        exit 1
    fi
}

build_without_warnings() {
    local log
    log=$(mktemp)
    swift build "$@" 2>&1 | tee "$log"
    if grep -E "^/.*: warning: " "$log"; then
        echo "error: the app adopted by URL has warnings (listed above)"
        exit 1
    fi
}

feed_reader() {
    echo "== by URL, default traits: Examples/FeedReader"
    # Added under another name than the package declares: the plugin's closing hint must use it.
    checkout_app FeedReader atproto-kit
    cd "$work/Examples/FeedReader"
    install_lexicons FeedReader app.bsky.feed.getTimeline app.bsky.feed.post app.bsky.actor.getProfile \
        com.atproto.repo.createRecord com.atproto.repo.listRecords | tee "$work/feedreader-install.log"
    if ! grep -q '.plugin(name: "LexiconGen", package: "atproto-kit")' "$work/feedreader-install.log"; then
        echo "error: the install plugin's hint does not name the package as the app added it (atproto-kit)"
        exit 1
    fi
    build_without_warnings --build-tests
    expect_checkouts atproto-kit  # default traits: no package of ours resolved
    swift test --skip-build 2>&1 | tee "$work/feedreader-tests.log"
    grep -q "testABookmarkIsWrittenAndListedThroughTheGeneratedMethods' passed" "$work/feedreader-tests.log"
    # The plugin applied to a target that lacks the runtime's product fails at once, naming the product.
    cp Package.swift "$work/feedreader-manifest"
    sed -i 's|dependencies: \[.product(name: "XRPCRuntime", package: "atproto-kit")\],|dependencies: [],|' Package.swift
    if swift build --target FeedReader >"$work/feedreader-no-runtime.log" 2>&1; then
        echo "error: the LexiconGen plugin built a target without the runtime's product"
        exit 1
    fi
    grep -q "applies the LexiconGen plugin but does not depend on the runtime.*XRPCRuntime" "$work/feedreader-no-runtime.log" ||
        { cat "$work/feedreader-no-runtime.log"; echo "error: the plugin's error does not name XRPCRuntime"; exit 1; }
    cp "$work/feedreader-manifest" Package.swift
    cd "$root"
}

sign_in() {
    echo "== by URL, trait SwiftCryptoSigner: Examples/SignIn, an OAuth sign-in at the PDS"
    checkout_app SignIn
    cd "$work/Examples/SignIn"
    install_lexicons SignIn com.atproto.server.getSession com.atproto.repo.createRecord app.bsky.feed.post
    # The same plugin over atproto: a lexicon the PDS's account publishes (its DNS server answers
    # _lexicon.statusphere.test with that account), resolved, proved and installed beside the others.
    publish_lexicon test.statusphere.adopted
    swift package --allow-writing-to-package-directory --allow-network-connections all \
        install-lexicons --target SignIn test.statusphere.adopted \
        --dns-server "127.0.0.1:$ATPROTO_PDS_DNS_PORT" --plc-directory "$ATPROTO_PDS_URL/plc"
    grep -q '"test.statusphere.adopted"' Sources/SignIn/lexicons.manifest.json
    build_without_warnings
    expect_checkouts swift-asn1 swift-atproto-lexicons swift-crypto  # the signer's trait: swift-crypto only
    text="signed in by URL $(date +%s)"
    swift run --skip-build sign-in "$ATPROTO_PDS_URL" --plc-directory "$ATPROTO_PDS_URL/plc" \
        --browser "$root/scripts/headless-browser.py" --post "$text" | tee "$work/sign-in.log"
    grep -q "^signed in as ${ATPROTO_PDS_HANDLE:-alice.test} (did:" "$work/sign-in.log"
    grep -q "^posted at://did:" "$work/sign-in.log"
    cd "$root"
}

quick_start() {
    echo "== by URL, README's Quick start: Examples/QuickStart (BlueskyKit, branch main, nothing to run first)"
    checkout_app QuickStart swift-atproto-lexicons 'branch: "main"'
    cd "$work/Examples/QuickStart"
    build_without_warnings
    expect_checkouts swift-atproto-lexicons  # zero extra packages
    # The SDK is committed: no generator compiled, no plugin run.
    # (SwiftPM plans the plugins' tools, *-tool.build, but must compile none of them.)
    if [ -n "$(find .build -path '*-tool.build/*' -name '*.o' | head -1)" ] || [ -d .build/plugins/outputs ]; then
        echo "error: building the SDK by URL compiled the generator or ran a plugin"
        exit 1
    fi
    # It follows and unfollows the PDS's second account.
    ATPROTO_SERVICE="$ATPROTO_PDS_URL" ATPROTO_HANDLE="${ATPROTO_PDS_HANDLE:-alice.test}" \
        ATPROTO_PASSWORD="${ATPROTO_PDS_PASSWORD:-hunter2}" ATPROTO_FOLLOW="${ATPROTO_PDS_WEB_HANDLE:-bob.test}" \
        swift run --skip-build QuickStart | tee "$work/quick-start.log"
    grep -q "^signed in as ${ATPROTO_PDS_HANDLE:-alice.test} (did:" "$work/quick-start.log"
    posted=$(sed -n 's/^posted \(at:[^ ]*\) with .*/\1/p' "$work/quick-start.log")
    grep "^posted " "$work/quick-start.log" | grep -q "mention(did:" || { echo "error: the post has no mention"; exit 1; }
    grep "^posted " "$work/quick-start.log" | grep -q 'link(https://example.com/swift-atproto)' ||
        { echo "error: the post has no link"; exit 1; }
    grep -q "^shown: @${ATPROTO_PDS_HANDLE:-alice.test} $posted$" "$work/quick-start.log" ||
        { echo "error: the new post is not in the timeline with a moderation decision"; exit 1; }
    # Liked (the AppView counts the like and shows it as the viewer's), then unliked.
    grep -q "^liked $posted (likes: 1, mine: true)$" "$work/quick-start.log" ||
        { echo "error: the like of the new post is not in the AppView's view of it"; exit 1; }
    grep -q "^unliked $posted$" "$work/quick-start.log" || { echo "error: the post was not unliked"; exit 1; }
    grep -q "^followed @${ATPROTO_PDS_WEB_HANDLE:-bob.test} as at://did:[^ ]*/app.bsky.graph.follow/" "$work/quick-start.log" ||
        { echo "error: no follow record"; exit 1; }
    grep -q "^unfollowed @${ATPROTO_PDS_WEB_HANDLE:-bob.test}$" "$work/quick-start.log" ||
        { echo "error: the account was not unfollowed"; exit 1; }
    grep -q "^unread notifications: [0-9][0-9]*$" "$work/quick-start.log" ||
        { echo "error: no unread notification count"; exit 1; }
    # One type per lexicon type: installing a standard NSID into a target that depends on the SDK
    # installs nothing and says the SDK has it.
    install_lexicons QuickStart app.bsky.feed.post | tee "$work/quick-start-install.log"
    grep -q "app.bsky.feed.post: AppBskyLexicons already has it" "$work/quick-start-install.log" ||
        { echo "error: the install did not say the SDK already has app.bsky.feed.post"; exit 1; }
    # BlueskyKit compiles no namespace but com.atproto and app.bsky.
    if [ -n "$(find .build -name '*.o' -path '*ChatBskyLexicons.build*' -o -name '*.o' -path '*ToolsOzoneLexicons.build*' | head -1)" ]; then
        echo "error: an app that takes BlueskyKit compiled chat.bsky or tools.ozone"
        exit 1
    fi
    if [ -e Sources/QuickStart/lexicons/app ]; then
        echo "error: a standard lexicon was installed beside the SDK that declares it"
        exit 1
    fi
    cd "$root"
}

for app in "${@:-QuickStart FeedReader SignIn}"; do
    for name in $app; do
        start=$SECONDS
        case $name in
        FeedReader) feed_reader ;;
        SignIn) sign_in ;;
        QuickStart) quick_start ;;
        *) echo "usage: scripts/adopt-by-url.sh [QuickStart|FeedReader|SignIn]..." && exit 64 ;;
        esac
        echo "$name by URL took $((SECONDS - start)) s"
    done
done
