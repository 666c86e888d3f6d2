import OfflineHTTP

/// Something that can tell whether a host can be reached over the network right now.
///
/// `Reachability` is the implementation that asks the kernel; tests and other platforms can
/// stand in their own.
public protocol Reachable: Sendable {
  /// Whether `host` can be reached now, or why not.
  ///
  /// Implementations answer quickly and send no packet: this is a look at local state, not a
  /// probe of the remote host.
  ///
  /// - Parameter host: A numeric IPv4 or IPv6 address, `localhost`, or a host name.
  func isReachable(host: String) -> Reachability.Status
}

extension Reachable {
  /// Returns once `host` is not known to be unreachable (reachable, or unknown), asking
  /// `isReachable(host:)` every `pollInterval`.
  ///
  /// Asks once right away, so it returns at once when the host is reachable already. Runs on
  /// the caller's executor and only sleeps between questions.
  ///
  /// - Parameters:
  ///   - host: The host to wait for, as for `isReachable(host:)`.
  ///   - pollInterval: How long to sleep between two questions.
  ///   - clock: The clock to sleep on; the system's by default.
  /// - Throws: `CancellationError` as soon as the calling task is cancelled.
  public func waitUntilReachable(
    host: String, pollInterval: Duration = .seconds(1),
    clock: any Timekeeping = SystemClock.shared
  ) async throws {
    while true {
      try Task.checkCancellation()
      if !isReachable(host: host).isUnreachable { return }
      try await clock.sleep(for: pollInterval)
    }
  }
}
