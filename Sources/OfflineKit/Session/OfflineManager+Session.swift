import Foundation
import OfflineHTTP
import OfflineStore

extension OfflineManager {
  /// The session of content `record` at `url` (its URL, or a fresh one): its kept request
  /// options, the queue's shared rate budget, the manager's transport and clock; the one
  /// its download used while the URL and options are the same (see ``ContentSessions``).
  /// The options are read from the store each time, so those given in another process are
  /// used.
  ///
  /// - Throws: ``OfflineError`` (`index`) when the kept options cannot be read: nothing of a
  ///   content is fetched without them.
  func session(of record: ContentRecord, url: URL) throws(OfflineError) -> ContentSession {
    try fetchContext(of: record, url: url).session
  }

  /// ``session(of:url:)`` and the mirrors and peers kept for `record`, from one read of what is kept
  /// (``keptFetch(of:)``): what a download of it needs.
  func fetchContext(of record: ContentRecord, url: URL) throws(OfflineError) -> (
    session: ContentSession, mirrors: [URL], peers: [URL]
  ) {
    let kept = try keptFetch(of: record)
    let session = sessions.session(
      id: record.id, url: url, options: kept.options, retry: Self.pieceRetry)
    return (session, kept.mirrors, kept.peers)
  }

  /// The session of content `id` at its recorded URL.
  ///
  /// - Throws: ``OfflineError``: `unknownContent`, or `index` when its record or options
  ///   cannot be read.
  func session(ofContent id: String) throws(OfflineError) -> ContentSession {
    let record = try indexStep { try index.contents.record(id: id) }
    guard let record, let url = URL(string: record.url) else {
      throw OfflineError(.unknownContent(id), contentID: id)
    }
    return try session(of: record, url: url)
  }
}
