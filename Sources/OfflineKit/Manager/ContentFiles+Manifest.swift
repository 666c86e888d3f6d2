import Foundation
import OfflineStore

/// The manifests of a store's contents, written with the state changes that matter (see
/// ``ContentManifest``). Every write is best effort: the index stays the truth, a manifest
/// only serves a rebuild, and a missing or older one claims less, never more.
extension ContentFiles {
  /// `content/` in the store.
  var contentFolder: URL { directory.appending(path: "content", directoryHint: .isDirectory) }

  /// The ledger of queued contents.
  var ledger: QueueLedger { QueueLedger(contentFolder: contentFolder) }

  /// `content/<id>/.manifest.json`.
  func manifestURL(id: String) -> URL {
    folder(id: id).appending(path: ContentManifest.fileName)
  }

  /// Contents just queued (added, or downloaded again): one ledger batch for all of them.
  func recordQueued(_ records: [ContentRecord]) {
    ledger.append(records.map { ContentManifest(record: $0, state: .downloading) })
  }

  /// Before a cancel or a delete is recorded: nothing may bring the content back, so its
  /// folder manifest and its ledger entry go first.
  func forgetManifests(of record: ContentRecord) {
    guard ContentFiles.isValidID(record.id) else { return }
    DurableFile.remove(manifestURL(id: record.id))
    ledger.remove(id: record.id, sequence: record.sequence)
  }

  /// Before a resume is recorded: the folder manifest says `downloading` and drops the
  /// journal entries of its parts, which are about to be written again.
  func recordResuming(_ record: ContentRecord) {
    write(ContentManifest(record: record, state: .downloading), onlyIfFolderExists: true)
  }

  /// A suspended content whose transfer has stopped: its state and the journal entries of
  /// its part files (not for a segmented file, whose ranges are not kept: it restarts).
  func recordSuspended(_ record: ContentRecord) {
    var manifest = ContentManifest(record: record, state: .suspended)
    let prefix = folder(id: record.id).path + "/"
    let entries = ((try? index.transfers.all()) ?? []).filter { $0.destination.hasPrefix(prefix) }
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
          })
      }
    }
    write(manifest, onlyIfFolderExists: true)
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
      recordDownloaded(record, length: length, pieces: pieces, durably: durably)
      return
    }
    var manifest = Self.downloadedManifest(of: record, length: length)
    manifest.files = Self.regularFiles(in: folder(id: record.id), keeping: record.fileName).map {
      path, size in
      ContentManifest.File(path: path, size: size, sha256: path == record.fileName ? sha256 : nil)
    }
    guard !manifest.files.isEmpty else { return }
    write(manifest, onlyIfFolderExists: true, durably: durably)
  }

  /// The manifest of a finished download whose `pieces` (``pieceRecords(of:sha256:chunks:)``)
  /// the caller writes to the index itself (many contents in one transaction); the same
  /// manifest as ``recordDownloaded(_:length:sha256:chunks:recordsPieces:durably:)`` writes.
  func recordDownloaded(
    _ record: ContentRecord, length: Int64, pieces: [PieceRecord], durably: Bool
  ) {
    var manifest = Self.downloadedManifest(of: record, length: length)
    manifest.files = pieces.map {
      ContentManifest.File(
        path: $0.path, size: $0.size, sha256: $0.sha256,
        chunks: $0.chunkSHA256.isEmpty ? nil : $0.chunkSHA256, kind: $0.kind.rawValue)
    }
    guard !manifest.files.isEmpty else { return }
    write(manifest, onlyIfFolderExists: true, durably: durably)
  }

  private static func downloadedManifest(of record: ContentRecord, length: Int64)
    -> ContentManifest
  {
    var manifest = ContentManifest(record: record, state: .downloaded)
    manifest.bytes = length
    manifest.total = length
    manifest.totalIsEstimate = false
    manifest.lastError = nil
    manifest.lastErrorKind = nil
    return manifest
  }

  private func write(
    _ manifest: ContentManifest, onlyIfFolderExists: Bool, durably: Bool = true
  ) {
    guard ContentFiles.isValidID(manifest.id) else { return }
    let target = manifestURL(id: manifest.id)
    if onlyIfFolderExists, DurableFile.kind(folder(id: manifest.id).path) != .directory { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(manifest) else { return }
    DurableFile.write(data, to: target, durably: durably)
  }

  /// The regular files under `root` (relative paths, sizes), without the manifest, temporary
  /// and part files (but always with `fileName`, the content's own file); links are not
  /// followed.
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
          if !skipped || child == fileName { found.append((child, size)) }
        default: break
        }
      }
    }
    return found.sorted { $0.0 < $1.0 }
  }
}
