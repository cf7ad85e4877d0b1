import Foundation
import XRPCAgents

/// Where any of `secrets` appears in `texts`: one line per leak, naming the secret by its index
/// and showing the text around it with the secret masked. Empty secrets are passed over.
package func secretLeaks(in texts: [String], of secrets: [String]) -> [String] {
    var leaks: [String] = []
    for (index, secret) in secrets.enumerated() where !secret.isEmpty {
        for text in texts where text.contains(secret) {
            leaks.append("secret #\(index) in: " + text.replacingOccurrences(of: secret, with: "<SECRET>").prefix(300))
        }
    }
    return leaks
}

/// Everything a value prints as: `String(describing:)`, `String(reflecting:)` and `dump`.
package func printedForms(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), dumped]
}

// @unchecked Sendable: `records` is read and written under `lock`.
/// Collects every log record a logger writes, for the secret-leak tests of the sessions.
package final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [XRPCLogRecord] = []

    /// An empty capture.
    package init() {}

    /// A logger at `debug` that appends every record here.
    package var logger: XRPCLogger {
        XRPCLogger(minimumLevel: .debug) { [self] record in lock.withLock { records.append(record) } }
    }
    /// Each record's description and everything it prints as.
    package var lines: [String] { lock.withLock { records }.flatMap { [$0.description] + printedForms($0) } }
    /// How many records were written.
    package var count: Int { lock.withLock { records.count } }
}
