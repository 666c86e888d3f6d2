import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// Replaces the URL of content `id` (a signed URL that expired, say) and goes on with the
  /// new one. A download running here stops and starts again with it at once; a runner in
  /// another process picks the change up at its next poll, as it does a pause.
  ///
  /// The bytes on disk are kept when the new URL serves the same resource: the resume asks
  /// for the missing bytes with the stored validators (`If-Range`), which the server honours
  /// only for the same strong `ETag` or `Last-Modified` (and the length must match too);
  /// otherwise the file starts over and its progress says why (`resourceChanged`). A
  /// stream's playlists are read again from the new URL and pieces already on disk are kept
  /// when the new playlist has a piece of the same position and file name.
  ///
  /// `expiresAt` is when the new URL stops working, if known (see
  /// ``OfflineSource/urlExpiresAt``); the old URL's expiry goes with it.
  ///
  /// - Throws: ``OfflineError`` `invalidURL` for a URL that is not http or https,
  ///   `unknownContent`, `urlNotReplaceable` for a downloaded or canceling content.
  public func setURL(_ url: URL, for id: String, expiresAt: Date? = nil)
    async throws(OfflineError)
  {
    guard url.isHTTPWithHost else {
      throw OfflineError(.invalidURL(url.redactedForDisplay), contentID: id)
    }
    let updated = try indexStep {
      try index.contents.update(id: id) { record in
        guard record.state != .downloaded, record.state != .canceling else {
          throw OfflineError(.urlNotReplaceable(record.offlineState), contentID: id)
        }
        record.url = url.absoluteString
      }
    }
    guard updated != nil else { throw OfflineError(.unknownContent(id), contentID: id) }
    try setURLExpiry(expiresAt, of: id)
    if machine.running[id] != nil {
      await stopRunning(id)
      pump()
    }
  }

  /// Restarts downloads running here whose content's URL another process replaced
  /// (`offline set-url`); called when the index changed elsewhere.
  func followReplacedURLs() {
    guard
      let records = logging(
        "reading the running contents' URLs (the next change read reads them again)", id: nil,
        { try index.contents.records(ids: Array(machine.runningIDs)) })
    else { return }
    for id in machine.replacedURLs(current: records.mapValues(\.url)) {
      Task {
        await self.stopRunning(id)
        self.pump()
      }
    }
  }

  /// Whether content `record`, about to start, has a URL whose app-given expiry passed:
  /// then the hook is asked for a fresh one first (a request `status` of nil) and the
  /// content waits for it instead of starting.
  func refreshesExpiredURL(_ record: ContentRecord, url: URL) -> Bool {
    guard let refresh = configuration.urlRefresh, let expiry = urlExpiry(of: record.id),
      expiry <= configuration.clock.now
    else { return false }
    ask(refresh, id: record.id, url: url, status: nil)
    return true
  }

  /// Asks the hook on a task of its own; content `id` is not started meanwhile.
  func ask(_ refresh: URLRefresh, id: String, url: URL, status: Int?) {
    machine.willAskForFreshURL(id)
    let clock = configuration.clock
    Task {
      let answer = await refresh.ask(
        .init(contentID: id, url: url, status: status), clock: clock)
      await self.didRefresh(id, answer)
    }
  }

  /// The hook answered for content `id`: it goes on with the fresh URL, or is suspended
  /// with the reason there is none (its partial data kept).
  private func didRefresh(_ id: String, _ answer: Result<URL, URLRefreshProblem>) async {
    switch machine.didRefresh(id, answer: answer) {
    case .goOn(let url):
      do {
        try await setURL(url, for: id)
      } catch {
        let failure = OfflineError(.urlRefreshFailed(error.description), contentID: id)
        carryOutNow(machine.refreshFailed(id, failure), id: id)
      }
      pump()
    case .gaveUp(let steps):
      carryOutNow(steps, id: id)
    }
  }
}
