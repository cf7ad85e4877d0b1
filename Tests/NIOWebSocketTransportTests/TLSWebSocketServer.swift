#if NIOWebSocketTransport || NIOHTTPTransport
    import Foundation
    import XCTest

    /// `tls_websocket_server.py` (beside this file) on loopback, serving over TLS with a self-signed certificate
    /// made for it by `openssl` (for `localhost` and `127.0.0.1`) in a temporary directory.
    ///
    /// The Python is `NIO_TLS_TEST_PYTHON` when set, else the PDS venv of `scripts/pds.sh install`
    /// (`.build/pds-venv` of the main package) when it exists, else `python3`; it needs `websockets`.
    /// ``start()`` throws `XCTSkip` when `openssl` or that Python is missing, and an error instead when
    /// `NIO_TLS_TEST_PYTHON` is set (as CI does), so a run that should test TLS cannot skip it.
    final class TLSWebSocketServer {
        /// The port of its `subscribeRepos`, on 127.0.0.1.
        let port: Int
        /// The port, on 127.0.0.1, that sends the upgrade response, the frames and a close frame in one write.
        let burstPort: Int
        /// The self-signed certificate it serves, PEM.
        let certificatePath: String
        private let process: Process
        private let input: Pipe
        private let directory: URL

        private init(port: Int, burstPort: Int, certificatePath: String, process: Process, input: Pipe, directory: URL)
        {
            self.port = port
            self.burstPort = burstPort
            self.certificatePath = certificatePath
            self.process = process
            self.input = input
            self.directory = directory
        }

        deinit { stop() }

        /// Stops the server (it ends when its standard input closes; it is killed if it has not after
        /// 5 s) and removes its certificate and key.
        func stop() {
            try? input.fileHandleForWriting.close()
            let deadline = ContinuousClock.now + .seconds(5)
            while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        private static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

        private static var requiredPython: String? {
            guard let python = ProcessInfo.processInfo.environment["NIO_TLS_TEST_PYTHON"], !python.isEmpty else {
                return nil
            }
            return python
        }

        private static var python: String {
            if let requiredPython { return requiredPython }
            let venv = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/pds-venv/bin/python").path
            return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
        }

        /// Makes a certificate and starts a server with it.
        static func start() throws -> TLSWebSocketServer {
            let python = python
            func missing(_ message: String) -> any Error {
                requiredPython == nil ? XCTSkip(message) : ServerError("\(message) (NIO_TLS_TEST_PYTHON is set)")
            }
            guard (try? run(["openssl", "version"]))?.status == 0 else {
                throw missing("openssl is not on PATH: the TLS server tests need it to make a self-signed certificate")
            }
            guard (try? run([python, "-c", "import websockets.asyncio.server"]))?.status == 0 else {
                throw missing(
                    "\(python) has no websockets package (13 or later): run scripts/pds.sh install in the main package, "
                        + "or set NIO_TLS_TEST_PYTHON to a Python that has it")
            }
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("nio-tls-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let certificate = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            let made = try run([
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ])
            guard made.status == 0 else {
                try? FileManager.default.removeItem(at: directory)
                throw ServerError("openssl could not make a certificate: \(made.output)")
            }

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                python, testsDirectory.appendingPathComponent("tls_websocket_server.py").path, certificate, key,
            ]
            let input = Pipe()
            let output = Pipe()
            let log = directory.appendingPathComponent("server.log")
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
                throw ServerError("cannot create \(log.path)")
            }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()

            // The first line of its output is the ports; a server that prints nothing is killed after 30 s.
            let started = StartFlag()
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
                if !started.isSet { kill(pid, SIGKILL) }
            }
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            started.set()
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let ports = text.split(separator: " ").compactMap { Int($0) }
            guard ports.count == 2 else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: directory)
                throw ServerError("tls_websocket_server.py did not print its ports (output \"\(text)\"): \(logText)")
            }
            return TLSWebSocketServer(
                port: ports[0], burstPort: ports[1], certificatePath: certificate, process: process, input: input,
                directory: directory)
        }

        /// Runs a command found on PATH; returns its exit status and its output (both streams).
        private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        /// The server could not be started.
        struct ServerError: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }
    }

    // @unchecked Sendable: `value` is read and written under `lock`.
    /// Set once the server has printed its port (or failed to), read by the watchdog.
    private final class StartFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false

        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
#endif  // NIOWebSocketTransport
