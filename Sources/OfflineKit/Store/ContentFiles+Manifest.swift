import Foundation
import OfflineStore

/// The manifests of a store's contents, written with the state changes that matter (see
/// ``ContentManifest``). Every write is best effort: the index stays the truth, a manifest
/// only serves a rebuild, and a missing or older one claims less, never more.
extension ContentFiles {
  /// The ledger of queued contents.
  var ledger: QueueLedger { QueueLedger(contentFolder: contentFolder) }

  /// `content/<id>/.manifest.json`.
  func manifestURL(id: String) -> URL {
    folder(id: id).appending(path: ContentManifest.fileName)
  }

  /// Contents just queued (added, or downloaded again): one ledger batch for all of them.
  func recordQueued(_ records: [ContentRecord]) {
    ledger.append(
      records.map { addingChecks(to: ContentManifest(record: $0, state: .downloading), of: $0) })
  }

  /// Before a cancel or a delete is recorded: nothing may bring the content back, so its
  /// folder manifest and its ledger entry go first.
  func forgetManifests(of record: ContentRecord) {
    guard ContentFiles.isValidID(record.id) else { return }
    if !record.flatFile { DurableFile.remove(manifestURL(id: record.id)) }
    ledger.remove(id: record.id, sequence: record.sequence)
  }

  /// Before a resume is recorded: the folder manifest says `downloading` and drops the
  /// journal entries of its parts, which are about to be written again. A flat file's
  /// ledger entry is replaced the same way, when it has a part (only then can a suspended
  /// entry have been written).
  func recordResuming(_ record: ContentRecord) {
    let manifest = addingChecks(
      to: ContentManifest(record: record, state: .downloading), of: record)
    guard record.flatFile else { return write(manifest, onlyIfFolderExists: true) }
    guard (try? index.transfers.record(forDestination: destination(of: record))) ?? nil != nil
    else { return }
    replaceLedgerEntry(with: manifest)
  }

  /// A suspended content whose transfer has stopped: its state and the journal entries of
  /// its part files (not for a segmented file, whose ranges are not kept: it restarts).
  /// A flat file's entry replaces its ledger entry, once it has a part (before that, its
  /// queued entry says all there is, as a folder that does not exist yet gets no manifest).
  func recordSuspended(_ record: ContentRecord) {
    var manifest = addingChecks(
      to: ContentManifest(record: record, state: .suspended), of: record)
    let prefix = folder(of: record).path + "/"
    let entries =
      record.flatFile
      ? [(try? index.transfers.record(forDestination: destination(of: record))) ?? nil]
        .compactMap { $0 }
      : ((try? index.transfers.records(under: folder(id: record.id).path)) ?? [:]).values
        .sorted { $0.destination < $1.destination }
    let segmented = entries.contains {
      !((try? index.transfers.ranges(forDestination: $0.destination)) ?? []).isEmpty
    }
    if !segmented {
      manifest.journal = entries.map {
        ContentManifest.Journal(
          path: String($0.destination.dropFirst(prefix.count)), url: $0.url,
          phase: $0.phase.rawValue, durableOffset: $0.durableOffset, bootID: $0.bootID,
          totalLength: $0.totalLength, etag: $0.etag, lastModified: $0.lastModified,
          expectedSHA256: $0.expectedSHA256, sha256: $0.sha256,
          contentEncoding: $0.contentEncoding,
          fileIdentity: $0.fileIdentity.map {
            [$0.size, $0.modificationNanoseconds, $0.inode, $0.device]
          },
          packPath: $0.pack.flatMap { pack in
            pack.path.hasPrefix(prefix) ? String(pack.path.dropFirst(prefix.count)) : nil
          },
          packOffset: $0.pack?.offset)
      }
    }
    guard record.flatFile else { return write(manifest, onlyIfFolderExists: true) }
    guard !entries.isEmpty else { return }
    replaceLedgerEntry(with: manifest)
  }

  /// A flat file's new word in the ledger: its old entries go, then the new one is appended
  /// (a crash between the two leaves it without an entry: a rebuild claims less, never more).
  private func replaceLedgerEntry(with manifest: ContentManifest) {
    guard ContentFiles.isValidID(manifest.id) else { return }
    ledger.remove(id: manifest.id, sequence: manifest.sequence)
    ledger.append([manifest])
  }

  /// A finished download, after its files are durable and before the index records
  /// `downloaded`: every file of the folder with its size (and the file's SHA-256 when the
  /// transfer computed one). With `recordsPieces`, what each file must be goes into the
  /// index's `pieces` table first (``pieceRecords(of:sha256:chunks:)``), and the manifest
  /// lists the same SHA-256 and chunk digests, so a rebuilt index can check them too.
  /// Without `durably` the manifest is not fsynced: the caller syncs the file system before
  /// the index records `downloaded` (one sync for many contents).
  func recordDownloaded(
    _ record: ContentRecord, length: Int64, sha256: String?, chunks: [String]? = nil,
    recordsPieces: Bool = false, durably: Bool = true
  ) {
    if recordsPieces {
      let pieces = pieceRecords(of: record, sha256: sha256, chunks: chunks)
      try? index.pieces.replace(pieces, forContent: record.id)
      if let flat = recordDownloaded(record, length: length, pieces: pieces, durably: durably) {
        ledger.append([flat], durably: durably)  // a flat file's goes to the ledger
      }
      return
    }
    var manifest = downloadedManifest(of: record, length: length)
    manifest.files = ownFiles(of: record).map { path, size in
      ContentManifest.File(path: path, size: size, sha256: path == record.fileName ? sha256 : nil)
    }
    guard !manifest.files.isEmpty else { return }
    if record.flatFile {
      ledger.append([manifest], durably: durably)
    } else {
      write(manifest, onlyIfFolderExists: true, durably: durably)
    }
  }

  /// The manifest of a finished download whose `pieces` (``pieceRecords(of:sha256:chunks:)``)
  /// the caller writes to the index itself (many contents in one transaction); the same
  /// manifest as ``recordDownloaded(_:length:sha256:chunks:recordsPieces:durably:)`` writes.
  /// A flat file's manifest is not written but returned: the caller appends the batch's
  /// together to the ledger (one chunk file for all of them, no file per content).
  @discardableResult
  func recordDownloaded(
    _ record: ContentRecord, length: Int64, pieces: [PieceRecord], durably: Bool
  ) -> ContentManifest? {
    var manifest = downloadedManifest(of: record, length: length)
    manifest.files = pieces.map {
      ContentManifest.File(
        path: $0.path, size: $0.size, sha256: $0.sha256,
        chunks: $0.chunkSHA256.isEmpty ? nil : $0.chunkSHA256, kind: $0.kind.rawValue)
    }
    guard !manifest.files.isEmpty else { return nil }
    if record.flatFile { return manifest }
    write(manifest, onlyIfFolderExists: true, durably: durably)
    return nil
  }

  /// The regular files of `record` (paths relative to ``folder(of:)``, sizes): for a flat
  /// file only itself, never its neighbours in the shared folder; else every file of its
  /// folder (``regularFiles(in:keeping:)``).
  func ownFiles(of record: ContentRecord) -> [(String, Int64)] {
    guard record.flatFile else {
      return Self.regularFiles(in: folder(id: record.id), keeping: record.fileName)
    }
    guard case .regular(let size) = DurableFile.kind(destination(of: record)) else { return [] }
    return [(record.fileName, size)]
  }

  private func downloadedManifest(of record: ContentRecord, length: Int64)
    -> ContentManifest
  {
    var manifest = addingChecks(
      to: ContentManifest(record: record, state: .downloaded), of: record)
    manifest.bytes = length
    manifest.total = length
    manifest.totalIsEstimate = false
    manifest.lastError = nil
    manifest.lastErrorCode = nil
    return manifest
  }

  private func write(
    _ manifest: ContentManifest, onlyIfFolderExists: Bool, durably: Bool = true
  ) {
    guard ContentFiles.isValidID(manifest.id), manifest.flatFile != true else { return }
    let target = manifestURL(id: manifest.id)
    if onlyIfFolderExists, DurableFile.kind(folder(id: manifest.id).path) != .directory { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(manifest) else { return }
    DurableFile.write(data, to: target, durably: durably)
  }

  /// The regular files under `root` (relative paths, sizes), without the manifest, temporary
  /// and part files and a stream's growing playlists (``HLSGrowingPlaylists``), but always
  /// with `fileName`, the content's own file; links are not followed.
  static func regularFiles(in root: URL, keeping fileName: String) -> [(String, Int64)] {
    var found: [(String, Int64)] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let path = relative.isEmpty ? root.path : root.path + "/" + relative
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
      for name in names {
        let child = relative.isEmpty ? name : relative + "/" + name
        switch DurableFile.kind(path + "/" + name) {
        case .directory: pending.append(child)
        case .regular(let size):
          let skipped =
            ContentManifest.reservedName(name) || name.hasSuffix(".part")
            || name.hasSuffix(".tmp") || name.hasSuffix(".part.ranges")
            // Rewritten by every run of the stream (a repair's too): never what it must be.
            || HLSGrowingPlaylists.names.contains(name) || name == DASHDownload.throughIndexName
            || name == DASHPartialManifest.fileName
          if !skipped || child == fileName { found.append((child, size)) }
        default: break
        }
      }
    }
    return found.sorted { $0.0 < $1.0 }
  }
}
