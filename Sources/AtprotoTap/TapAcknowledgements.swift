import AtprotoLexicons
import Foundation

// @unchecked Sendable: `open`, `pending` and `nextToken` are read and written under `lock` only.
/// The acknowledgements of one ``TapClient``: the connections its streams have open, to send an ack
/// on, and the acks that could not be sent yet, sent when a stream connects again.
///
/// Tap takes an ack on any connection (its outbox is one for all of them), so any open one will do.
final class TapAcknowledgements: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [(token: Int, connection: any XRPCWebSocketConnection)] = []
    private var pending: [Int] = []
    private var nextToken = 0

    /// Tap's ack message for event `id`.
    static func message(_ id: Int) -> XRPCWebSocketMessage { .text("{\"type\":\"ack\",\"id\":\(id)}") }

    /// Sends the ack of `id` on an open connection, or keeps it for the next one.
    func send(_ id: Int) async {
        guard let connection = lock.withLock({ open.last?.connection }) else { return keep([id]) }
        do {
            try await connection.send(Self.message(id))
        } catch {
            keep([id])
        }
    }

    /// Registers a connection just opened and sends it the acks kept; returns its token for
    /// ``closed(_:)``.
    func opened(_ connection: any XRPCWebSocketConnection) async -> Int {
        let (token, kept): (Int, [Int]) = lock.withLock {
            nextToken += 1
            open.append((nextToken, connection))
            defer { pending.removeAll() }
            return (nextToken, pending)
        }
        for (index, id) in kept.enumerated() {
            do {
                try await connection.send(Self.message(id))
            } catch {
                keep(Array(kept[index...]))
                break
            }
        }
        return token
    }

    /// Forgets a connection that ended.
    func closed(_ token: Int) {
        lock.withLock { open.removeAll { $0.token == token } }
    }

    /// The acks waiting for a connection.
    var waiting: [Int] { lock.withLock { pending } }

    private func keep(_ ids: [Int]) {
        lock.withLock {
            pending += ids  // an ack twice is harmless: Tap drops an event once
        }
    }
}
