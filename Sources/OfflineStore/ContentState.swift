/// Where one offline content stands, as the index stores it (the `state` column).
///
/// OfflineKit names it `OfflineState` and documents its transitions; the raw values are the
/// text stored, so they never change.
package enum ContentState: String, Sendable, Equatable, CaseIterable, Codable, StoredValue {
  /// Nothing on disk.
  case notDownloaded
  /// Queued or running; ``ContentWaitReason`` says why it is not moving when it is not.
  case downloading
  /// Stopped with its partial data kept; `resume` goes on where it stopped.
  case suspended
  /// Complete and verified on disk.
  case downloaded
  /// Deleting partial data after a cancel; becomes `notDownloaded`.
  case canceling
}
