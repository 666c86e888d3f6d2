import Foundation

extension URLRefresh {
  /// The status of a refusal a fresh URL may cure (one of ``statuses``: 401, 403, 410), or
  /// nil for any other failure.
  static func refusal(_ error: Transfer.Error) -> Int? {
    guard case .status(let status, _) = error.kind, statuses.contains(status) else { return nil }
    return status
  }

  /// The refreshes of one content in a row: a refused attempt in which bytes arrived starts
  /// the count again, one without bytes adds to it, and past ``URLRefresh/maximumInARow``
  /// the refusal stands.
  struct Streak: Sendable, Equatable {
    /// Refreshes in a row so far.
    private(set) var count = 0

    /// Whether `refresh` is asked again after a refused attempt (`progressed`: bytes
    /// arrived in it); counts that refresh when it is, ends the streak when it is not.
    mutating func allowsAnother(of refresh: URLRefresh, progressed: Bool) -> Bool {
      let next = progressed ? 1 : count + 1
      guard next <= refresh.maximumInARow else {
        count = 0
        return false
      }
      count = next
      return true
    }
  }
}
