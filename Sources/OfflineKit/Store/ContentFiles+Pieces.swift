import Foundation
import OfflineStore

/// What every file of a finished content must be, recorded in the index's `pieces` table
/// (and, by ``recordDownloaded(_:length:sha256:chunks:)``, in the folder's manifest).
extension ContentFiles {
  /// The records of every regular file in the folder of `record`, just downloaded: the
  /// content's file with `sha256` and `chunks` as its transfer computed them while the bytes
  /// streamed; a stream's pieces with the SHA-256 their transfers computed (the journal
  /// holds it); what OfflineKit wrote itself (offline playlists, keys) hashed now, once.
  ///
  /// `batchJournal`: the journal's records of a batch of files, read in one query
  /// (``TransferJournal/records(forDestinations:)``); the file's own record is taken from it
  /// (absent: it has none). Without it, the record is read here.
  func pieceRecords(
    of record: ContentRecord, sha256: String?, chunks: [String]?,
    batchJournal: [String: TransferRecord]? = nil
  ) -> [PieceRecord] {
    let root = folder(of: record)
    let isStream = Self.isStream(record)
    var pieces: [PieceRecord] = []
    // A stream's folder: one query for its journal, not one per piece (nil, unreadable,
    // hashes them). A single file: its own record (a shared folder holds other contents').
    let journaled = isStream ? try? index.transfers.records(under: root.path) : nil
    for (path, absolute, size, identity) in filesToRecord(of: record, in: root) {
      let own = !isStream && path == record.fileName
      let journal: TransferRecord?
      if isStream {
        journal = journaled?[absolute]
      } else if own, let batchJournal {
        journal = batchJournal[absolute]
      } else {
        journal = (try? index.transfers.record(forDestination: absolute)) ?? nil
      }
      let kind: PieceRecord.Kind = isStream ? Self.kind(ofPiece: path) : .file
      var digest = own ? sha256 : nil
      if digest == nil, let journal, journal.phase == .complete, journal.totalLength == size {
        digest = journal.sha256
      }
      var chunkList = own ? chunks ?? [] : []
      if digest == nil || (own && chunks == nil) {
        guard let hashed = PieceHashing.hash(path: absolute, length: size) else { continue }
        digest = hashed.sha256
        if own { chunkList = hashed.chunks }
      }
      guard let digest else { continue }
      pieces.append(
        PieceRecord(
          contentID: record.id, path: path, kind: kind, size: size, sha256: digest,
          chunkSHA256: chunkList, url: journal?.url, etag: journal?.etag,
          lastModified: journal?.lastModified,
          identity: identity ?? FileIdentity(regularFileAt: absolute)))
    }
    return pieces
  }

  /// ``ownFiles(of:)`` with each file's absolute path under `root`, and for a flat file its
  /// identity, from the one `lstat` that found it (a queue of small files looked each one
  /// up twice in a row, once for its size and once for its identity).
  private func filesToRecord(of record: ContentRecord, in root: URL) -> [(
    path: String, absolute: String, size: Int64, identity: FileIdentity?
  )] {
    guard record.flatFile else {
      return ownFiles(of: record).map { ($0.0, root.appending(path: $0.0).path, $0.1, nil) }
    }
    let absolute = destination(of: record)
    guard let identity = FileIdentity(regularFileAt: absolute) else { return [] }
    return [(record.fileName, absolute, identity.size, identity)]
  }

  /// Records the keys of stream `id` again after ``OfflineContent/renewKeys()`` wrote new
  /// ones, so `verify` checks them against what was fetched, not the old bytes.
  func recordRenewedKeys(of id: String) {
    let root = folder(id: id)
    guard let recorded = try? index.pieces.pieces(ofContent: id) else { return }
    let keys = recorded.filter { $0.kind == .key }.compactMap { key -> PieceRecord? in
      let path = root.appending(path: key.path).path
      guard let size = FileSteps.regularFileSize(path),
        let hashed = PieceHashing.hash(path: path, length: size)
      else { return nil }
      var renewed = key
      renewed.size = size
      renewed.sha256 = hashed.sha256
      renewed.identity = FileIdentity(regularFileAt: path)
      return renewed
    }
    try? index.pieces.save(keys)
  }

  /// Whether `record` is a stream (HLS or DASH): a folder of pieces.
  static func isStream(_ record: ContentRecord) -> Bool {
    guard let url = URL(string: record.url) else { return false }
    return url.isHLSPlaylist || url.isDASHManifest
  }

  /// The kind of the stream piece at `path` in its folder, from the names OfflineKit gives.
  static func kind(ofPiece path: String) -> PieceRecord.Kind {
    let name = (path as NSString).lastPathComponent
    let ext = (name as NSString).pathExtension.lowercased()
    if ["m3u8", "m3u", "mpd", "json"].contains(ext) { return .playlist }
    if path.hasPrefix("keys/") { return .key }
    if name.hasPrefix("init") { return .initSection }
    return .segment
  }
}
