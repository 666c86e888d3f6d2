import OfflineStore

/// A call of the API on a content.
package enum OfflineAction: String, Sendable, Equatable, CaseIterable {
  /// Start downloading.
  case download
  /// Pause, keeping partial data.
  case suspend
  /// Go on after a pause.
  case resume
  /// Stop and delete partial data.
  case cancel
  /// Delete the downloaded file.
  case delete
}
