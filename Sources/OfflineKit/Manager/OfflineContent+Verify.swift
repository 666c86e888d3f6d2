import Foundation

extension OfflineContent {
  /// Reads every file of the downloaded content again and checks it against what the
  /// download recorded: lengths, the SHA-256 of every piece of a stream, and of every 4 MiB
  /// chunk of a file. Runs off the manager's actor; `progress` is called on that task after
  /// each file with the bytes read so far and the total.
  ///
  /// Damage found is also sent to the content's subscribers (an `error` event of kind
  /// `damaged`). Files whose bytes are right but that were touched or copied back are
  /// recorded again, so the quick check stops calling them changed.
  ///
  /// - Throws: ``OfflineError``: `notVerifiable` when not downloaded, `nothingRecorded`
  ///   for a content downloaded by an earlier version.
  public func verify(
    progress: (@Sendable (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) async throws(OfflineError) -> VerifyReport {
    try await manager.verify(id: id, progress: progress)
  }
}
