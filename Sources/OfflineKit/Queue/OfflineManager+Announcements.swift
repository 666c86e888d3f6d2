import Foundation
import OfflineStore

extension OfflineManager {
  /// The end of an attempt that another process made (it runs the queue): `record` was
  /// `before` when this process last looked. A content now downloaded finished; one back
  /// in notDownloaded from a download ended in a cancel, or in the error that discarded its
  /// bytes (a cancel clears the last error). A suspend with an error is not told apart from
  /// one asked for, so it ends nothing here.
  func announceEndSeenFromOutside(_ record: ContentRecord, after before: OfflineState) {
    switch (before, record.offlineState) {
    case (.downloading, .downloaded), (.suspended, .downloaded):
      announceFinished(record)
    case (.downloading, .notDownloaded), (.suspended, .notDownloaded),
      (.canceling, .notDownloaded):
      let discarded = before == .canceling ? nil : snapshot(of: record, pieces: []).lastError
      announceFailure(discarded ?? OfflineError(.canceled, contentID: record.id), id: record.id)
    default:
      break
    }
  }
}

extension OfflineManager {
  /// Runs `body`; when it throws, tells the configuration's log what was `skipped` (a phrase:
  /// "recording the suspend") and why, and gives nil. For the executor's steps that go on
  /// without what failed: what they skip is done again by a later step, a poll or a
  /// rebuild, and the log says it happened.
  nonisolated func logging<T>(_ skipped: String, id: String?, _ body: () throws -> T) -> T? {
    do {
      return try body()
    } catch {
      configuration.log(OfflineLogMessage(contentID: id, message: "\(skipped) failed: \(error)"))
      return nil
    }
  }
}
