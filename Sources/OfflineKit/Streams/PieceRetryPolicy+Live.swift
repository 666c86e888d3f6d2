import Foundation

extension PieceRetryPolicy {
  /// The most retries of one live segment.
  static let liveRetries = 3

  /// The retries of a live segment (HLS or DASH): the stream's, at most ``liveRetries``,
  /// starting at most half a second apart, so a segment that never comes is ledgered while
  /// the window still holds the ones after it.
  var cappedForLive: PieceRetryPolicy {
    var policy = self
    policy.retries = min(retries, Self.liveRetries)
    policy.initialDelay = min(initialDelay, .milliseconds(500))
    return policy
  }
}
