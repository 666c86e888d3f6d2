import Foundation
import OfflineStore

extension OfflineManager {
  /// The length of content `id`'s file at `destination`: as the journal recorded it, else as
  /// its download's progress tells it (when not an estimate); nil until a response said it.
  nonisolated func fileLength(of id: String, destination: String) -> Int64? {
    if let record = (try? index.transfers.record(forDestination: destination)) ?? nil,
      let total = record.totalLength
    {
      return total
    }
    guard let progress = hub.lastProgress(of: id), !progress.totalIsEstimate else { return nil }
    return progress.total
  }

  /// What of content `id`'s file at `destination` is on disk while no download of it runs,
  /// as the journal says (never more than is there): the whole file once it is renamed into
  /// place or downloaded; the written part of each range of a download over several
  /// connections, as last checkpointed; else the part's prefix (its synced prefix only after
  /// a reboot). Nothing for a part
  /// kept in another content coding than the file's (a compressed body).
  nonisolated func storedLandedBytes(of id: String, destination: String)
    -> (landed: LandedBytes, length: Int64?)
  {
    let record = (try? index.transfers.record(forDestination: destination)) ?? nil
    guard let record else {
      // No journal entry: the file is downloaded (its record gone), or nothing started.
      let downloaded = ((try? index.contents.record(id: id)) ?? nil)?.state == .downloaded
      guard downloaded, let size = FileSteps.regularFileSize(destination) else {
        return (.none, fileLength(of: id, destination: destination))
      }
      return (LandedBytes(prefix: size), size)
    }
    let length = record.totalLength
    if record.phase != .active, let length { return (LandedBytes(prefix: length), length) }
    guard record.contentEncoding == nil else { return (.none, length) }
    let ranges = (try? index.transfers.ranges(forDestination: destination)) ?? []
    if !ranges.isEmpty { return (LandedBytes(ranges: ranges), length) }
    // One connection writes in order: within the boot that wrote it, the part's length is
    // what is there (a killed process's writes are in the page cache); after a reboot only
    // the synced prefix is.
    guard record.bootID == BootIdentity.current,
      let size = FileSteps.regularFileSize(destination + ".part")
    else { return (LandedBytes(prefix: record.durableOffset), length) }
    return (LandedBytes(prefix: max(record.durableOffset, min(size, length ?? size))), length)
  }
}

extension OfflineContent {
  /// Opens the content's file for reading while it downloads, is suspended, or once it is
  /// downloaded: a player's source where no local file can be opened yet (`offline serve`
  /// answers `/content/<id>/<file>` through it).
  ///
  /// With `restrictedToAssetCache`, only the bytes already on disk are read. Without, the
  /// reader's wants go to the running download, which fetches them first
  /// (``OfflineFileReader``); a content queued behind others starts when a reader wants
  /// bytes, beside the parallel limit; a suspended one stays suspended and fetches only the
  /// ranges its readers ask for (a playback run, which ends once no reader asked for ten
  /// seconds; a file under 8 MiB, or from an origin without ranges, is fetched whole).
  ///
  /// - Throws: ``OfflineError``: `notPlayable` for a stream (its playlist or manifest is
  ///   the source: ``playbackURL(restrictedToAssetCache:)``) or a content that is not
  ///   downloaded, downloading or suspended; `unknownContent`, `index`.
  public func openFileReader(restrictedToAssetCache: Bool = true) async throws(OfflineError)
    -> OfflineFileReader
  {
    let current = try await snapshot
    let name = current.fileURL.lastPathComponent
    guard [.downloaded, .downloading, .suspended].contains(current.state),
      name != "index.m3u8", name != "index.mpd"
    else { throw OfflineError(.notPlayable(current.state), contentID: id) }
    return OfflineFileReader(
      contentID: id, destination: current.fileURL.path, manager: manager,
      playback: manager.playbacks.playback(of: id), restricted: restrictedToAssetCache)
  }
}
