import Foundation
import OfflineStore

extension OfflineManager {
  /// Keeps what each source of content `id`'s file served in its download that just
  /// ended well (``Transfer/Outcome/sources``), replacing what an earlier one left; a file
  /// fetched from its URL alone leaves what is kept as it is. A failure to keep them is
  /// logged: the file is there either way.
  ///
  /// Each URL is kept as it is shown (``URL/redactedForDisplay``: no user information, no
  /// query): a mirror's or a peer's URL may carry a token, which the store keeps in its
  /// private file only, never in the index.
  func keepSourceReports(_ reports: [Transfer.SourceReport], of id: String) {
    guard !reports.isEmpty else { return }
    let stored = reports.map {
      StoredSourceReport(
        url: $0.url.redactedForDisplay, isPrimary: $0.isPrimary, bytes: $0.bytes,
        badPieces: $0.badPieces, dropped: $0.dropped, pathway: $0.pathway)
    }
    do {
      try index.contents.setSourceReports(stored, id: id)
    } catch {
      configuration.log(
        OfflineLogMessage(contentID: id, message: "its sources could not be kept: \(error)"))
    }
  }

  /// What each source of content `id`'s file served, as kept; nil when none are (or they
  /// cannot be read).
  nonisolated func keptSourceReports(of id: String) -> [Transfer.SourceReport]? {
    guard let stored = try? index.contents.sourceReports(id: id), !stored.isEmpty else {
      return nil
    }
    return stored.compactMap { report in
      URL(string: report.url).map {
        Transfer.SourceReport(
          url: $0, isPrimary: report.isPrimary, bytes: report.bytes,
          badPieces: report.badPieces, dropped: report.dropped, pathway: report.pathway)
      }
    }
  }
}
