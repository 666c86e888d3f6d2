import Foundation
import OfflineStore

/// Rebuilds the `contents` of an index from what the content folders say: each folder's
/// manifest, else the queue ledger's entry (see ``ContentManifest``, ``QueueLedger``).
///
/// - `downloaded`: adopted when every listed file is a regular file of the listed size;
///   otherwise the files that do not match are deleted and the content is queued again
///   (`downloading`), with a note: a wrong file is never passed off as downloaded.
/// - `suspended`: comes back suspended, with its part files' journal entries, so a resume
///   continues from them exactly as the lost journal would have allowed (within the boot
///   that wrote them, the parts' lengths; after a reboot, only what was fsynced).
/// - `downloading`: comes back queued; its parts have no journal entry, so the transfer
///   starts them over (it never splices unknown bytes).
///
/// Nothing a manifest says is followed outside its folder (for a flat file, outside its one
/// name in the shared `files/` folder); contents already in the index are left alone (the
/// index is the truth).
struct IndexRebuild {
  let files: ContentFiles

  func run() throws(OfflineError) -> RebuildReport {
    var report = RebuildReport()
    var chosen: [String: ContentManifest] = [:]
    var fromFolder = Set<String>()
    var bare: [String] = []
    let root = files.contentFolder
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    for name in names where !name.hasPrefix(".") {
      let folder = root.appending(path: name)
      guard DurableFile.kind(folder.path) == .directory else {
        report.skipped.append(.init(path: folder.path, reason: "not a folder (never followed)"))
        continue
      }
      guard ContentFiles.isValidID(name) else {
        report.skipped.append(.init(path: folder.path, reason: "its name cannot be a content id"))
        continue
      }
      let path = files.manifestURL(id: name).path
      if DurableFile.kind(path) == .missing {
        bare.append(name)  // perhaps in the ledger
        continue
      }
      switch Self.decode(path: path, folderName: name) {
      case .success(let manifest):
        chosen[name] = manifest
        fromFolder.insert(name)
      case .failure(let problem):
        report.skipped.append(.init(path: path, reason: problem.reason))
      }
    }
    let ledger = files.ledger.entries()
    report.skipped += ledger.problems.map { .init(path: $0.path, reason: $0.reason) }
    for entry in ledger.manifests where !fromFolder.contains(entry.id) {
      do throws(ContentManifest.Problem) {
        let manifest = try entry.validated(folderName: nil)
        // The newer word: a later sequence, else (a flat file's two entries) `downloaded`.
        if let earlier = chosen[manifest.id], Self.rank(earlier) > Self.rank(manifest) { continue }
        chosen[manifest.id] = manifest
      } catch {
        report.skipped.append(
          .init(path: files.ledger.folder.path, reason: "an entry: \(error.reason)"))
      }
    }
    for name in bare where chosen[name] == nil {
      report.skipped.append(
        .init(path: root.appending(path: name).path, reason: "it has no manifest; left as it is"))
    }
    let stored = try indexStep { try files.index.contents.all() }
    let known = Set(stored.map(\.id))
    // A flat file belongs to one content: a manifest naming one another content has is
    // never adopted (nor its file touched).
    var flatNames = Set(stored.filter(\.flatFile).map { $0.fileName.lowercased() })
    var records: [ContentRecord] = []
    var kept: [String: ContentManifest] = [:]
    for manifest in chosen.values.sorted(by: { ($0.sequence, $0.id) < ($1.sequence, $1.id) })
    where !known.contains(manifest.id) {
      if manifest.flatFile == true {
        guard flatNames.insert(manifest.fileName.lowercased()).inserted else {
          report.skipped.append(
            .init(
              path: files.flatFolder.appending(path: manifest.fileName).path,
              reason: "content '\(manifest.id)' names a file another content has; left as it is"))
          continue
        }
      }
      let (record, note) = restore(manifest, fromFolder: fromFolder.contains(manifest.id))
      records.append(record)
      kept[record.id] = manifest
      report.restored.append(
        .init(id: record.id, state: record.offlineState, note: note))
    }
    // A file's piece checks go in before its record, which says it has them; what each
    // source served after it (the same call marks the record).
    for record in records where record.hasPieceChecks {
      try indexStep {
        try files.index.contents.setPieceChecks(kept[record.id]?.pieceChecks?.stored, id: record.id)
      }
    }
    let inserted = try indexStep { try files.index.contents.restore(records) }
    for id in inserted {
      guard let sources = kept[id]?.sources, !sources.isEmpty else { continue }
      try? files.index.contents.setSourceReports(sources.map(\.stored), id: id)
    }
    report.restored.removeAll { !inserted.contains($0.id) }  // another process was first
    return report
  }

  /// Puts back what each file of a downloaded `manifest` must be (its SHA-256, kind and chunk
  /// digests), so `verify` and `repair` work on a rebuilt index. The validators are not in
  /// the manifest: a repair then asks the origin for the length only.
  private func restorePieces(of manifest: ContentManifest, in folder: URL) {
    let pieces = manifest.files.compactMap { file -> PieceRecord? in
      guard let sha = file.sha256, SHA256.isValidHex(sha),
        let kind = file.kind.flatMap(PieceRecord.Kind.init(rawValue:)),
        (file.chunks ?? []).allSatisfy(SHA256.isValidHex)
      else { return nil }
      return PieceRecord(
        contentID: manifest.id, path: file.path, kind: kind, size: file.size,
        sha256: sha.lowercased(), chunkSHA256: (file.chunks ?? []).map { $0.lowercased() },
        url: kind == .file ? manifest.url : nil,
        identity: FileIdentity(regularFileAt: folder.appending(path: file.path).path))
    }
    guard !pieces.isEmpty else { return }
    try? files.index.pieces.replace(pieces, forContent: manifest.id)
  }

  /// The record `manifest` comes back as, having checked its files; seeds the journal of a
  /// suspended content's parts.
  private func restore(_ manifest: ContentManifest, fromFolder: Bool) -> (ContentRecord, String?) {
    let folder = manifest.flatFile == true ? files.flatFolder : files.folder(id: manifest.id)
    switch manifest.offlineState {
    case .downloaded:
      let wrong = manifest.files.compactMap { file -> String? in
        switch DurableFile.kind(of: file.path, in: folder) {
        case .regular(let size) where size == file.size: return nil
        case .regular(let size):
          return "\(ContentManifest.shown(file.path)) has \(size) bytes, not \(file.size)"
        case .missing: return "\(ContentManifest.shown(file.path)) is missing"
        default: return "\(ContentManifest.shown(file.path)) is not a regular file"
        }
      }
      guard let first = wrong.first else {
        restorePieces(of: manifest, in: folder)
        return (manifest.record(state: .downloaded), nil)
      }
      for file in manifest.files {
        if case .regular(let size) = DurableFile.kind(of: file.path, in: folder), size != file.size
        {
          unlink(folder.appending(path: file.path).path)  // never resumed or trusted
        }
      }
      var record = manifest.record(state: .downloading)
      record.bytes = 0
      let note = "Not adopted as downloaded (\(first)); queued to download again."
      record.lastError = note
      var requeued = ContentManifest(record: record, state: .downloading)
      requeued.lastError = note
      if record.flatFile {
        files.ledger.remove(id: record.id, sequence: record.sequence)  // its `downloaded` entry
        files.ledger.append([requeued])
      } else if let data = try? JSONEncoder().encode(requeued) {
        DurableFile.write(data, to: files.manifestURL(id: manifest.id))
      }
      return (record, note)
    case .suspended:
      for entry in manifest.journal {
        _ = try? files.index.transfers.save(
          TransferRecord(
            destination: folder.appending(path: entry.path).path, url: entry.url,
            phase: TransferRecord.Phase(rawValue: entry.phase) ?? .active,
            durableOffset: entry.durableOffset, bootID: entry.bootID,
            totalLength: entry.totalLength, etag: entry.etag, lastModified: entry.lastModified,
            expectedSHA256: entry.expectedSHA256, sha256: entry.sha256,
            contentEncoding: entry.contentEncoding,
            fileIdentity: entry.fileIdentity.flatMap { values in
              values.count == 4
                ? FileIdentity(
                  size: values[0], modificationNanoseconds: values[1], inode: values[2],
                  device: values[3]) : nil
            },
            pack: entry.packPath.flatMap { path in
              entry.packOffset.map {
                TransferRecord.Pack(path: folder.appending(path: path).path, offset: $0)
              }
            }))
      }
      return (manifest.record(state: .suspended), nil)
    default:
      return (manifest.record(state: .downloading), nil)
    }
  }

  /// How new a ledger entry's word is among the entries of one content: its sequence, then
  /// whether it says `downloaded` (a flat file keeps its queued entry beside that one).
  private static func rank(_ manifest: ContentManifest) -> (Int64, Int) {
    (manifest.sequence, manifest.offlineState == .downloaded ? 1 : 0)
  }

  /// The manifest at `path`, read without following links, decoded and validated.
  static func decode(path: String, folderName: String?) -> Result<
    ContentManifest, ContentManifest.Problem
  > {
    switch DurableFile.read(path, limit: ContentManifest.maximumSize) {
    case .failure(let problem): return .failure(problem)
    case .success(let data):
      guard let manifest = try? JSONDecoder().decode(ContentManifest.self, from: data) else {
        return .failure(.init("it is not a manifest (damaged JSON)"))
      }
      do throws(ContentManifest.Problem) {
        return .success(try manifest.validated(folderName: folderName))
      } catch {
        return .failure(error)
      }
    }
  }
}
