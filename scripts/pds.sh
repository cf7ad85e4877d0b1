#!/usr/bin/env bash
# A real PDS on loopback for the integration tests: arroba + lexrpc with our glue
# (../shared/pds/serve.py), in a Python venv under .build/pds-venv.
#
#   scripts/pds.sh install   create the venv (skipped when it matches requirements.txt)
#   scripts/pds.sh start     install, start the server on a free loopback port, wait until it
#                            answers, print `export ATPROTO_PDS_...` lines (eval them)
#   scripts/pds.sh env       print the export lines of the running server
#   scripts/pds.sh stop      stop the server started by `start`
#
# `start` and `stop` are idempotent: a running server is reused, a stopped one is left alone.
# Settings (environment): PDS_DIR (default ../shared/pds), PDS_ACCESS_TTL (access-token lifetime
# in seconds, default 5), PDS_HANDLE / PDS_PASSWORD (the test account, alice.test / hunter2),
# PDS_WEB_HANDLE / PDS_WEB_PASSWORD (a second account whose DID is did:web:localhost%3A<port>,
# bob.test / pw2), PDS_OAUTH_ACCESS_TTL / PDS_OAUTH_NONCE_ROTATE (OAuth access-token lifetime and
# DPoP nonce rotation in seconds, default 300 / 60), PDS_LEXICON_DNS (space-separated
# DOMAIN=HANDLE pairs answered as TXT _lexicon.DOMAIN, default statusphere.test=alice.test),
# PDS_FIREHOSE_POLL (seconds between the firehose collector's looks for new commits when no write
# woke it, default 1),
# PDS_EXTRA_ARGS (more serve.py options). The PDS also answers DNS (UDP) on a free loopback port.
#
#   eval "$(scripts/pds.sh start)" && swift test --filter IntegrationTests; scripts/pds.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."

pds_dir=${PDS_DIR:-../shared/pds}
venv=.build/pds-venv
state=.build/pds
ttl=${PDS_ACCESS_TTL:-5}
handle=${PDS_HANDLE:-alice.test}
password=${PDS_PASSWORD:-hunter2}
web_handle=${PDS_WEB_HANDLE:-bob.test}
web_password=${PDS_WEB_PASSWORD:-pw2}
oauth_ttl=${PDS_OAUTH_ACCESS_TTL:-300}
oauth_nonce_rotate=${PDS_OAUTH_NONCE_ROTATE:-60}
lexicon_dns=${PDS_LEXICON_DNS:-statusphere.test=alice.test}
firehose_poll=${PDS_FIREHOSE_POLL:-1}

log() { echo "pds.sh: $*" >&2; }

install() {
    local requirements="$pds_dir/requirements.txt"
    [[ -f "$requirements" && -f "$pds_dir/serve.py" ]] || {
        log "error: no serve.py and requirements.txt in $pds_dir (set PDS_DIR)"
        exit 1
    }
    local stamp
    stamp=$(sha256sum "$requirements" | cut -d' ' -f1)
    if [[ -x "$venv/bin/python" && "$(cat "$venv/.requirements.sha256" 2>/dev/null)" == "$stamp" ]]; then
        return
    fi
    log "creating $venv from $requirements"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
    echo "$stamp" >"$venv/.requirements.sha256"
}

running_pid() {
    local pid
    pid=$(cat "$state/pid" 2>/dev/null) || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

print_env() {
    local url
    url=$(cat "$state/url")
    echo "export ATPROTO_PDS_URL=$url"
    echo "export ATPROTO_PDS_HANDLE=$(cat "$state/handle")"
    echo "export ATPROTO_PDS_PASSWORD=$(cat "$state/password")"
    echo "export ATPROTO_PDS_ACCESS_TTL=$(cat "$state/ttl")"
    echo "export ATPROTO_PDS_DNS_PORT=$(cat "$state/dns-port")"
    echo "export ATPROTO_PDS_WEB_HANDLE=$(cat "$state/web-handle")"
    echo "export ATPROTO_PDS_WEB_PASSWORD=$(cat "$state/web-password")"
    echo "export ATPROTO_PDS_OAUTH_ACCESS_TTL=$(cat "$state/oauth-ttl")"
    echo "export ATPROTO_PDS_LEXICON_DNS='$(cat "$state/lexicon-dns")'"
}

start() {
    if running_pid >/dev/null && curl -fsS "$(cat "$state/url")/xrpc/_health" >/dev/null 2>&1; then
        log "already running at $(cat "$state/url")"
        print_env
        return
    fi
    install
    mkdir -p "$state"
    echo "$handle" >"$state/handle"
    echo "$password" >"$state/password"
    echo "$ttl" >"$state/ttl"
    echo "$web_handle" >"$state/web-handle"
    echo "$web_password" >"$state/web-password"
    echo "$oauth_ttl" >"$state/oauth-ttl"
    echo "$lexicon_dns" >"$state/lexicon-dns"
    # The port is free when picked; another process may take it before serve.py binds it: retry.
    for attempt in 1 2 3; do
        launch && return
        grep -q "Address already in use" "$state/server.log" && [[ $attempt -lt 3 ]] || break
        log "port taken before serve.py bound it; trying another"
    done
    log "error: serve.py did not start; its log ($state/server.log):"
    cat "$state/server.log" >&2
    exit 1
}

# Starts serve.py on a free port and waits until it answers; fails when it exits or hangs.
launch() {
    local port dns_port started
    port=$("$venv/bin/python" -c \
        'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    dns_port=$("$venv/bin/python" -c \
        'import socket; s = socket.socket(type=socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    echo "$dns_port" >"$state/dns-port"
    local url="http://127.0.0.1:$port"
    local extra=()
    for pair in $lexicon_dns; do extra+=(--lexicon-dns "$pair"); done
    # shellcheck disable=SC2206 # PDS_EXTRA_ARGS is split on spaces on purpose
    extra+=(${PDS_EXTRA_ARGS:-})
    started=$(date +%s%N)
    # arroba's firehose collector sleeps until a write notifies it; a write that lands while it is
    # busy with the one before notifies nobody, and its commit reaches subscribers only with the next
    # write or after SUBSCRIBE_REPOS_SKIPPED_SEQ_DELAY (default 120 s). Under load that happened to 4
    # bursts of two writes in 40, and a test waiting for its own last commit stalled until the server
    # dropped the idle socket (20 s). The same delay bounds arroba's wait for a missing sequence
    # number, which this PDS does not leave behind (writes are serialized, failed ones marked lost).
    # setsid: the server outlives this script, in its own process group, and `stop` ends that group.
    SUBSCRIBE_REPOS_SKIPPED_SEQ_DELAY=$firehose_poll setsid "$venv/bin/python" "$pds_dir/serve.py" --port "$port" --access-ttl "$ttl" \
        --account "$handle:$password" --account-web "$web_handle:$web_password" \
        --dns-port "$dns_port" --oauth-access-ttl "$oauth_ttl" --oauth-nonce-rotate "$oauth_nonce_rotate" \
        "${extra[@]}" >"$state/server.log" 2>&1 </dev/null &
    echo $! >"$state/pid"
    echo "$url" >"$state/url"
    for _ in $(seq 1 300); do
        if curl -fsS "$url/xrpc/_health" >/dev/null 2>&1; then
            local elapsed=$((($(date +%s%N) - started) / 1000000))
            log "listening at $url after $elapsed ms" \
                "(account $handle, access tokens live $ttl s, log $state/server.log)"
            print_env
            return 0
        fi
        running_pid >/dev/null || return 1
        sleep 0.1
    done
    log "serve.py did not answer at $url within 30 s"
    stop
    return 1
}

stop() {
    local pid
    if pid=$(running_pid); then
        kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        log "stopped (pid $pid)"
    fi
    rm -f "$state/pid"
}

case "${1:-}" in
install) install ;;
start) start ;;
env)
    running_pid >/dev/null || {
        log "error: not running; use: scripts/pds.sh start"
        exit 1
    }
    print_env
    ;;
stop) stop ;;
*)
    echo "usage: scripts/pds.sh install|start|env|stop" >&2
    exit 64
    ;;
esac
