/// A bounded queue between the producers (the firehose loop, the fetches) and the one consumer (the
/// app's loop over ``BackfillThenLive/events``): a producer waits while `capacity` events wait to be
/// read, so nothing reads ahead of the app by more than that.
actor EventChannel<Element: Sendable> {
    private let capacity: Int
    private var queue: [Element] = []
    private var head = 0
    private var reader: CheckedContinuation<Element?, any Error>?
    private var writers: [CheckedContinuation<Void, Never>] = []
    private var ending: (any Error)??

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Queues `element`, first waiting for room; returns `false` when the channel is finished.
    @discardableResult
    func send(_ element: Element) async -> Bool {
        while ending == nil, queue.count - head >= capacity {
            await withCheckedContinuation { writers.append($0) }
        }
        guard ending == nil else { return false }
        if let reader {
            self.reader = nil
            reader.resume(returning: element)
        } else {
            queue.append(element)
        }
        return true
    }

    /// The next element; `nil` once finished and drained, or throws the error it finished with.
    func receive() async throws -> Element? {
        if head < queue.count {
            let element = queue[head]
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            if !writers.isEmpty { writers.removeFirst().resume() }
            return element
        }
        if let ending {
            if let error = ending { throw error }
            return nil
        }
        return try await withCheckedThrowingContinuation { reader = $0 }
    }

    /// Ends the channel: the reader gets what is queued and then `nil` (or `error`); waiting writers return.
    func finish(throwing error: (any Error)? = nil) {
        guard ending == nil else { return }
        ending = .some(error)
        for writer in writers { writer.resume() }
        writers = []
        if let reader {
            self.reader = nil
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }
}
