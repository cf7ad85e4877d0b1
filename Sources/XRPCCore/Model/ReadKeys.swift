/// The keys an object reader has read, for objects of more than sixteen fields (smaller ones note
/// their reads as bits): the first sixteen are kept in the reader itself, since an array here cost an
/// allocation (and its growth several more) for every such object.
@usableFromInline struct ReadKeys: Sendable {
    private typealias Slots = (
        String, String, String, String, String, String, String, String,
        String, String, String, String, String, String, String, String
    )
    private static let slotCount = 16

    @usableFromInline init() {}

    private var slots: Slots = ("", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "")
    /// Keys beyond the slots, in order.
    private var overflow: [String] = []
    /// How many keys are noted.
    private(set) var count = 0

    @usableFromInline mutating func append(_ key: String) {
        if count < Self.slotCount {
            set(key, at: count)
        } else {
            overflow.append(key)
        }
        count += 1
    }

    @usableFromInline mutating func removeLast() {
        guard count > 0 else { return }
        count -= 1
        if count < Self.slotCount {
            set("", at: count)
        } else {
            overflow.removeLast()
        }
    }

    @usableFromInline func contains(_ key: String) -> Bool {
        let inline = min(count, Self.slotCount)
        var slots = slots
        let found = withUnsafePointer(to: &slots) { tuple in
            tuple.withMemoryRebound(to: String.self, capacity: Self.slotCount) { strings in
                (0..<inline).contains { strings[$0] == key }
            }
        }
        return found || overflow.contains(key)
    }

    /// Assigns a slot (a homogeneous tuple is laid out as its elements in a row).
    private mutating func set(_ key: String, at index: Int) {
        withUnsafeMutablePointer(to: &slots) { tuple in
            tuple.withMemoryRebound(to: String.self, capacity: Self.slotCount) { $0[index] = key }
        }
    }
}
