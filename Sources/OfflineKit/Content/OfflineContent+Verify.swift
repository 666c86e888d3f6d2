import Foundation

extension OfflineContent {
  /// Reads every file of the downloaded content again and checks it against what the
  /// download recorded: lengths, the SHA-256 of every piece of a stream, and of every 4 MiB
  /// chunk of a file. Runs off the manager's actor; `progress` is called on that task after
  /// each 4 MiB chunk of a file and each piece of a stream, with the bytes read so far and
  /// the total.
  ///
  /// Damage found is also sent to the content's subscribers (a `changed` event whose
  /// snapshot has the ``OfflineContent/Snapshot/damage``). Files whose bytes are right but
  /// that were touched or copied back are recorded again, so the quick check stops calling
  /// them changed.
  ///
  /// Cancelling the calling task stops the reading within a chunk or a piece.
  ///
  /// - Throws: ``OfflineError``: `notVerifiable` when not downloaded, `nothingRecorded`
  ///   for a content downloaded by an earlier version, `closed` when the calling task is
  ///   cancelled first (nothing is said of the files then).
  public func verify(
    progress: (@Sendable (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) async throws(OfflineError) -> VerifyReport {
    try await manager.verify(id: id, progress: progress)
  }
}

extension OfflineContent {
  /// Mends the downloaded content by fetching only what is wrong: for a file, each damaged
  /// 4 MiB chunk with `Range` and `If-Range` (staged, checked against its recorded digest,
  /// then written in place and fsynced); for a stream, each damaged piece through the
  /// stream's piece engine, the offline playlists written again last. The content stays
  /// `downloaded` throughout; a `changed` event is sent when it is whole again.
  ///
  /// The origin is asked first (`HEAD`): when it serves another version, nothing is changed
  /// and the repair throws `originChanged`: pass `redownload` to delete the content's files
  /// and queue a full download instead (the queue's runner fetches it). When the origin
  /// cannot be reached, the transfer's error is thrown and nothing is changed. A repair
  /// killed at any point is finished by the next one.
  ///
  /// - Throws: ``OfflineError``: `notVerifiable`, `nothingRecorded`, `originChanged`,
  ///   `transfer`.
  @discardableResult
  public func repair(redownload: Bool = false) async throws(OfflineError) -> RepairReport {
    try await manager.repair(id: id, redownload: redownload)
  }

  /// Asks the origin, with `HEAD` requests and without downloading anything, whether the
  /// resources the content was downloaded from are still the same versions (validators and
  /// length): one request for a file, one per distinct URL for a stream.
  ///
  /// - Throws: ``OfflineError``: `notVerifiable`, `nothingRecorded`, or `transfer` when the
  ///   origin cannot be asked.
  public func checkRemote() async throws(OfflineError) -> RemoteStatus {
    try await manager.checkRemote(id: id)
  }
}
