#if SwiftCryptoSigner
    import AtprotoIdentityResolution
    import AtprotoOAuth
    import Foundation
    import OAuthCore
    import SwiftCryptoSigner
    import XCTest
    import XRPCRuntime

    /// A PDS to sign in to: the shared one (`scripts/pds.sh start`) or one a test starts itself.
    struct PDSFixture: Sendable {
        var url: URL
        var accounts: [String: String]

        /// The shared PDS, or a skip when ATPROTO_PDS_URL is not set.
        static func shared() throws -> PDSFixture {
            let environment = ProcessInfo.processInfo.environment
            guard let text = environment["ATPROTO_PDS_URL"], let url = URL(string: text) else {
                throw XCTSkip(
                    "set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\") to run the OAuth integration tests")
            }
            var accounts = [
                (environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"): (environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2")
            ]
            accounts[environment["ATPROTO_PDS_WEB_HANDLE"] ?? "bob.test"] =
                environment["ATPROTO_PDS_WEB_PASSWORD"] ?? "pw2"
            return PDSFixture(url: url, accounts: accounts)
        }

        var handle: String { accounts.keys.sorted().first ?? "alice.test" }

        /// Resolution against this PDS: handles by its well-known answer, DIDs by its PLC directory and
        /// did:web document.
        var resolver: StandardIdentityResolver {
            let overrides = HostOverrides(Dictionary(uniqueKeysWithValues: accounts.keys.map { ($0, url) }))
            return StandardIdentityResolver(
                handles: StandardHandleResolver(dns: nil, wellKnown: WellKnownHandleResolver(hostOverrides: overrides)),
                dids: StandardDIDResolver(
                    plc: PLCDirectoryResolver(directory: url.appendingPathComponent("plc")),
                    web: WebDIDResolver(hostOverrides: overrides)))
        }

        func client(
            _ configuration: OAuthClientConfiguration = .development(),
            store: (any OAuthSessionStore)? = nil
        ) -> AtprotoOAuthClient {
            AtprotoOAuthClient(
                configuration: configuration, keyFactory: SwiftCryptoES256KeyFactory(), resolver: resolver,
                refreshLock: OAuthInProcessRefreshLock(), store: store)
        }

        func authenticator(_ identifier: String) -> HeadlessAuthenticator {
            HeadlessAuthenticator(identifier: identifier, password: accounts[identifier] ?? "")
        }

        func signIn(_ handle: String, client: AtprotoOAuthClient? = nil) async throws -> OAuthSession {
            try await (client ?? self.client()).signIn(.account(handle), with: authenticator(handle))
        }
    }

    // @unchecked Sendable: `process` and `output` are `let`s set up in `init`; later only their own methods run.
    /// A process the tests start and stop (a short-lived PDS, a file server).
    final class ChildProcess: @unchecked Sendable {
        let process = Process()
        let output = Pipe()

        /// Starts `executable`; without `capture`, its output goes to /dev/null (a full pipe would stall it).
        init(_ executable: String, _ arguments: [String], directory: URL? = nil, capture: Bool = false) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardOutput = capture ? output : FileHandle.nullDevice
            process.standardError = capture ? output : FileHandle.nullDevice
            try process.run()
        }

        /// SIGTERM, then SIGKILL after 2 seconds; waits for the exit.
        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            while process.isRunning { usleep(50_000) }
        }

        /// The repository root (this file is Tests/<target>/<file>).
        static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        static var python: String {
            ProcessInfo.processInfo.environment["ATPROTO_PDS_PYTHON"]
                ?? repository.appendingPathComponent(".build/pds-venv/bin/python").path
        }

        /// A free loopback port (bound, read, released).
        static func freePort() -> Int {
            let probe = try? ChildProcess(
                python, ["-c", "import socket;s=socket.socket();s.bind(('127.0.0.1',0));print(s.getsockname()[1])"],
                capture: true)
            probe?.process.waitUntilExit()
            let text = String(
                decoding: probe?.output.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }

        /// Waits until `url` answers, up to `seconds`.
        static func waitUntilUp(_ url: URL, seconds: Double = 20) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            let http = URLSessionTransport.oauthDefault()
            while Date() < deadline {
                if let answer = try? await http.send(.getJSON(url)), answer.status < 500 { return true }
                try? await Task.sleep(for: .milliseconds(200))
            }
            return false
        }
    }

    // @unchecked Sendable: `running` is read and written under `lock`.
    /// A PDS started by the tests with short OAuth timings: access tokens of 8 s, nonces rotating every
    /// 2 s. Needs the PDS venv (scripts/pds.sh install) and ../shared/pds. ``stop()`` ends it (the test
    /// class's tearDown).
    final class FastPDS: @unchecked Sendable {
        static let shared = FastPDS()
        private let lock = NSLock()
        private var running: (ChildProcess, PDSFixture)?

        func fixture() async throws -> PDSFixture {
            if let running = lock.withLock({ running }) { return running.1 }
            _ = try PDSFixture.shared()  // the same prerequisites as the shared PDS's tests
            let directory =
                ProcessInfo.processInfo.environment["PDS_DIR"].map { URL(fileURLWithPath: $0) }
                ?? ChildProcess.repository.deletingLastPathComponent().appendingPathComponent("shared/pds")
            let port = ChildProcess.freePort()
            let process = try ChildProcess(
                ChildProcess.python,
                [
                    directory.appendingPathComponent("serve.py").path, "--port", "\(port)", "--account",
                    "carol.test:pw3",
                    "--oauth-access-ttl", "8", "--oauth-nonce-rotate", "2",
                ], directory: directory)
            guard let url = URL(string: "http://127.0.0.1:\(port)"),
                await ChildProcess.waitUntilUp(url.appendingPathComponent("xrpc/_health"))
            else {
                process.stop()
                throw XCTSkip("the short-lived PDS did not start on port \(port)")
            }
            let fixture = PDSFixture(url: url, accounts: ["carol.test": "pw3"])
            lock.withLock { running = (process, fixture) }
            return fixture
        }

        func stop() {
            let process = lock.withLock {
                defer { running = nil }
                return running?.0
            }
            process?.stop()
        }
    }

    /// The session's archive, or a test failure when it has none.
    func currentArchive(of session: OAuthSession, file: StaticString = #filePath, line: UInt = #line) async throws
        -> OAuthSessionArchive
    {
        let archive = await session.archive
        return try XCTUnwrap(archive, "the session has no archive", file: file, line: line)
    }
#endif  // SwiftCryptoSigner
