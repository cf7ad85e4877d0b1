import Foundation

/// Why the reference libraries could not be measured.
struct ReferenceNote: Error {
    var message: String
}

/// Runs the same verifications through libsecp256k1 (coincurve) and OpenSSL (cryptography) in a
/// Python child process and reads back their rates.
enum ReferenceLibraries {
    /// The Python script: reads the vectors (JSON) on standard input, prints one JSON object of
    /// verifications per second by library and curve. Each signature is checked first.
    static let script = """
        import json, sys, time, hashlib
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
        import coincurve
        vectors, seconds = json.load(sys.stdin), float(sys.argv[1])
        def rate(checks):
            for check in checks:
                if not check(): raise SystemExit("a reference library rejects a benchmark signature")
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                for check in checks: check()
                count += len(checks)
            return count / (time.perf_counter() - start)
        def openssl(v):
            curve = ec.SECP256K1() if v["curve"] == "secp256k1" else ec.SECP256R1()
            key = ec.EllipticCurvePublicKey.from_encoded_point(curve, bytes.fromhex(v["publicKey"]))
            der = encode_dss_signature(int(v["r"], 16), int(v["s"], 16))
            message = bytes.fromhex(v["message"])
            def check():
                key.verify(der, message, ec.ECDSA(hashes.SHA256()))
                return True
            return check
        def libsecp(v):
            key = coincurve.PublicKey(bytes.fromhex(v["publicKey"]))
            der = encode_dss_signature(int(v["r"], 16), int(v["s"], 16))
            message = bytes.fromhex(v["message"])
            return lambda: key.verify(der, message, hasher=lambda m: hashlib.sha256(m).digest())
        k256 = [v for v in vectors if v["curve"] == "secp256k1"]
        p256 = [v for v in vectors if v["curve"] == "p256"]
        print(json.dumps({
            "coincurve-secp256k1": rate([libsecp(v) for v in k256]),
            "openssl-secp256k1": rate([openssl(v) for v in k256]),
            "openssl-p256": rate([openssl(v) for v in p256]),
        }))
        """

    /// The python with coincurve and cryptography: $CRYPTO_BENCH_PYTHON or the pds.sh venv.
    static var python: String {
        ProcessInfo.processInfo.environment["CRYPTO_BENCH_PYTHON"] ?? ".build/pds-venv/bin/python"
    }

    static func measure(
        vectors: [(curve: String, publicKey: String, message: String, r: String, s: String)], seconds: Double
    ) -> Result<[String: Double], ReferenceNote> {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return .failure(
                ReferenceNote(message: "no \(python); run `bash scripts/pds.sh install` (or set CRYPTO_BENCH_PYTHON)"))
        }
        let objects = vectors.map {
            ["curve": $0.curve, "publicKey": $0.publicKey, "message": $0.message, "r": $0.r, "s": $0.s]
        }
        guard let input = try? JSONSerialization.data(withJSONObject: objects) else {
            return .failure(ReferenceNote(message: "could not encode the vectors"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, String(seconds)]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do {
            try process.run()
        } catch {
            return .failure(ReferenceNote(message: "could not start \(python): \(error)"))
        }
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let rates = (try? JSONSerialization.jsonObject(with: output)) as? [String: Double]
        else {
            return .failure(ReferenceNote(message: "\(python) failed (exit \(process.terminationStatus))"))
        }
        return .success(rates)
    }
}
