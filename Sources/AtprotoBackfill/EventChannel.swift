import Foundation

/// A bounded queue between the producers (the firehose loop, the fetches) and the one consumer (the
/// app's loop over ``BackfillThenLive/events``): a producer waits while `capacity` events wait to be
/// read, so nothing reads ahead of the app by more than that. A lock rather than an actor: a send
/// costs no executor hop (measured: two hops per event were most of a backfill's delivery cost).
/// Waiting producers are woken once the queue is down to half its capacity, not at each event read,
/// so a producer hands over events in runs of half the capacity instead of one per wake-up.
// @unchecked Sendable: every stored property but `capacity` (a constant) is read and written under `lock`.
final class EventChannel<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var queue: [Element] = []
    private var head = 0
    private var reader: CheckedContinuation<Element?, any Error>?
    private var writers: [CheckedContinuation<Void, Never>] = []
    private var ending: (any Error)??

    init(capacity: Int) { self.capacity = max(1, capacity) }

    private var isFull: Bool { queue.count - head >= capacity }

    private enum SendStep {
        case done(Bool)
        case handOver(CheckedContinuation<Element?, any Error>)
        case wait
    }

    private enum ReceiveStep {
        case element(Element, [CheckedContinuation<Void, Never>])
        case ended((any Error)?)
        case wait
    }

    /// Queues `element` when there is room, without suspending: `true` when queued (or handed to the
    /// waiting reader), `false` when finished, `nil` when full (then ``send(_:)`` waits for room).
    func offer(_ element: Element) -> Bool? {
        let step: SendStep = lock.withLock {
            if ending != nil { return .done(false) }
            if let reader {
                self.reader = nil
                return .handOver(reader)
            }
            if isFull { return .wait }
            queue.append(element)
            return .done(true)
        }
        switch step {
        case .done(let sent): return sent
        case .handOver(let reader):
            reader.resume(returning: element)
            return true
        case .wait: return nil
        }
    }

    /// Queues `element`, first waiting for room; returns `false` when the channel is finished.
    @discardableResult
    func send(_ element: Element) async -> Bool {
        while true {
            if let sent = offer(element) { return sent }
            await waitForRoom()
        }
    }

    /// Queues `elements` in order, as many at a time as there is room for, waiting for room in
    /// between; the reader, when it waits, is woken once for all that fit rather than once per
    /// element. `false` when the channel is finished.
    func send(contentsOf elements: [Element]) async -> Bool {
        var next = 0
        while next < elements.count {
            let (sent, reader): (Int?, CheckedContinuation<Element?, any Error>?) = lock.withLock {
                if ending != nil { return (nil, nil) }
                // A waiting reader has an empty queue: it takes the first, the queue the rest that fit.
                let reader = self.reader
                self.reader = nil
                let first = reader == nil ? next : next + 1
                let end = min(elements.count, first + capacity - (queue.count - head))
                if first < end { queue.append(contentsOf: elements[first..<end]) }
                return (max(first, end) - next, reader)
            }
            guard let sent else { return false }
            reader?.resume(returning: elements[next])
            next += sent
            if next < elements.count { await waitForRoom() }
        }
        return true
    }

    /// Returns once there may be room (or the channel is finished, or a reader waits).
    private func waitForRoom() async {
        await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
            let waits = lock.withLock {
                guard ending == nil, reader == nil, isFull else { return false }
                writers.append(writer)
                return true
            }
            if !waits { writer.resume() }
        }
    }

    /// The next element; `nil` once finished and drained, or throws the error it finished with.
    func receive() async throws -> Element? {
        let step: ReceiveStep = lock.withLock { take() }
        switch step {
        case .element(let element, let writers):
            for writer in writers { writer.resume() }
            return element
        case .ended(let error):
            if let error { throw error }
            return nil
        case .wait:
            return try await withCheckedThrowingContinuation { (waiting: CheckedContinuation<Element?, any Error>) in
                let now: ReceiveStep = lock.withLock {
                    let now = take()
                    if case .wait = now { reader = waiting }
                    return now
                }
                switch now {
                case .element(let element, let writers):
                    for writer in writers { writer.resume() }
                    waiting.resume(returning: element)
                case .ended(let error):
                    if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
                case .wait: break
                }
            }
        }

        /// Under the lock: the head element (and the writers to wake), the end, or nothing yet.
        func take() -> ReceiveStep {
            if head < queue.count {
                let element = queue[head]
                head += 1
                return .element(element, taken())
            }
            if let ending { return .ended(ending) }
            return .wait
        }
    }

    /// The elements queued, oldest first, at most `limit` (at least one, waiting for it when none
    /// is queued); `nil` once finished and drained, or throws the error it finished with.
    func receive(upTo limit: Int) async throws -> [Element]? {
        guard let first = try await receive() else { return nil }
        guard limit > 1 else { return [first] }
        var batch = [first]
        let writers: [CheckedContinuation<Void, Never>] = lock.withLock {
            let end = min(queue.count, head + limit - 1)
            guard head < end else { return [] }
            batch.append(contentsOf: queue[head..<end])
            head = end
            return taken()
        }
        for writer in writers { writer.resume() }
        return batch
    }

    /// Under the lock, after elements were taken from the head: the queue's storage compacted once
    /// most of it is read, and the writers to wake once it is down to half its capacity.
    private func taken() -> [CheckedContinuation<Void, Never>] {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        guard !writers.isEmpty, queue.count - head <= capacity / 2 else { return [] }
        defer { writers = [] }
        return writers
    }

    /// Ends the channel: the reader gets what is queued and then `nil` (or `error`); waiting writers return.
    func finish(throwing error: (any Error)? = nil) {
        let (reader, writers): (CheckedContinuation<Element?, any Error>?, [CheckedContinuation<Void, Never>]) =
            lock.withLock {
                guard ending == nil else { return (nil, []) }
                ending = .some(error)
                defer {
                    self.reader = nil
                    self.writers = []
                }
                return (self.reader, self.writers)
            }
        for writer in writers { writer.resume() }
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }
}
