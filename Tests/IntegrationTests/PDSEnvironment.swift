import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// The PDS the integration tests run against, from the environment `scripts/pds.sh start` prints:
///
/// ```sh
/// eval "$(scripts/pds.sh start)" && swift test --filter IntegrationTests; scripts/pds.sh stop
/// ```
///
/// - `ATPROTO_PDS_URL`: the PDS (`http://127.0.0.1:<port>`); without it every test is skipped.
/// - `ATPROTO_PDS_HANDLE`, `ATPROTO_PDS_PASSWORD`: an account on it.
/// - `ATPROTO_PDS_ACCESS_TTL`: how long its access tokens live, in seconds (the refresh tests wait
///   that long; they are skipped when it is more than 30).
struct PDSEnvironment {
    let url: URL
    let handle: String
    let password: String
    let accessTokenLifetime: Int?

    /// The environment, or a skip that says how to provide it.
    static func current(file: StaticString = #filePath, line: UInt = #line) throws -> PDSEnvironment {
        let variables = ProcessInfo.processInfo.environment
        guard let text = variables["ATPROTO_PDS_URL"], !text.isEmpty else {
            throw XCTSkip(
                "ATPROTO_PDS_URL is not set: integration tests need a PDS; run "
                    + "eval \"$(scripts/pds.sh start)\" first (see CONTRIBUTING.md)", file: file, line: line)
        }
        guard let url = URL(string: text), url.host != nil else {
            throw XCTSkip("ATPROTO_PDS_URL \"\(text)\" is not a URL", file: file, line: line)
        }
        guard let handle = variables["ATPROTO_PDS_HANDLE"], let password = variables["ATPROTO_PDS_PASSWORD"] else {
            throw XCTSkip(
                "ATPROTO_PDS_HANDLE and ATPROTO_PDS_PASSWORD must name an account on \(text)", file: file, line: line)
        }
        return PDSEnvironment(
            url: url, handle: handle, password: password,
            accessTokenLifetime: variables["ATPROTO_PDS_ACCESS_TTL"].flatMap { Int($0) })
    }

    /// A transport to the PDS that records every request it sends.
    func recordingTransport() -> StubAgent {
        let transport = URLSessionAgent(serviceURL: url, timeout: .seconds(20))
        return StubAgent { request in try await transport.send(request) }
    }

    /// A session logged in to the test account, its transport, and a client over it.
    func loggedIn() async throws -> LoggedIn {
        let transport = recordingTransport()
        let session = PasswordSession(service: url, agent: transport)
        let archive = try await session.login(ATIdentifier(rawValue: handle), password: password)
        return LoggedIn(
            session: session, transport: transport, client: XRPCClient(agent: session), did: archive.did)
    }
}

/// A logged-in session with what the tests need around it.
struct LoggedIn {
    let session: PasswordSession
    let transport: StubAgent
    let client: XRPCClient
    let did: DID

    /// The account's repository.
    var repo: ATIdentifier { ATIdentifier(did) }

    /// The NSIDs of the requests sent so far, in order.
    var sentNSIDs: [NSID] { transport.requests.map(\.nsid) }
}

/// The current time as a record's `createdAt`.
func now() -> LexiconDatetime {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return LexiconDatetime(rawValue: formatter.string(from: Date()))
}
