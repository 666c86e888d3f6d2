import OfflineStore

/// What finishing a cancel or a delete does once the content's files are deleted.
///
/// | state | steps |
/// |---|---|
/// | `canceling` | cleanup done, bytes 0, `notDownloaded` by the table's `cancelFinished`; the attempt ends `canceled` |
/// | any other (a delete, or a cleanup cut short) | the files are gone: `notDownloaded`, bytes 0, cleanup done |
enum CleanupDecision {
  /// The steps after the files of a content in `state` are deleted.
  static func afterDeletingFiles(state: OfflineState) -> [ManagerStep] {
    let steps: [ManagerStep] = [.reach(.cleanupAfterDeletingFiles), .resetProgress]
    guard state == .canceling else { return steps + [.update([.filesGone])] }
    return steps + [.move(.cancelFinished, [.pendingCleanup(false), .bytes(0)]), .send(.canceled)]
  }

  /// What recovery after a crash writes once a content's files are deleted.
  static let recovered: [RecordEdit] = [.filesGone, .waitReason(nil)]
}
