// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import Foundation

  /// The stall timeout, kept by the loop: a response that receives nothing for
  /// ``CurlTransport/Configuration/stallTimeout`` while it could fails as stalled, then and
  /// not later. libcurl's own check (`CURLOPT_LOW_SPEED_TIME`) reads a speed averaged over
  /// about five seconds: a response that stalled after a burst of bytes failed about six
  /// seconds after its timeout (7.2 s for a timeout of 1 s).
  extension CurlCall {
    /// When the call counts as stalled: the stall timeout after the last byte it took, once
    /// its response began and while it receives; nil while the delivery or the rate
    /// limiters pause it (their wait is not the server's), and before the first header line
    /// (libcurl's check and the connect timeout watch that part).
    var stallDeadline: ContinuousClock.Instant? {
      guard receivedAnyHeader, !pausedForDelivery, rateResumeAt == nil,
        let last = lastReceivedAt
      else { return nil }
      return last + configuration.stallTimeout
    }

    /// The failure of a call whose stall deadline passed.
    func stalledError() -> HTTPError {
      HTTPError(
        .stalled, url: currentURL,
        detail: "nothing received for \(configuration.stallTimeout.inMilliseconds) ms")
    }
  }
#endif
