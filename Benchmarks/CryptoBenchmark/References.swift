import BenchmarkSupport
import Foundation

/// The reference side in Python, for ReferenceProcess: libsecp256k1 (coincurve) and OpenSSL
/// (cryptography) verify the same signatures; OpenSSL (hashlib) hashes the same bytes. The input
/// is the vectors as JSON plus the hashing sizes.
let referenceScript = """
    import json, hashlib
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    import coincurve
    setup = json.load(open(INPUT))
    def openssl(v):
        curve = ec.SECP256K1() if v["curve"] == "secp256k1" else ec.SECP256R1()
        key = ec.EllipticCurvePublicKey.from_encoded_point(curve, bytes.fromhex(v["publicKey"]))
        der = encode_dss_signature(int(v["r"], 16), int(v["s"], 16))
        message = bytes.fromhex(v["message"])
        return lambda: key.verify(der, message, ec.ECDSA(hashes.SHA256()))
    def libsecp(v):
        key = coincurve.PublicKey(bytes.fromhex(v["publicKey"]))
        der = encode_dss_signature(int(v["r"], 16), int(v["s"], 16))
        message = bytes.fromhex(v["message"])
        def check():
            if not key.verify(der, message, hasher=lambda m: hashlib.sha256(m).digest()):
                raise ValueError("coincurve rejects a benchmark signature")
        return check
    def every(checks):
        def run():
            for check in checks: check()
        return run
    k256 = [v for v in setup["vectors"] if v["curve"] == "secp256k1"]
    p256 = [v for v in setup["vectors"] if v["curve"] == "p256"]
    large = bytes(i % 251 for i in range(setup["largeBytes"]))
    small = [bytes((i + j) % 251 for j in range(setup["smallBytes"])) for i in range(setup["smallCount"])]
    def hash_small():
        for block in small: hashlib.sha256(block).digest()
    tasks = {
        "libsecp256k1": every([libsecp(v) for v in k256]),
        "openssl-k256": every([openssl(v) for v in k256]),
        "openssl-p256": every([openssl(v) for v in p256]),
        "sha256-large": lambda: hashlib.sha256(large).digest(),
        "sha256-small": hash_small,
    }
    """

/// The JSON input of the script: the vectors and the hashing workload's sizes.
func referenceInput(largeBytes: Int, smallBytes: Int, smallCount: Int) -> Data {
    let vectors = benchmarkVectors.map {
        ["curve": $0.curve, "publicKey": $0.publicKey, "message": $0.message, "r": $0.r, "s": $0.s]
    }
    let object: [String: Any] = [
        "vectors": vectors, "largeBytes": largeBytes, "smallBytes": smallBytes, "smallCount": smallCount,
    ]
    return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
}
