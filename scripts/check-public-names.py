#!/usr/bin/env python3
"""The naming rule of docs/Glossary.md, checked on the committed API digests: fails (listing each one)
when a public top-level type of a checked product is named with common words only.

An app sees every module at once (`import AtprotoLexicons`, `import AtprotoOAuth`, ...), beside
Foundation's, SwiftUI's and its own names, so a top-level name must say whose it is. A name passes
when one of its words is

- a layer prefix: `AT`, `Atproto`, `Lexicon`, `XRPC`, `HTTP`, `OAuth`, `DPoP`, `Jetstream`, `Tap`,
  `Backfill`, `Firehose`, `Bluesky` (`LexiconBlob`, `XRPCEmptyBody`, `OAuthTokenResponse`);
- an acronym, a run of two or more capitals: the spec's identifiers and the standards the package
  implements (`DID`, `NSID`, `CID`, `MST`, `CAR`, `JSON`, `DNS`, `PKCE`, `JWK`, `URLSession`,
  `POSIX`, `NIO`, ...), which no app uses for anything else;
- one of the short list of atproto and OAuth terms below (TERMS), each a term of the specs this
  package implements, which on its own names that spec's concept.

A single word passes only as a layer prefix or an acronym (`LexiconBlob`, `Handle`, `Record` do not).

    python3 scripts/check-public-names.py [api folder]   (default: api)

CI runs it beside the format lint. The digests are written by scripts/api-digest.sh, so a rename
shows here once the digests are updated.
"""

import os
import re
import sys

LAYER_PREFIXES = {
    "AT", "Atproto", "Lexicon", "XRPC", "HTTP", "OAuth", "DPoP", "Jetstream", "Tap", "Backfill",
    "Firehose", "Bluesky",
}

# Terms of the atproto and OAuth specifications, as those specifications write them. Each counts only
# inside a longer name (`RecordPage` passes, `Record` would not).
TERMS = {
    # atproto: a repository's records and commits, an account's identity (DID and handle), labelers,
    # inter-service auth tokens, and the unit an app calls through (the XRPC layer's `XRPCAgent`).
    "Repo", "Repository", "Record", "Commit", "Identity", "Handle", "Labeler", "ServiceAuth", "Agent",
    # the password session (com.atproto.server.createSession), OAuthSession's counterpart
    "PasswordSession",
    # OAuth 2 RFC terms: authorization server metadata (RFC 8414), protected resource metadata
    # (RFC 9728), pushed authorization requests (RFC 9126), client assertions and authentication
    # (RFC 7521, RFC 7523)
    "AuthorizationServer", "ProtectedResource", "PushedAuthorization", "ClientAssertion",
    "ClientAuthentication",
}

# BlueskyKit and BlueskyChat are the Bluesky app's layer (BlueskyPreferences and BlueskyVideo, under it, are
# checked): their names are that app's own vocabulary
# (feed, post, reply gate, moderation, labels, muted words, rich text), imported by a Bluesky client
# on purpose; docs/Glossary.md ("Naming rule") says why and which of them would still be renamed.
UNCHECKED_PRODUCTS = {"BlueskyKit", "BlueskyChat"}

DECLARATION = re.compile(r"^(?:class|struct|enum|protocol|typealias) ([A-Za-z_][A-Za-z0-9_]*):")
WORD = re.compile(r"[A-Z]+[0-9]*(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+[0-9]*|[0-9]+")


def is_specific(name):
    if name.startswith("_"):  # kept out of completions and documentation (the Glossary's rule)
        return True
    words = WORD.findall(name)
    if any(len(word) >= 2 and word[:2].isupper() for word in words):
        return True
    if any(contains(name, prefix) for prefix in LAYER_PREFIXES):
        return True
    return len(words) >= 2 and any(contains(name, term) for term in TERMS)


def contains(name, term):
    """Whether `term` is one or more whole words of `name` (`OAuth` in `OAuthScope`, `Tap` not in `Tape`)."""
    return re.search(r"(?:^|(?<=[a-z0-9]))" + term + r"(?![a-z])", name) is not None


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "api"
    failures = []
    for file_name in sorted(os.listdir(folder)):
        module, extension = os.path.splitext(file_name)
        if extension != ".txt" or module in UNCHECKED_PRODUCTS:
            continue
        with open(os.path.join(folder, file_name), encoding="utf-8") as digest:
            for line in digest:
                match = DECLARATION.match(line)
                if match and not is_specific(match.group(1)):
                    failures.append(f"{folder}/{file_name}: {match.group(1)}")
    if failures:
        print("error: public top-level types named with common words only (docs/Glossary.md, Naming rule:")
        print("a common word takes the prefix of the layer that defines it):")
        for failure in failures:
            print(f"  {failure}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
