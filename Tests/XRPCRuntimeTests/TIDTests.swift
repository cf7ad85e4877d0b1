import Foundation
import XCTest

@testable import AtprotoSyntax
@testable import XRPCCore

/// TIDs read their timestamp and clock identifier, and generators make valid, unique, increasing TIDs.
final class TIDTests: XCTestCase {
    func testTIDReadsTimestampAndClockIdentifier() throws {
        let tid = TID(timestamp: 1_700_000_000_123_456, clockIdentifier: 517)
        XCTAssertTrue(tid.isValid, tid.rawValue)
        XCTAssertEqual(tid.rawValue.count, 13)
        XCTAssertEqual(tid.timestamp, 1_700_000_000_123_456)
        XCTAssertEqual(tid.clockIdentifier, 517)
        let date = try XCTUnwrap(tid.date)
        XCTAssertEqual(date.timeIntervalSince1970, 1_700_000_000.123456, accuracy: 1e-6)
        XCTAssertEqual(TID(rawValue: tid.rawValue), tid)
    }

    func testTIDExtremesEncodeToTheSpecBounds() {
        XCTAssertEqual(TID(timestamp: 0, clockIdentifier: 0).rawValue, "2222222222222")
        let highest = TID(timestamp: TID.maximumTimestamp, clockIdentifier: TID.maximumClockIdentifier)
        XCTAssertEqual(highest.rawValue, "bzzzzzzzzzzzz")
        XCTAssertTrue(highest.isValid)
        XCTAssertEqual(TID(rawValue: "3jzfcijpj2z2a").timestamp.map { $0 > 1_600_000_000_000_000 }, true)
        XCTAssertNil(TID(rawValue: "kjzfcijpj2z2a").timestamp, "an invalid TID has no timestamp")
        XCTAssertNil(TID(rawValue: "3jzfcijpj2z2").clockIdentifier)
    }

    func testGeneratorIsStrictlyIncreasingWhenTheClockStandsStillOrGoesBack() {
        let times = LockedTimes([5_000, 5_000, 5_000, 4_000, 4_000, 9_000, 9_000])
        let generator = TIDGenerator(clockIdentifier: 3, now: { times.next() })
        let tids = (0..<7).map { _ in generator.next() }
        XCTAssertEqual(tids.compactMap(\.timestamp), [5_000, 5_001, 5_002, 5_003, 5_004, 9_000, 9_001])
        XCTAssertTrue(tids.allSatisfy { $0.clockIdentifier == 3 && $0.isValid })
        XCTAssertEqual(tids, tids.sorted())
    }

    func testGeneratedTIDsFromConcurrentTasksAreUniqueValidAndIncreasingPerTask() async {
        let generator = TIDGenerator()
        let tasks = 8
        let perTask = 12_500
        let sequences = await withTaskGroup(of: [TID].self) { group in
            for _ in 0..<tasks {
                group.addTask { (0..<perTask).map { _ in generator.next() } }
            }
            var all: [[TID]] = []
            for await sequence in group { all.append(sequence) }
            return all
        }
        XCTAssertEqual(sequences.count, tasks)
        var seen = Set<TID>()
        for sequence in sequences {
            XCTAssertEqual(sequence.count, perTask)
            for (previous, next) in zip(sequence, sequence.dropFirst()) where !(previous < next) {
                XCTFail("not increasing: \(previous) then \(next)")
                break
            }
            for tid in sequence {
                if !tid.isValid { XCTFail("invalid TID \(tid)") }
                seen.insert(tid)
            }
        }
        XCTAssertEqual(seen.count, tasks * perTask, "every TID is unique")
        XCTAssertTrue(seen.allSatisfy { $0.clockIdentifier == generator.clockIdentifier })
    }

    func testSharedNextIsCloseToNowAndIncreasing() throws {
        let first = TID.next()
        let second = TID.next()
        XCTAssertLessThan(first, second)
        let timestamp = try XCTUnwrap(first.timestamp)
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        XCTAssertLessThan(now > timestamp ? now - timestamp : timestamp - now, 10_000_000, "within 10 s of now")
    }
}

// @unchecked Sendable: `times` is read and written under `lock`.
/// A clock that returns the given times in turn, safe to call from the generator.
private final class LockedTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [UInt64]

    init(_ times: [UInt64]) { self.times = times }

    func next() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return times.isEmpty ? 0 : times.removeFirst()
    }
}
