import Foundation
import OfflineHTTP
import OfflineLocks

extension ContentDownload {
  /// Why a download with a URL refresh ended without its content.
  package enum Failure: Error, Sendable {
    /// The download failed (after its retries, and its refreshes when the refusal stood).
    case transfer(Transfer.Error)
    /// `url`, answered `status`, got no fresh URL: the refresh hook failed, took too long
    /// or gave no http or https URL (`reason`, a phrase without the URL's query). The
    /// partial data is kept.
    case noFreshURL(url: URL, status: Int, reason: String)
  }

  /// This download from `url`, a fresh URL of the same content: a file's journal goes on
  /// under it with its validators, so the resume asks the fresh URL for the missing bytes
  /// with `If-Range`; a stream's pieces on disk are kept when the fresh playlist or manifest
  /// has a piece of the same position and file name.
  func moved(to url: URL) -> ContentDownload {
    if kind == .file { Transfer.carryOver(destination: destination, to: url, journal: journal) }
    // The journal may hold a record now (the one carried over): the first look-up is made.
    var queuedFile = queuedFile
    queuedFile?.journalHasNoRecord = false
    var moved = ContentDownload(
      kind: kind, session: session.moved(to: url), journal: journal, destination: destination,
      file: file, stream: stream, refreshesURL: refreshesURL,
      expectedPieceSHA256: expectedPieceSHA256, queuedFile: queuedFile,
      streamPlayback: streamPlayback, onlyWhatPlayersAsk: onlyWhatPlayersAsk)
    moved.log = log
    return moved
  }

  /// Downloads what is missing; when the URL is refused (401, 403, 410) and `refresh` is
  /// given, asks its hook for a fresh URL (as content `contentID`) and goes on from there,
  /// at most ``URLRefresh/maximumInARow`` times without a byte arriving in between.
  ///
  /// - Throws: ``Failure``.
  package func run(
    refreshing refresh: URLRefresh?, contentID: String,
    onEvent: @escaping @Sendable (Event) -> Void
  ) async throws(Failure) -> Outcome {
    var download = self
    var streak = URLRefresh.Streak()
    while true {
      let seen = Locked(AttemptBytes())
      do {
        return try await download.run { event in
          if case .progress(let progress) = event { _ = seen.withLock { $0.saw(progress.bytes) } }
          onEvent(event)
        }
      } catch {
        guard let refresh, let status = URLRefresh.refusal(error),
          streak.allowsAnother(of: refresh, progressed: seen.withLock { $0.progressed })
        else { throw .transfer(error) }
        let request = URLRefresh.Request(contentID: contentID, url: download.url, status: status)
        switch await refresh.ask(request, clock: session.clock) {
        case .success(let fresh):
          download = download.moved(to: fresh)
        case .failure(let problem):
          throw .noFreshURL(url: download.url, status: status, reason: problem.reason)
        }
      }
    }
  }
}
