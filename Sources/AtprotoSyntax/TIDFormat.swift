import Foundation

// The `tid` format (atproto.com/specs/tid): a 64-bit integer, high bit zero, then a 53-bit timestamp in
// microseconds since the Unix epoch and a 10-bit clock identifier, written as 13 base32-sortable characters.

extension TID: Comparable {
    /// `tid`.
    public static var formatName: String { "tid" }

    /// The base32-sortable alphabet: each character's position is its 5-bit value, so string order is
    /// numeric order.
    static let alphabet: [UInt8] = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    /// The largest timestamp a TID holds: 2^53 - 1 microseconds.
    public static let maximumTimestamp: UInt64 = (1 << 53) - 1

    /// The largest clock identifier a TID holds: 1023.
    public static let maximumClockIdentifier: UInt16 = 1023

    /// Checks the TID syntax: exactly 13 characters of `234567abcdefghijklmnopqrstuvwxyz`, the first one
    /// of `234567abcdefghij` (the high bit is zero).
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { bytes in
            guard bytes.count == 13 else { return "must be exactly 13 characters" }
            for index in 0..<13 {
                guard let digit = digitValue(bytes[index]) else {
                    return "\(FormatByte.describe(bytes[index])) is not a base32-sortable character"
                }
                if index == 0, digit > 15 { return "the first character must be one of 234567abcdefghij" }
            }
            return nil
        }
    }

    /// The 5-bit value of a base32-sortable character.
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        if byte &- UInt8(ascii: "2") < 6 { return UInt64(byte &- UInt8(ascii: "2")) }
        if FormatByte.isLower(byte) { return UInt64(byte &- UInt8(ascii: "a")) + 6 }
        return nil
    }

    /// The TID for `timestamp` (microseconds since 1970-01-01T00:00:00Z) and `clockIdentifier`; bits beyond
    /// 53 and 10 respectively are dropped.
    public init(timestamp: UInt64, clockIdentifier: UInt16) {
        let value = (timestamp & Self.maximumTimestamp) << 10 | UInt64(clockIdentifier & Self.maximumClockIdentifier)
        self.init(integerValue: value)
    }

    /// The TID that writes `value` (whose high bit should be zero) in base32-sortable form.
    init(integerValue value: UInt64) {
        var bytes = [UInt8](repeating: 0, count: 13)
        for index in 0..<13 {
            bytes[index] = Self.alphabet[Int((value >> UInt64(60 - 5 * index)) & 31)]
        }
        self.init(rawValue: String(decoding: bytes, as: UTF8.self))
    }

    /// The 64-bit integer the TID writes, or `nil` when it is not valid TID syntax.
    public var integerValue: UInt64? {
        guard Self.syntaxError(in: rawValue) == nil else { return nil }
        return rawValue.utf8.reduce(0) { $0 << 5 | (Self.digitValue($1) ?? 0) }
    }

    /// Microseconds since 1970-01-01T00:00:00Z, or `nil` when the value is not valid TID syntax.
    public var timestamp: UInt64? { integerValue.map { $0 >> 10 } }

    /// The clock identifier (0-1023), or `nil` when the value is not valid TID syntax.
    public var clockIdentifier: UInt16? { integerValue.map { UInt16($0 & 1023) } }

    /// The time of the timestamp, or `nil` when the value is not valid TID syntax.
    public var date: Date? {
        timestamp.map { Date(timeIntervalSince1970: Double($0 / 1_000_000) + Double($0 % 1_000_000) / 1e6) }
    }

    /// A new TID from ``TIDGenerator/shared``: later than every TID it made before.
    public static func next() -> TID { TIDGenerator.shared.next() }

    /// Orders TIDs by their strings, which for valid TIDs is the order of their timestamps.
    public static func < (lhs: TID, rhs: TID) -> Bool { lhs.rawValue < rhs.rawValue }
}

// @unchecked Sendable: `lastTimestamp` is read and written under `lock`; the rest are Sendable `let`s.
/// Makes TIDs that always increase: each is later than the one before, even when many are made within the
/// same microsecond, from any thread or task.
///
/// The clock identifier is chosen at random once per generator, so two generators working at the same
/// moment are unlikely to make the same TID.
public final class TIDGenerator: @unchecked Sendable {
    /// The generator ``TID/next()`` uses.
    public static let shared = TIDGenerator()

    /// The clock identifier (0-1023) in every TID this generator makes.
    public let clockIdentifier: UInt16

    private let now: @Sendable () -> UInt64
    private let lock = NSLock()
    private var lastTimestamp: UInt64 = 0

    /// A generator with a random clock identifier.
    public convenience init() {
        self.init(clockIdentifier: UInt16.random(in: 0...TID.maximumClockIdentifier))
    }

    /// A generator with the given clock identifier (only its low 10 bits are used).
    public convenience init(clockIdentifier: UInt16) {
        self.init(clockIdentifier: clockIdentifier, now: TIDGenerator.currentMicroseconds)
    }

    /// A generator reading the time from `now` (microseconds since the Unix epoch); tests freeze it.
    init(clockIdentifier: UInt16, now: @escaping @Sendable () -> UInt64) {
        self.clockIdentifier = clockIdentifier & TID.maximumClockIdentifier
        self.now = now
    }

    /// The next TID: the current time in microseconds, or one microsecond after the previous TID's
    /// timestamp when the clock has not moved on (or went back).
    public func next() -> TID {
        let current = now()
        lock.lock()
        let timestamp = max(current, lastTimestamp &+ 1) & TID.maximumTimestamp
        lastTimestamp = timestamp
        lock.unlock()
        return TID(timestamp: timestamp, clockIdentifier: clockIdentifier)
    }

    /// The system time in microseconds since the Unix epoch.
    @Sendable static func currentMicroseconds() -> UInt64 {
        let seconds = Date().timeIntervalSince1970
        guard seconds > 0, seconds < 9e9 else { return 0 }
        return UInt64(seconds * 1_000_000)
    }
}
