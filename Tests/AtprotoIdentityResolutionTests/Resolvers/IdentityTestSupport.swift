import AtprotoIdentityResolution
import Foundation
import LoopbackHTTPServer
import XRPCRuntime

// @unchecked Sendable: the tables are under `lock`; `server` is set in `init`, before anyone knows its port.
/// A loopback server that answers by path from a table the test changes, and counts requests.
final class IdentityTestServer: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: LoopbackHTTPServer.Response] = [:]
    private var counts: [String: Int] = [:]
    private var hosts: [String] = []
    private(set) var server: LoopbackHTTPServer?

    init() throws {
        server = try LoopbackHTTPServer { [weak self] request in
            guard let self else { return LoopbackHTTPServer.Response(status: 500) }
            return self.answer(request)
        }
    }

    deinit { server?.stop() }

    var baseURL: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var port: Int { server?.port ?? 0 }

    func route(_ path: String, _ response: LoopbackHTTPServer.Response) {
        lock.withLock { routes[path] = response }
    }

    func route(_ path: String, text: String, status: Int = 200, delay: Double = 0) {
        route(path, LoopbackHTTPServer.Response(status: status, body: Data(text.utf8), delay: delay))
    }

    func count(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
    var hostHeaders: [String] { lock.withLock { hosts } }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.withLock {
            counts[request.path, default: 0] += 1
            hosts.append(request.headers["host"] ?? "")
            return routes[request.path] ?? LoopbackHTTPServer.Response(status: 404)
        }
    }
}

/// A DNS answer table for tests.
struct FakeDNS: DNSTXTLookup {
    var records: [String: [String]]
    var failure: DNSError?

    func txtRecords(for name: String) async throws -> [String] {
        if let failure { throw failure }
        return records[name] ?? []
    }
}

/// A DID document as a PLC directory serves it.
func documentText(did: String, handle: String?, pds: String = "https://pds.example.com") -> String {
    let aka = handle.map { #"["at://\#($0)"]"# } ?? "[]"
    return """
        {"id": "\(did)", "alsoKnownAs": \(aka),
         "verificationMethod": [{"id": "\(did)#atproto", "type": "Multikey", "controller": "\(did)",
                                 "publicKeyMultibase": "zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF"}],
         "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": "\(pds)"}]}
        """
}

extension IdentityError {
    static func kind(of error: any Error) -> IdentityError.Code? { (error as? IdentityError)?.code }
}

/// Runs `body`, expecting an ``IdentityError``, and returns it.
func identityError(_ body: () async throws -> Void) async -> IdentityError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? IdentityError
    }
}
