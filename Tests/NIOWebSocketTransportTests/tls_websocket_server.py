#!/usr/bin/env python3
"""A TLS WebSocket server for the NIOWebSocketTransport tests: a tiny com.atproto.sync.subscribeRepos.

    tls_websocket_server.py CERT_PEM KEY_PEM

Listens on 127.0.0.1 on two free ports over TLS with the certificate given (a self-signed one made
by the tests with openssl), prints them on a line of stdout (`PORT BURST_PORT`), and serves until
stdin closes (so it ends with the test process that started it). Needs the `websockets` package (the
PDS venv of scripts/pds.sh has it).

GET /xrpc/com.atproto.sync.subscribeRepos upgrades and sends binary event-stream frames (a DAG-CBOR
header and body each): #identity seq 1, a frame with an unknown op (to skip), #info, #identity seq 2,
then a normal close. With `cursor=999999` in the query it sends only an error frame
(op -1, FutureCursor) and closes. Any other path is answered 404 without an upgrade.

BURST_PORT answers any upgrade request with the 101 response, the same frames and a close frame in
one TLS write, so they reach the client in the read that brings the response (websockets writes the
response on its own): a client must not lose what follows the response.
"""

import asyncio
import base64
import hashlib
import http
import signal
import ssl
import sys
import threading
import urllib.parse

from websockets.asyncio.server import serve

NSID = "com.atproto.sync.subscribeRepos"
DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
FUTURE_CURSOR = "999999"


def cbor_head(major, value):
    """The initial byte(s) of a CBOR item, in the shortest form (as DAG-CBOR requires)."""
    if value < 24:
        return bytes([major << 5 | value])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | extra]) + value.to_bytes(size, "big")
    raise ValueError(f"{value} does not fit in 64 bits")


def cbor(value):
    """DAG-CBOR for what the frames hold: maps with text keys, text, integers, bools, null."""
    if value is None:
        return b"\xf6"
    if isinstance(value, bool):
        return b"\xf5" if value else b"\xf4"
    if isinstance(value, int):
        return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)
    if isinstance(value, str):
        data = value.encode()
        return cbor_head(3, len(data)) + data
    if isinstance(value, dict):
        # DAG-CBOR map keys: shorter first, then bytewise.
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return cbor_head(5, len(keys)) + b"".join(cbor(key) + cbor(value[key]) for key in keys)
    raise TypeError(f"cannot encode {type(value).__name__}")


def message(type_, body):
    return cbor({"op": 1, "t": type_}) + cbor(body)


def frames(cursor):
    if cursor == FUTURE_CURSOR:
        return [cbor({"op": -1}) + cbor({"error": "FutureCursor", "message": "Cursor in the future."})]
    return [
        message("#identity", {"seq": 1, "did": DID, "time": "2024-05-01T12:00:00.000Z", "handle": "alice.test"}),
        cbor({"op": 2, "t": "#later"}) + cbor({"ignored": True}),
        message("#info", {"name": "OutdatedCursor", "message": "Requested cursor exceeded limit."}),
        message("#identity", {"seq": 2, "did": DID, "time": "2024-05-01T12:00:01.000Z"}),
    ]


def process_request(connection, request):
    if urllib.parse.urlsplit(request.path).path != f"/xrpc/{NSID}":
        return connection.respond(http.HTTPStatus.NOT_FOUND, "no such event stream\n")
    return None


async def handler(connection):
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(connection.request.path).query)
    for frame in frames(query.get("cursor", [""])[0]):
        await connection.send(frame)
    await connection.close()


def server_frame(opcode, payload):
    """An unmasked, unfragmented WebSocket frame, as a server sends it."""
    if len(payload) < 126:
        length = bytes([len(payload)])
    elif len(payload) < 1 << 16:
        length = bytes([126]) + len(payload).to_bytes(2, "big")
    else:
        length = bytes([127]) + len(payload).to_bytes(8, "big")
    return bytes([0x80 | opcode]) + length + payload


async def burst(reader, writer):
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:] if line)
        }
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        response = (
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        payload = b"".join(server_frame(0x2, frame) for frame in frames(""))
        writer.write(response + payload + server_frame(0x8, (1000).to_bytes(2, "big")))
        await writer.drain()
        await asyncio.wait_for(reader.read(), 10)  # the client's close frame, then its end
    except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def main(cert, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    stdin_closed = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wait_for_stdin():
        sys.stdin.read()
        loop.call_soon_threadsafe(stdin_closed.set)

    burst_server = await asyncio.start_server(burst, "127.0.0.1", 0, ssl=context)
    async with serve(handler, "127.0.0.1", 0, ssl=context, process_request=process_request) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        burst_port = next(iter(burst_server.sockets)).getsockname()[1]
        print(port, burst_port, flush=True)
        threading.Thread(target=wait_for_stdin, daemon=True).start()
        await stdin_closed.wait()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: tls_websocket_server.py CERT_PEM KEY_PEM")
    # Foundation's Process on Linux may start it with signals blocked: let SIGTERM and SIGINT end it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    asyncio.run(main(sys.argv[1], sys.argv[2]))
