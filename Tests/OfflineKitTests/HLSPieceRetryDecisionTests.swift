import Foundation
import OfflineHTTP
import TestTiming
import Testing

@testable import OfflineKit

/// The piece-retry rule with a URL refresh (issue 13, item 4): a piece answered 401, 403 or
/// 410 ends the attempt at once when the stream's URL can be refreshed (the manager's hook,
/// `get --refresh-command`), so the refresh comes before minutes of backoff; without a
/// refresh, the rule of issue 11, item 8 stands. One row per test.
@Suite(.timed) struct HLSPieceRetryDecisionTests {
  static let url = URL(string: "http://127.0.0.1/t/token/1/v/seg0.ts")!

  static func policy(refreshesURL: Bool, retries: Int = 10) -> PieceRetryPolicy {
    PieceRetryPolicy(StreamConfiguration(pieceRetries: retries), refreshesURL: refreshesURL)
  }

  static func status(_ code: Int) -> Transfer.Error {
    Transfer.Error(.status(code, retryAfter: nil), url: url, destination: "")
  }

  /// Pins: with a refresh possible, an expired signed URL (410) was tried again with
  /// backoff before the refresh could run; the same for 403 (a signature that no longer
  /// holds). A 401 (a token refused) ends the attempt for a refresh too, where without one
  /// it fails.
  @Test(arguments: [410, 403, 401])
  func aRefreshStatusEndsTheAttemptForARefreshWhenOneIsPossible(code: Int) {
    #expect(
      Self.policy(refreshesURL: true).decision(after: Self.status(code), failures: 0)
        == .endForRefresh)
  }

  /// A refresh status after earlier failures of the piece (a 503, say) still refreshes.
  @Test func aRefreshStatusAfterEarlierFailuresStillEndsForARefresh() {
    #expect(
      Self.policy(refreshesURL: true).decision(after: Self.status(410), failures: 4)
        == .endForRefresh)
  }

  /// With no retries left the refresh still comes first.
  @Test func aRefreshStatusWithNoRetriesEndsForARefresh() {
    #expect(
      Self.policy(refreshesURL: true, retries: 0).decision(after: Self.status(403), failures: 0)
        == .endForRefresh)
  }

  /// Without a refresh, 403 and 410 are tried again as before.
  @Test(arguments: [403, 410])
  func withoutARefreshA403Or410IsTriedAgain(code: Int) {
    #expect(
      Self.policy(refreshesURL: false).decision(after: Self.status(code), failures: 0)
        == .tryAgain)
  }

  /// Without a refresh, a 401 fails at once as before.
  @Test func withoutARefreshA401Fails() {
    #expect(
      Self.policy(refreshesURL: false).decision(after: Self.status(401), failures: 0)
        == .fail)
  }

  /// Other statuses keep their rule with a refresh possible: 404, 429 and 5xx are tried
  /// again, 400 fails.
  @Test(arguments: [(404, true), (429, true), (500, true), (503, true), (400, false)])
  func otherStatusesKeepTheirRuleWithARefresh(code: Int, retried: Bool) {
    #expect(
      Self.policy(refreshesURL: true).decision(after: Self.status(code), failures: 0)
        == (retried ? .tryAgain : .fail))
  }

  /// Connection trouble is tried again with a refresh possible too.
  @Test func aCutIsTriedAgainWithARefresh() {
    let error = Transfer.Error(
      .network(HTTPError(.connectionLost, url: Self.url)), url: Self.url, destination: "")
    #expect(Self.policy(refreshesURL: true).decision(after: error, failures: 0) == .tryAgain)
  }

  /// When its retries are used up, a retried failure fails.
  @Test func aRetriedFailureFailsWhenItsRetriesAreUsedUp() {
    #expect(
      Self.policy(refreshesURL: false, retries: 3).decision(
        after: Self.status(404), failures: 3) == .fail)
    #expect(
      Self.policy(refreshesURL: false, retries: 3).decision(
        after: Self.status(404), failures: 2) == .tryAgain)
  }

  /// A cancel is never tried again, nor taken for a refusal.
  @Test func aCancelFails() {
    let error = Transfer.Error(.canceled, url: Self.url, destination: "")
    #expect(Self.policy(refreshesURL: true).decision(after: error, failures: 0) == .fail)
  }
}
