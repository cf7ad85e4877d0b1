import Foundation

/// libipld decoding the same frames (for ReferenceProcess): header and body, the CAR with every
/// block decoded to Python values, and each record's text read.
let libipldScript = """
    import libipld
    raw = open(INPUT, "rb").read()
    frames, at = [], 0
    while at < len(raw):
        size = int.from_bytes(raw[at:at + 4], "big")
        frames.append(raw[at + 4:at + 4 + size])
        at += 4 + size
    def decode():
        for frame in frames:
            header, body = libipld.decode_dag_cbor_multi(frame)
            car_header, blocks = libipld.decode_car(body["blocks"])
            for value in blocks.values():
                if isinstance(value, dict): value.get("text")
    tasks = {"decode": decode}
    """

/// The frames as one input: each with a 4-byte big-endian length.
func lengthPrefixed(_ frames: [Data]) -> Data {
    var data = Data()
    for frame in frames {
        withUnsafeBytes(of: UInt32(frame.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(frame)
    }
    return data
}

/// The frames of a file written as ``lengthPrefixed(_:)`` writes them.
func savedFrames(_ url: URL) throws -> [Data] {
    let data = try Data(contentsOf: url)
    var frames: [Data] = []
    var at = data.startIndex
    while at + 4 <= data.endIndex {
        let size = data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        guard at + 4 + size <= data.endIndex else { throw BenchmarkError(description: "a cut frame in \(url.path)") }
        frames.append(Data(data[at + 4..<at + 4 + size]))
        at += 4 + size
    }
    return frames
}
