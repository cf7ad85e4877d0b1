import XCTest

@testable import AtprotoOAuth

/// When a session refreshes ahead of expiry, as docs/OAuth.md states it: between 10 % and 5 % of the
/// token's lifetime before expiry, that window capped at 60 s (so between 60 s and 30 s before).
final class OAuthRefreshTimingTests: XCTestCase {
    func testTheRefreshFallsBetweenATenthAndATwentiethOfTheLifetimeBeforeExpiry() {
        let cases: [(lifetime: Double, earliest: Double, latest: Double)] = [
            (300, 30, 15), (120, 12, 6), (600, 60, 30), (3600, 60, 30), (86_400, 60, 30),
        ]
        for (lifetime, earliest, latest) in cases {
            XCTAssertEqual(
                OAuthSession.refreshLead(lifetime: lifetime, jitter: 1), earliest, accuracy: 1e-9, "\(lifetime)")
            XCTAssertEqual(
                OAuthSession.refreshLead(lifetime: lifetime, jitter: 0), latest, accuracy: 1e-9, "\(lifetime)")
            let middle = OAuthSession.refreshLead(lifetime: lifetime, jitter: 0.5)
            XCTAssertTrue(latest < middle && middle < earliest, "\(lifetime): \(middle)")
        }
    }
}
