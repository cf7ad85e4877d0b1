import Foundation

/// The reference side in Python (for ReferenceProcess): libipld decodes, hashlib checks every
/// block's CID, coincurve (libsecp256k1) checks the commit's signature. Its input is a list of
/// byte strings, each with a 4-byte big-endian length: the signing key (SEC1), the repository's
/// CAR, then the firehose frames.
///
/// What it leaves out, stated with each figure: the MST (for a repository, the walk that proves its
/// keys, order and completeness; for a commit, the inversion that proves its operations turn prevData
/// into data), and the DID-to-key resolution (the key is given). The unsigned commit is the signed
/// block with its `sig` entry cut out, bytes spliced rather than decoded and encoded again.
let referenceScript = """
    import hashlib, libipld, coincurve
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    raw = open(INPUT, "rb").read()
    items, at = [], 0
    while at < len(raw):
        size = int.from_bytes(raw[at:at + 4], "big")
        items.append(raw[at + 4:at + 4 + size])
        at += 4 + size
    key = coincurve.PublicKey(items[0])
    repository, frames = items[1], items[2:]
    def varint(data, at):
        value, shift = 0, 0
        while True:
            byte = data[at]; at += 1
            value |= (byte & 0x7F) << shift; shift += 7
            if byte < 0x80: return value, at
    def read_car(car):
        size, at = varint(car, 0)
        root = libipld.decode_dag_cbor(car[at:at + size])["roots"][0]
        at += size
        blocks = {}
        while at < len(car):
            size, at = varint(car, at)
            cid, data = car[at:at + 36], car[at + 36:at + size]
            if cid[:4] != b"\\x01\\x71\\x12\\x20" and cid[:4] != b"\\x01\\x55\\x12\\x20":
                raise ValueError("not a CIDv1 sha2-256")
            if hashlib.sha256(data).digest() != cid[4:]: raise ValueError("a block's hash is wrong")
            blocks[cid[4:]] = data
            at += size
        return root, blocks
    def check_commit(block):
        commit = libipld.decode_dag_cbor(block)
        signature = commit["sig"]
        marker = b"\\x63sig\\x58\\x40" + signature
        unsigned = bytes([block[0] - 1]) + block[1:].replace(marker, b"", 1)
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        if not key.verify(der, unsigned, hasher=lambda m: hashlib.sha256(m).digest()):
            raise ValueError("the commit's signature does not verify")
        return commit
    def prove_repository():
        root, blocks = read_car(repository)
        check_commit(blocks[root[4:]])
        for data in blocks.values(): libipld.decode_dag_cbor(data)
    def prove_frames():
        for frame in frames:
            header, body = libipld.decode_dag_cbor_multi(frame)
            root, blocks = read_car(body["blocks"])
            commit = check_commit(blocks[body["commit"][4:]])
            if commit["rev"] != body["rev"]: raise ValueError("rev")
    tasks = {"repository": prove_repository, "firehose": prove_frames}
    """

/// The reference's input: each item with its length.
func referenceInput(key: [UInt8], repository: Data, frames: [Data]) -> Data {
    var data = Data()
    for item in [Data(key), repository] + frames {
        withUnsafeBytes(of: UInt32(item.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(item)
    }
    return data
}
