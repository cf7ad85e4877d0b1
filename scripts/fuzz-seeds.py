#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (scripts/fuzz.sh), made at run time and never committed.

From ../shared: the interop fixtures (data model, syntax, crypto, lexicons) and the standard
lexicons. From the shared PDS when ATPROTO_PDS_URL is set (scripts/pds.sh start): the account's
repository CAR, record proofs, a timeline page, records, OAuth metadata, firehose frames as they came
over the WebSocket, and TXT answers of its DNS server. The rest (DNS answers, WebSocket framing,
token answers, a signed JWS, DID documents, CARs around the fixtures' blocks) is built here.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import struct
import sys
import urllib.parse
import urllib.request
from pathlib import Path

# MARK: helpers


def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | extra]) + value.to_bytes(size, "big")
    raise ValueError(value)


class Link:
    def __init__(self, cid):
        self.cid = cid


def dagcbor(value):
    """DAG-CBOR of a Python value (dict, list, str, bytes, int, bool, None, Link)."""
    if value is None:
        return b"\xf6"
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if isinstance(value, int):
        return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)
    if isinstance(value, bytes):
        return cbor_head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return cbor_head(3, len(data)) + data
    if isinstance(value, list):
        return cbor_head(4, len(value)) + b"".join(dagcbor(item) for item in value)
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return cbor_head(5, len(keys)) + b"".join(dagcbor(key) + dagcbor(value[key]) for key in keys)
    if isinstance(value, Link):
        return b"\xd8\x2a" + cbor_head(2, len(value.cid) + 1) + b"\x00" + value.cid
    raise TypeError(type(value))


def cid_of(block):
    return bytes([0x01, 0x71, 0x12, 0x20]) + hashlib.sha256(block).digest()


def varint(number):
    out = bytearray()
    while True:
        byte = number & 0x7F
        number >>= 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def car(root, blocks):
    header = dagcbor({"roots": [Link(root)], "version": 1})
    out = varint(len(header)) + header
    for cid, block in blocks:
        out += varint(len(cid) + len(block)) + cid + block
    return out


def cid_from_text(text):
    data = text[1:].upper()
    return base64.b32decode(data + "=" * (-len(data) % 8))


def b64(text):
    return base64.b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def base58_decode(text):
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    number = 0
    for char in text:
        number = number * 58 + alphabet.index(char)
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return b"\x00" * (len(text) - len(text.lstrip("1"))) + data


def ws_frame(payload, opcode=2, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        head += bytes([len(payload)])
    elif len(payload) < 65536:
        head += bytes([126]) + struct.pack(">H", len(payload))
    else:
        head += bytes([127]) + struct.pack(">Q", len(payload))
    return head + payload


def dns_name(name):
    return b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\x00"


def dns_answer(ident, name, texts, rcode=0, tc=False, pointer=True):
    flags = 0x8180 | rcode | (0x0200 if tc else 0)
    message = struct.pack(">HHHHHH", ident, flags, 1, len(texts), 0, 0) + dns_name(name) + struct.pack(">HH", 16, 1)
    for text in texts:
        data = b"".join(bytes([len(part)]) + part for part in (text[i : i + 255] for i in range(0, len(text), 255)))
        owner = b"\xc0\x0c" if pointer else dns_name(name)
        message += owner + struct.pack(">HHIH", 16, 1, 300, len(data)) + data
    return message


class Corpus:
    def __init__(self, root):
        self.root = Path(root)
        self.counts = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode()
        folder = self.root / target
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ("seed-" + hashlib.sha1(data).hexdigest())).write_bytes(data)
        self.counts[target] = self.counts.get(target, 0) + 1


# MARK: from ../shared


def from_shared(corpus, shared):
    interop = shared / "interop"
    for name in ("data-model-valid", "data-model-invalid", "data-model-fixtures"):
        for entry in json.loads((interop / "data-model" / f"{name}.json").read_text()):
            corpus.add("json", json.dumps(entry["json"]))
            if "cbor_base64" in entry:
                block = b64(entry["cbor_base64"])
                corpus.add("dagcbor", block)
                cid = cid_from_text(entry["cid"])
                corpus.add("car", car(cid, [(cid, block)]))
    for path in sorted((interop / "syntax").glob("*.txt")):
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                corpus.add("formats", line)
    for name in ("w3c_didkey_K256", "w3c_didkey_P256"):
        for entry in json.loads((interop / "crypto" / f"{name}.json").read_text()):
            corpus.add("multikey", entry["publicDidKey"])
            corpus.add("multikey", entry["publicDidKey"].removeprefix("did:key:"))
    for entry in json.loads((interop / "crypto" / "signature-fixtures.json").read_text()):
        corpus.add("multikey", entry["publicKeyMultibase"])
        corpus.add("multikey", entry["publicKeyDid"])
        key = base58_decode(entry["publicKeyDid"].removeprefix("did:key:z"))[2:]
        curve = 0 if entry["algorithm"] == "ES256" else 1
        signature = b64(entry["signatureBase64"])
        corpus.add("signature", bytes([curve, len(key)]) + key + bytes([2]) + signature + b64(entry["messageBase64"]))
    lexicons = []
    for path in sorted((interop / "lexicon" / "catalog").glob("*.json")):
        lexicons.append(path.read_bytes())
    for entry in json.loads((interop / "lexicon" / "lexicon-valid.json").read_text()):
        lexicons.append(json.dumps(entry["lexicon"]).encode())
    for entry in json.loads((interop / "lexicon" / "lexicon-invalid.json").read_text()):
        lexicons.append(json.dumps(entry["lexicon"]).encode())
    standard = sorted((shared / "lexicons" / "atproto").rglob("*.json"))
    picks = [path for path in standard if path.parent.name in ("feed", "repo", "actor", "richtext", "embed")]
    for path in picks[:40]:
        lexicons.append(path.read_bytes())
    for lexicon in lexicons:
        corpus.add("lexicon", lexicon)
        corpus.add("json", lexicon)
        corpus.add("lexicon-install", lexicon)
    manifest = Path(__file__).resolve().parent.parent / "lexicons.manifest.json"
    if manifest.exists():
        corpus.add("lexicon-install", manifest.read_bytes())
    # Files that ref each other, given together (the harness splits inputs at NUL bytes).
    embed = [path.read_bytes() for path in standard if path.parent.name == "embed"][:4]
    if embed:
        corpus.add("lexicon", b"\x00".join(embed))
    for entry in json.loads((interop / "lexicon" / "record-data-valid.json").read_text()):
        corpus.add("json", json.dumps(entry["data"]))


# MARK: built here


def built_here(corpus):
    rng = random.Random(19)
    name = "_atproto.fuzz.example"
    for ident in (0x1234, 0xBEEF):
        corpus.add("dns", dns_answer(ident, name, [b"did=did:plc:ewvi7nxzyoun6zhxrhs64oiz"]))
        corpus.add("dns", dns_answer(ident, name, [b"did=did:web:example.com", b"other"], pointer=False))
        corpus.add("dns", dns_answer(ident, name, [b"x" * 300]))
        corpus.add("dns", dns_answer(ident, name, [], rcode=3))
        corpus.add("dns", dns_answer(ident, name, [], tc=True))
    # WebSocket: the first byte picks the chunk size; then a 101 answer or frames.
    handshake = (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    )
    corpus.add("websocket", b"\x07" + handshake)
    corpus.add("websocket", b"\x03" + ws_frame(b"hello", 1) + ws_frame(b"\x03\xe8bye", 8))
    corpus.add("websocket", b"\x10" + ws_frame(b"frag", 2, False) + ws_frame(b"\x00", 9) + ws_frame(b"ment", 0))
    corpus.add("websocket", b"\x00" + ws_frame(bytes(rng.randrange(256) for _ in range(300))))
    # Event-stream frames and firehose commits around the fixtures' blocks.
    record = dagcbor({"$type": "app.bsky.feed.post", "text": "hello", "createdAt": "2024-01-01T00:00:00Z"})
    record_cid = cid_of(record)
    key = b"app.bsky.feed.post/3kabcdefghi22"
    node = dagcbor({"l": None, "e": [{"p": 0, "k": key, "v": Link(record_cid), "t": None}]})
    node_cid = cid_of(node)
    commit = dagcbor(
        {"did": "did:plc:fuzz", "version": 3, "data": Link(node_cid), "rev": "3kabcdefghi22", "prev": None,
         "sig": bytes(64)}
    )
    commit_cid = cid_of(commit)
    blocks = car(commit_cid, [(commit_cid, commit), (node_cid, node), (record_cid, record)])
    for target in ("car", "repository", "mst"):
        corpus.add(target, blocks)
    header = dagcbor({"op": 1, "t": "#commit"})
    body = dagcbor(
        {"seq": 7, "rebase": False, "tooBig": False, "repo": "did:plc:fuzz", "commit": Link(commit_cid),
         "rev": "3kabcdefghi22", "since": None, "blocks": blocks, "blobs": [], "time": "2024-01-01T00:00:00Z",
         "ops": [{"action": "create", "path": key.decode(), "cid": Link(record_cid), "prev": None}]}
    )
    for target in ("event-frame", "firehose", "frame-writing"):
        corpus.add(target, header + body)
        corpus.add(target, dagcbor({"op": 1, "t": "#sync"}) + dagcbor({"did": "did:plc:fuzz", "blocks": blocks,
                                                                       "rev": "3k", "seq": 8, "time": "t"}))
        corpus.add(target, dagcbor({"op": -1}) + dagcbor({"error": "FutureCursor", "message": "no"}))
    corpus.add("websocket", b"\x1f" + ws_frame(header + body))
    corpus.add("mst-ops", bytes(rng.randrange(256) for _ in range(64)))
    corpus.add("mst-ops", bytes(range(0, 256, 3)))
    # DID documents.
    document = {
        "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
        "id": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
        "alsoKnownAs": ["at://alice.example.com"],
        "verificationMethod": [{"id": "did:plc:ewvi7nxzyoun6zhxrhs64oiz#atproto", "type": "Multikey",
                                "controller": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
                                "publicKeyMultibase": "zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"}],
        "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer",
                     "serviceEndpoint": "https://pds.example.com"}],
    }
    corpus.add("did-document", json.dumps(document))
    legacy = dict(document, verificationMethod=[{"id": "#atproto", "type": "EcdsaSecp256k1VerificationKey2019",
                                                 "controller": document["id"], "publicKeyMultibase": "zQ3sh"}])
    corpus.add("did-document", json.dumps(legacy))
    # OAuth answers.
    issuer = "https://auth.example.com"
    corpus.add("oauth-metadata", json.dumps({
        "issuer": issuer, "authorization_endpoint": issuer + "/oauth/authorize", "token_endpoint": issuer + "/oauth/token",
        "pushed_authorization_request_endpoint": issuer + "/oauth/par", "require_pushed_authorization_requests": True,
        "response_types_supported": ["code"], "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ["ES256"], "scopes_supported": ["atproto", "transition:generic"],
        "dpop_signing_alg_values_supported": ["ES256"], "authorization_response_iss_parameter_supported": True,
        "client_id_metadata_document_supported": True}))
    corpus.add("oauth-metadata", json.dumps({"resource": "https://pds.example.com", "authorization_servers": [issuer]}))
    token = {"access_token": "at", "token_type": "DPoP", "expires_in": 3600, "refresh_token": "rt",
             "scope": "atproto transition:generic", "sub": "did:plc:ewvi7nxzyoun6zhxrhs64oiz"}
    error = {"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof"}
    challenge = 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce", algs="ES256"'
    for header_value, body_value in ((challenge, error), ("", token), ('Bearer realm="x", error="invalid_token"', {})):
        data = header_value.encode()[:255]
        corpus.add("oauth-token", bytes([len(data)]) + data + json.dumps(body_value).encode())
    corpus.add("oauth-token", b"\x00code=abc&state=xyz&iss=https%3A%2F%2Fauth.example.com")
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

        private = ec.generate_private_key(ec.SECP256R1())
        numbers = private.public_key().public_numbers()
        jwk = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
               "y": b64url(numbers.y.to_bytes(32, "big"))}
        header_part = b64url(json.dumps({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}).encode())
        claims = b64url(json.dumps({"jti": "j", "htm": "POST", "htu": issuer + "/oauth/token", "iat": 1}).encode())
        signing_input = (header_part + "." + claims).encode()
        r, s = decode_dss_signature(private.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        corpus.add("jws", header_part + "." + claims + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
    except ImportError:
        corpus.add("jws", "eyJhbGciOiJFUzI1NiJ9.e30." + b64url(bytes(64)))
    # SDK seeds: a post and a timeline page of the lexicons' shapes.
    post = {"$type": "app.bsky.feed.post", "text": "hello @alice.example.com", "createdAt": "2024-01-01T00:00:00.000Z",
            "langs": ["en"], "facets": [{"index": {"byteStart": 6, "byteEnd": 24}, "features": [
                {"$type": "app.bsky.richtext.facet#mention", "did": "did:plc:ewvi7nxzyoun6zhxrhs64oiz"}]}],
            "reply": {"root": {"uri": "at://did:plc:a/app.bsky.feed.post/3k", "cid": "bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454"},
                      "parent": {"uri": "at://did:plc:a/app.bsky.feed.post/3k", "cid": "bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454"}},
            "embed": {"$type": "app.bsky.embed.external", "external": {"uri": "https://example.com", "title": "t", "description": "d"}}}
    corpus.add("record", json.dumps(post))
    author = {"did": "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "handle": "alice.example.com", "displayName": "Alice"}
    view = {"uri": "at://did:plc:a/app.bsky.feed.post/3k", "cid": "bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454",
            "author": author, "record": post, "indexedAt": "2024-01-01T00:00:00.000Z", "likeCount": 3}
    corpus.add("feed-page", json.dumps({"cursor": "c", "feed": [{"post": view}, {"post": view, "reason": {
        "$type": "app.bsky.feed.defs#reasonRepost", "by": author, "indexedAt": "2024-01-01T00:00:00.000Z"}}]}))


# MARK: the server (service-auth tokens and whole requests; see Fuzz/Sources/atproto-fuzz/ServerTargets.swift)


def server_seeds(corpus):
    now = 1_800_000_000  # the harness's clock
    service = "did:web:feeds.example.com"
    int_min, int_max = -(2**63), 2**63 - 1

    def claims(iss="did:plc:alice", lxm="app.bsky.feed.getFeedSkeleton", **changes):
        body = {"iss": iss, "aud": service, "exp": now + 60, "iat": now, "jti": "j-1"}
        if lxm:
            body["lxm"] = lxm
        body.update(changes)
        return json.dumps(body, separators=(",", ":")).encode()

    # Signed mode: control byte (bits 0-1 signer, bit 3 lxm optional, bits 4-5 method), override byte
    # (low nibble exp, high nibble iat from the harness's table of extremes), then the payload or
    # `header\0payload`.
    def signed(control, payload, header=None, overrides=0):
        corpus.add("service-auth", bytes([control, overrides]) + (header + b"\0" if header else b"") + payload)

    signed(0x00, claims())
    signed(0x01, claims(iss="did:plc:bob"))
    signed(0x02, claims(iss="did:plc:labeler"))
    signed(0x23, claims(iss="did:plc:labeler#atproto_labeler", lxm="com.atproto.moderation.createReport"))
    signed(0x03, claims(iss="did:plc:labeler"))  # the label key for the plain DID: refused
    signed(0x22, claims(iss="did:plc:labeler#atproto_labeler", lxm="com.atproto.moderation.createReport"))
    signed(0x08, claims(lxm=None))
    signed(0x08, claims(lxm=None, exp=now + 3600))
    signed(0x10, claims(lxm="com.example.fuzz.whoAmI", iss="did:plc:alice#some_service"))
    signed(0x00, claims(iss="did:plc:keyless"))
    signed(0x00, claims(iss="did:plc:nobody"))
    for exp in (int_min, int_min + 1, -1, 0, now, now + 3661, int_max - 1, int_max):
        signed(0x00, claims(exp=exp))
        signed(0x00, claims(iat=exp))
    for overrides in (0x01, 0x02, 0x0D, 0x0E, 0x0F, 0xD0, 0x1D, 0x11):
        signed(0x00, claims(), overrides=overrides)
    for raw_exp in (b"1e400", b"-0", b"1800000060.5", b"18e8", b"99999999999999999999", b"-99999999999999999999"):
        signed(0x00, claims().replace(str(now + 60).encode(), raw_exp))
    for header in (
        {"alg": "ES256K", "typ": "JWT", "crit": ["b64"], "b64": False},
        {"alg": "ES256K", "typ": "JWT", "crit": []},
        {"alg": "ES256K", "typ": "JWT", "crit": "exp"},
        {"alg": "ES256K", "typ": "JWT", "kid": "did:plc:alice#atproto"},
        {"alg": "ES256K", "typ": "at+jwt"},
        {"alg": "ES256", "typ": "JWT"},
        {"alg": "none"},
    ):
        signed(0x00, claims(), header=json.dumps(header).encode())
    deep = "[" * 600 + "]" * 600
    signed(0x00, claims()[:-1] + b',"x":' + deep.encode() + b"}")
    signed(0x00, claims()[:-1] + b',"x":' + ("[" * 100 + "]" * 100).encode() + b"}")
    signed(0x00, claims(aud="did:web:" + "a" * 6000))
    signed(0x00, claims()[:-1] + b"," + b",".join(b'"k%d":%d' % (i, i) for i in range(400)) + b"}")
    # Raw mode (bit 2): the whole Authorization header.
    header = b64url(b'{"alg":"ES256K","typ":"JWT"}')
    token = header + "." + b64url(claims()) + "." + b64url(bytes(64))
    for value in ("Bearer " + token, "bearer   " + token + "   ", "Basic YWRtaW46eA==", "Bearer", "Bearer a.b.c",
                  "Bearer " + token + ".x", "Bearer " + header + "..", "BEARER " + "A" * 9000):
        corpus.add("service-auth", b"\x04" + value.encode())

    # Router: control byte (bits 0-1 GET/POST/HEAD/PUT, bit 2 alice's token, bit 3 the labeler's,
    # bits 4-5 that token's exp: +60 s, -2^63, 2^63-1, now; bit 6 as an upgrade), then
    # `target\nheaders\n\nbody`.
    def request(control, target, headers=(), body=b""):
        text = target + "\n" + "".join(name + ": " + value + "\n" for name, value in headers) + "\n"
        corpus.add("xrpc-router", bytes([control]) + text.encode() + body)

    things = "/xrpc/com.example.fuzz.listThings?actor=alice.example.com"
    request(0x00, things + "&limit=5&offset=-3&kinds=a&kinds=b&seqs=1&seqs=2&reverse=true&cursor=c"
            "&since=2024-01-01T00:00:00Z")
    for limit in ("9223372036854775807", "-9223372036854775808", "99999999999999999999", "1e400", "%2B5"):
        request(0x00, things + "&limit=" + limit)
        request(0x00, things + "&seqs=" + limit + "&offset=" + limit)
    request(0x00, things + "&" + "&".join("seqs=%d" % i for i in range(120)))
    request(0x00, things + "&cursor=" + "%F0%9F%98%80" * 70 + "&since=2024-13-01T00:00:00Z")
    request(0x04, things)
    request(0x44, things, [("Connection", "Upgrade"), ("Upgrade", "websocket")])
    who = "/xrpc/com.example.fuzz.whoAmI?verbose=true"
    json_type = ("Content-Type", "application/json")
    for control in (0x05, 0x0D, 0x15, 0x25, 0x35, 0x01):
        request(control, who, [json_type], b'{"note":"hi"}')
    request(0x01, who, [("Authorization", "Bearer x.y.z"), json_type], b"{}")
    cid = "bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454"
    thing = {
        "name": "n", "count": 5, "createdAt": "2024-01-01T00:00:00Z", "subject": "at://did:plc:a/app.bsky.feed.post/3k",
        "parts": [{"index": 0, "text": "t", "children": [{"index": 1}]}], "extra": {"a": [1, 2, {"b": None}]},
        "data": {"$bytes": "AAEC"}, "link": {"$link": cid},
        "image": {"$type": "blob", "ref": {"$link": cid}, "mimeType": "image/png", "size": int_max},
        "choice": {"$type": "com.example.fuzz.putThing#note", "text": "note"},
    }
    put = "/xrpc/com.example.fuzz.putThing"
    request(0x01, put, [json_type], json.dumps(thing).encode())
    for count in ("9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e400", "1e-400", "-0.0"):
        request(0x01, put, [json_type], b'{"name":"n","parts":[],"count":' + count.encode() + b"}")
    nested = {"index": 0}
    for depth in range(300):
        nested = {"index": depth, "children": [nested]}
    request(0x01, put, [json_type], json.dumps({"name": "n", "parts": [nested]}).encode())
    request(0x01, put, [json_type], b'{"name":"n","parts":[],"extra":' + deep.encode() + b"}")
    request(0x01, put, [json_type], b'{"name":"' + "\u00e9\u0301".encode() * 60 + b'","parts":[]}')
    for headers in (
        [("Content-Type", "APPLICATION/JSON; charset=utf-8")], [("content-type", "text/plain")],
        [("Content-Length", "-1"), json_type], [("Content-Length", "99999999999999999999"), json_type],
        [("Authorization", "Bearer"), json_type], [("X-Odd", ""), ("no colon here", ""), json_type],
    ):
        request(0x01, put, headers, b'{"name":"n","parts":[]}')
    for control, target in ((0x00, "/health"), (0x02, "/health"), (0x00, "/xrpc/"), (0x00, "/xrpc/com.example.fuzz.nope"),
                            (0x03, put), (0x00, put), (0x00, "/other?x=1"), (0x00, "/xrpc/" + "a." * 200 + "b")):
        request(control, target)


# MARK: from the shared PDS


def xrpc(base, nsid, params=None, token=None, body=None, raw=False):
    url = base + "/xrpc/" + nsid + ("?" + urllib.parse.urlencode(params) if params else "")
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=20) as response:
        data = response.read()
    return data if raw else json.loads(data)


def websocket_bytes(base, path, seconds=3.0, limit=1 << 20):
    """The raw bytes a WebSocket server sends after its handshake (a minimal client, no TLS)."""
    parsed = urllib.parse.urlparse(base)
    connection = socket.create_connection((parsed.hostname, parsed.port or 80), timeout=seconds)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {parsed.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    data = b""
    try:
        while len(data) < limit:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    connection.close()
    return data


def split_frames(stream):
    frames, offset = [], 0
    while offset + 2 <= len(stream):
        length, head = stream[offset + 1] & 0x7F, 2
        if length == 126:
            length, head = struct.unpack(">H", stream[offset + 2 : offset + 4])[0], 4
        elif length == 127:
            length, head = struct.unpack(">Q", stream[offset + 2 : offset + 10])[0], 10
        if offset + head + length > len(stream):
            break
        frames.append(stream[offset + head : offset + head + length])
        offset += head + length
    return frames


def from_pds(corpus, base, handle, password):
    session = xrpc(base, "com.atproto.server.createSession", body={"identifier": handle, "password": password})
    token, did = session["accessJwt"], session["did"]
    repo = xrpc(base, "com.atproto.sync.getRepo", {"did": did}, raw=True)
    for target in ("car", "repository", "mst"):
        corpus.add(target, repo)
    listed = xrpc(base, "com.atproto.repo.listRecords", {"repo": did, "collection": "app.bsky.feed.post", "limit": 20})
    for entry in listed.get("records", [])[:10]:
        corpus.add("record", json.dumps(entry["value"]))
        corpus.add("json", json.dumps(entry))
        rkey = entry["uri"].rsplit("/", 1)[1]
        proof = xrpc(base, "com.atproto.sync.getRecord", {"did": did, "collection": "app.bsky.feed.post", "rkey": rkey},
                     raw=True)
        for target in ("car", "repository", "mst"):
            corpus.add(target, proof)
    try:
        corpus.add("feed-page", json.dumps(xrpc(base, "app.bsky.feed.getTimeline", {"limit": 20}, token=token)))
    except Exception as error:  # noqa: BLE001 - a PDS without the appview answers 501; the built seed stays
        print(f"fuzz-seeds: no timeline from the PDS ({error})", file=sys.stderr)
    for name in ("oauth-authorization-server", "oauth-protected-resource"):
        try:
            with urllib.request.urlopen(base + "/.well-known/" + name, timeout=10) as response:
                corpus.add("oauth-metadata", response.read())
        except Exception as error:  # noqa: BLE001
            print(f"fuzz-seeds: no {name} ({error})", file=sys.stderr)
    stream = websocket_bytes(base, "/xrpc/com.atproto.sync.subscribeRepos?cursor=0")
    head_end = stream.find(b"\r\n\r\n")
    if head_end > 0:
        corpus.add("websocket", b"\x07" + stream[: head_end + 4])
        frames = stream[head_end + 4 :]
        for chunk in (1, 13, 31):
            corpus.add("websocket", bytes([chunk - 1]) + frames[:65536])
        for frame in split_frames(frames)[:200]:
            corpus.add("event-frame", frame)
            corpus.add("firehose", frame)
    dns_port = os.environ.get("ATPROTO_PDS_DNS_PORT")
    if dns_port:
        query = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0) + dns_name("_atproto." + handle) + b"\x00\x10\x00\x01"
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.settimeout(3)
            udp.sendto(query, ("127.0.0.1", int(dns_port)))
            answer = udp.recv(65535)
        # The harness asks for _atproto.fuzz.example: put that name in the question.
        asked = dns_name("_atproto." + handle)
        corpus.add("dns", answer[:12] + dns_name("_atproto.fuzz.example") + answer[12 + len(asked) :])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    corpus = Corpus(arguments.out)
    from_shared(corpus, Path(arguments.shared))
    built_here(corpus)
    server_seeds(corpus)
    base = os.environ.get("ATPROTO_PDS_URL")
    if base:
        try:
            from_pds(corpus, base.rstrip("/"), os.environ["ATPROTO_PDS_HANDLE"], os.environ["ATPROTO_PDS_PASSWORD"])
        except Exception as error:  # noqa: BLE001 - seeds from ../shared are enough to run
            print(f"fuzz-seeds: the PDS gave no seeds ({error})", file=sys.stderr)
    else:
        print("fuzz-seeds: ATPROTO_PDS_URL is not set; no seeds from the PDS", file=sys.stderr)
    print("seeds: " + ", ".join(f"{target} {count}" for target, count in sorted(corpus.counts.items())))


if __name__ == "__main__":
    main()
