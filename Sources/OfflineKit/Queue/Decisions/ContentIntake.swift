import Foundation
import OfflineStore

/// Which contents the sources given to ``OfflineManager/contents(for:)`` and
/// ``OfflineManager/add(_:configuration:)`` name, and the records of the new ones: decided
/// as a value from what the store holds (read before, in three queries and one look at the
/// shared folder), with no I/O.
struct ContentIntake: Sendable, Equatable {
  /// The content each source names, in the sources' order.
  var ids: [String] = []
  /// The records to insert, in the sources' order.
  var fresh: [ContentRecord] = []

  /// What the store holds that the sources may name or collide with.
  struct Known: Sendable {
    /// The records of the ids the sources give.
    var byID: [String: ContentRecord] = [:]
    /// The first record of each URL the sources without an id give.
    var byURL: [String: ContentRecord] = [:]
    /// Ids no content has, one for each source without an id.
    var unusedIDs: [String] = []
    /// The names in the shared folder of single files, lowercased (``ContentFiles``).
    var flatNamesOnDisk: Set<String> = []
  }

  /// Decides for `sources`: a source names the content of its id (the same URL, else it
  /// is a duplicate id), else the first content of its URL, else one made here (twice in
  /// one call: once). With `queueing`, new contents are made already `downloading`, at the
  /// end of the queue, with its priority, checksum and options (`storedOptions`).
  ///
  /// - Throws: ``OfflineError`` `invalidRequestOptions` (before anything else), `invalidURL`
  ///   for a URL or a mirror that is not http or https, `invalidID`, `duplicateID`.
  static func decide(
    _ sources: [OfflineSource], known: Known, queueing: DownloadConfiguration?,
    storedOptions: StoredJSON?
  ) throws(OfflineError) -> ContentIntake {
    for source in sources {
      do {
        try source.requestOptions.validate()
      } catch {
        throw OfflineError(
          .transfer(Transfer.Error(.invalidRequestOptions(error), url: source.url, destination: ""))
        )
      }
    }
    var intake = ContentIntake()
    var unusedIDs = known.unusedIDs
    var takenIDs = Set<String>()
    var batchByURL: [String: String] = [:]
    for source in sources {
      guard source.url.isHTTPWithHost else {
        throw OfflineError(.invalidURL(source.url.absoluteString))
      }
      if let mirror = (source.mirrors + source.peers).first(where: { !$0.isHTTPWithHost }) {
        throw OfflineError(.invalidURL(mirror.absoluteString))
      }
      if let id = source.id, !ContentFiles.isValidID(id) {
        throw OfflineError(.invalidID(id), contentID: id)
      }
      if let existing = try existing(for: source, in: known) {
        intake.ids.append(existing.id)
        continue
      }
      let key = source.url.absoluteString
      if let earlier = batchByURL[key], source.id == nil || source.id == earlier {
        intake.ids.append(earlier)  // twice in one call
        continue
      }
      let id = source.id ?? unusedIDs.removeLast()
      guard takenIDs.insert(id).inserted else {
        throw OfflineError(.duplicateID(id), contentID: id)
      }
      batchByURL[key] = batchByURL[key] ?? id
      var record = newRecord(id: id, for: source, flatNamesOnDisk: known.flatNamesOnDisk)
      if let queueing {
        record.state = .downloading
        record.waitReason = .queued
        record.priority = queueing.priority
        record.expectedSHA256 = queueing.expectedSHA256
        record.options = storedOptions
      }
      intake.fresh.append(record)
      intake.ids.append(id)
    }
    return intake
  }

  /// The record `source` names already (its id's, else its URL's first).
  private static func existing(for source: OfflineSource, in known: Known)
    throws(OfflineError) -> ContentRecord?
  {
    guard let id = source.id else { return known.byURL[source.url.absoluteString] }
    guard let record = known.byID[id] else { return nil }
    guard record.url == source.url.absoluteString else {
      throw OfflineError(.duplicateID(id), contentID: id)
    }
    return record
  }

  /// The name `source`'s file is saved under: the last component of the name it gives,
  /// made safe, else the one its URL gives.
  static func fileName(of source: OfflineSource) -> String {
    guard let given = source.fileName,
      let last = given.split(separator: "/", omittingEmptySubsequences: true).last
    else { return LocalFileName.from(source.url) }
    return LocalFileName.sanitized(String(last))
  }

  /// A new content `id` for `source`, in `notDownloaded`: a stream's file is its offline
  /// playlist or MPD; a single file goes to the shared folder unless its name is taken
  /// there (the index gives a later content of the same name a folder of its own).
  private static func newRecord(
    id: String, for source: OfflineSource, flatNamesOnDisk: Set<String>
  ) -> ContentRecord {
    let url = source.url
    let fileName =
      url.isHLSPlaylist
      ? "index.m3u8"
      : url.isDASHManifest
        ? DASHDownload.indexName : ContentManifest.contentFileName(fileName(of: source))
    let isStream = url.isHLSPlaylist || url.isDASHManifest
    var record = ContentRecord(
      id: id, url: url.absoluteString, title: source.title, metadata: source.metadata,
      fileName: fileName, state: .notDownloaded,
      flatFile: !isStream && ContentFiles.canBeFlat(fileName)
        && ContentFiles.isFree(flatName: fileName, among: flatNamesOnDisk))
    record.hasPieceChecks = !isStream && source.pieceChecks != nil
    return record
  }
}
