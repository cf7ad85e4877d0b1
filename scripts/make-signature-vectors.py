#!/usr/bin/env python3
"""Writes Tests/AtprotoCryptoTests/signature-vectors.json: ECDSA test vectors for AtprotoCrypto.

Signatures are made and checked by OpenSSL (the `cryptography` package); the expected answer of
each vector is atproto's: OpenSSL's verdict, and also the compact 64-byte r||s form, r and s in
1...n-1, and s <= n/2 (low-S). Cases:

- valid: a fresh key signs a random message; s normalised to low-S (n - s when s > n/2).
- message-bit, r-bit, s-bit: one bit of the message, r or s flipped.
- high-s: the valid signature with s replaced by n - s (OpenSSL accepts it, atproto does not).
- r-wraps: the x of R lies in n..<p, so r = x - n (made by choosing R, s and the message, then
  recovering the public key for which the signature holds; plain Python integers below).
- s-half, s-half-plus-one: s = (n-1)/2 (the largest low s, valid) and (n+1)/2 (high), likewise.
- r-zero, s-zero, r-is-n, s-is-n, der, short: out of range or not the compact form.

Usage: python3 scripts/make-signature-vectors.py [count per curve, default 50]
(any python3 with `cryptography`, e.g. .build/pds-venv/bin/python after `scripts/pds.sh install`).
"""

import hashlib
import json
import os
import secrets
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

CURVES = {
    "secp256k1": {
        "openssl": ec.SECP256K1(),
        "p": 2**256 - 2**32 - 977,
        "n": 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141,
        "a": 0,
        "b": 7,
        "g": (
            0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
            0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8,
        ),
    },
    "p256": {
        "openssl": ec.SECP256R1(),
        "p": 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF,
        "n": 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
        "a": -3,
        "b": 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
        "g": (
            0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
            0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
        ),
    },
}


# Affine point arithmetic with Python integers (None is the point at infinity), only to build the
# recovered-key cases; OpenSSL then confirms each of them.
def point_add(curve, P, Q):
    p = curve["p"]
    if P is None:
        return Q
    if Q is None:
        return P
    if P[0] == Q[0] and (P[1] + Q[1]) % p == 0:
        return None
    if P == Q:
        slope = (3 * P[0] * P[0] + curve["a"]) * pow(2 * P[1], -1, p) % p
    else:
        slope = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
    x = (slope * slope - P[0] - Q[0]) % p
    return (x, (slope * (P[0] - x) - P[1]) % p)


def point_mul(curve, k, P):
    result = None
    for bit in bin(k)[2:]:
        result = point_add(curve, result, result)
        if bit == "1":
            result = point_add(curve, result, P)
    return result


def lift_x(curve, x):
    """The point with this x and even y, or None."""
    p = curve["p"]
    rhs = (x**3 + curve["a"] * x + curve["b"]) % p
    y = pow(rhs, (p + 1) // 4, p)
    if y * y % p != rhs:
        return None
    return (x, y if y % 2 == 0 else p - y)


def compressed(point):
    return bytes([2 + point[1] % 2]) + point[0].to_bytes(32, "big")


def uncompressed(point):
    return b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")


def openssl_accepts(name, public_bytes, message, r, s):
    """OpenSSL's verdict on (r, s) for the message (SHA-256), any s."""
    if not (0 < r < CURVES[name]["n"] and 0 < s < CURVES[name]["n"]):
        return False
    key = ec.EllipticCurvePublicKey.from_encoded_point(CURVES[name]["openssl"], public_bytes)
    try:
        key.verify(encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def vector(name, public_bytes, message, signature, case):
    n = CURVES[name]["n"]
    atproto = False
    if len(signature) == 64:
        r = int.from_bytes(signature[:32], "big")
        s = int.from_bytes(signature[32:], "big")
        atproto = 0 < r < n and 0 < s <= n // 2 and openssl_accepts(name, public_bytes, message, r, s)
    return {
        "case": case,
        "curve": name,
        "publicKeyHex": public_bytes.hex(),
        "messageHex": message.hex(),
        "digestHex": hashlib.sha256(message).hexdigest(),
        "signatureHex": signature.hex(),
        "valid": atproto,
    }


def flip_bit(data, index):
    out = bytearray(data)
    out[index // 8] ^= 1 << (index % 8)
    return bytes(out)


def compact(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def signed_vectors(name, index):
    curve = CURVES[name]
    n = curve["n"]
    private = ec.generate_private_key(curve["openssl"])
    # Alternate the two SEC1 forms so that both parse paths are exercised.
    form = serialization.PublicFormat.CompressedPoint if index % 2 == 0 else serialization.PublicFormat.UncompressedPoint
    public_bytes = private.public_key().public_bytes(serialization.Encoding.X962, form)
    message = os.urandom(1 + secrets.randbelow(64))
    r, s = decode_dss_signature(private.sign(message, ec.ECDSA(hashes.SHA256())))
    if s > n // 2:
        s = n - s
    signature = compact(r, s)
    out = [
        vector(name, public_bytes, message, signature, "valid"),
        vector(name, public_bytes, flip_bit(message, secrets.randbelow(len(message) * 8)), signature, "message-bit"),
        vector(name, public_bytes, message, flip_bit(signature, secrets.randbelow(256)), "r-bit"),
        vector(name, public_bytes, message, flip_bit(signature, 256 + secrets.randbelow(256)), "s-bit"),
        vector(name, public_bytes, message, compact(r, n - s), "high-s"),
    ]
    if index == 0:
        out += [
            vector(name, public_bytes, message, compact(0, s), "r-zero"),
            vector(name, public_bytes, message, compact(r, 0), "s-zero"),
            vector(name, public_bytes, message, compact(n, s), "r-is-n"),
            vector(name, public_bytes, message, compact(r, n), "s-is-n"),
            vector(name, public_bytes, message, encode_dss_signature(r, s), "der"),
            vector(name, public_bytes, message, signature[:63], "short"),
        ]
    return out


def recovered_key_vector(name, case, r=None, s=None):
    """A signature with a chosen r and s: pick R (x = r, or r + n for `r-wraps`), a message, then
    the key Q = r^-1 (s R - e G) for which it verifies."""
    curve = CURVES[name]
    n, p = curve["n"], curve["p"]
    while True:
        if case == "r-wraps":
            r = 1 + secrets.randbelow(p - n - 1)
            R = lift_x(curve, r + n)
        else:
            r = 1 + secrets.randbelow(n - 1)
            R = lift_x(curve, r)
        if R is None:
            continue
        message = os.urandom(32)
        e = int.from_bytes(hashlib.sha256(message).digest(), "big") % n
        signature_s = s if s is not None else 1 + secrets.randbelow(n // 2)
        sR = point_mul(curve, signature_s, R)
        minus_eG = point_mul(curve, (n - e) % n, curve["g"])
        Q = point_mul(curve, pow(r, -1, n), point_add(curve, sR, minus_eG))
        if Q is None:
            continue
        public_bytes = compressed(Q) if secrets.randbelow(2) == 0 else uncompressed(Q)
        assert openssl_accepts(name, public_bytes, message, r, signature_s), "OpenSSL rejects a recovered-key case"
        return vector(name, public_bytes, message, compact(r, signature_s), case)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    vectors = []
    for name, curve in CURVES.items():
        for index in range(count):
            vectors += signed_vectors(name, index)
        n = curve["n"]
        vectors += [recovered_key_vector(name, "r-wraps") for _ in range(3)]
        vectors.append(recovered_key_vector(name, "s-half", s=(n - 1) // 2))
        vectors.append(recovered_key_vector(name, "s-half-plus-one", s=(n + 1) // 2))
    document = {
        "comment": "ECDSA vectors made by scripts/make-signature-vectors.py with OpenSSL (Python cryptography); "
        "valid is atproto's answer (compact r||s, r and s in 1...n-1, low-S). Regenerate with that script.",
        "vectors": vectors,
    }
    path = os.path.join(os.path.dirname(__file__), "..", "Tests", "AtprotoCryptoTests", "signature-vectors.json")
    # One vector a line, so that a regenerated file diffs line by line.
    lines = ",\n".join("  " + json.dumps(v, separators=(",", ":")) for v in vectors)
    with open(path, "w") as out:
        out.write('{"comment":' + json.dumps(document["comment"]) + ',\n"vectors":[\n' + lines + "\n]}\n")
    valid = sum(1 for v in vectors if v["valid"])
    print(f"wrote {len(vectors)} vectors ({valid} valid) to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
