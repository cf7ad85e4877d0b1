import Foundation
import XCTest

// @unchecked Sendable: nothing protects `value`: the race is planted, for ThreadSanitizer to report.
private final class PlantedRace: @unchecked Sendable {
    var value = 0
}

/// The race `scripts/sanitize.sh thread` runs first and must see reported: without that report the
/// sanitizer is not watching, and a clean run of the suite would prove nothing. Skipped unless
/// `ATPROTO_PLANTED_RACE` is set, so the normal tests never run it.
final class PlantedRaceTests: XCTestCase {
    func testTwoThreadsWriteOneVariableWithoutALock() throws {
        try XCTSkipIf(
            ProcessInfo.processInfo.environment["ATPROTO_PLANTED_RACE"] == nil,
            "the planted race runs only under scripts/sanitize.sh thread (ATPROTO_PLANTED_RACE=1)")
        let shared = PlantedRace()
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread.detachNewThread {
                for _ in 0..<10_000 { shared.value += 1 }
                done.leave()
            }
        }
        done.wait()
        XCTAssertGreaterThan(shared.value, 0)
    }
}
