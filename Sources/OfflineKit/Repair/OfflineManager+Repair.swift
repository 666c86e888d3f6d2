import Foundation
import OfflineStore

extension OfflineManager {
  /// Mends downloaded content `id`; see ``OfflineContent/repair(redownload:)``.
  package func repair(id: String, redownload: Bool = false) async throws(OfflineError)
    -> RepairReport
  {
    let record = try downloadedRecord(id: id)
    if redownload { return try await queueRedownload(record) }
    let (pieces, checked) = try await readAgain(record, progress: nil)
    guard let damage = checked.damage else {
      return RepairReport(contentID: id, outcome: .alreadyWhole, damage: nil)
    }
    let damagedPaths = Set(damage.problems.map(\.path))
    let damaged = pieces.filter { damagedPaths.contains($0.path) }
    // The origin first: when it changed, nothing here changes.
    try await checkOrigin(of: damaged, id: id)
    var report: RepairReport
    if ContentFiles.isStream(record) {
      report = try await repairStream(record, damaged: damaged, damage: damage, recorded: pieces)
    } else {
      report = RepairReport(contentID: id, outcome: .repaired, damage: damage)
      for piece in damaged {
        let (chunks, bytes) = try await repairFile(piece, id: id, in: files.folder(of: record))
        report.chunksFetched += chunks
        report.bytesFetched += bytes
      }
    }
    announce(id: id)  // its damage is gone
    return report
  }

  /// Asks the origin whether the content is still the version downloaded; see
  /// ``OfflineContent/checkRemote()``.
  package func checkRemote(id: String) async throws(OfflineError) -> RemoteStatus {
    _ = try downloadedRecord(id: id)
    let pieces = try indexStep { try index.pieces.pieces(ofContent: id) }
    guard !pieces.isEmpty else { throw OfflineError(.nothingRecorded, contentID: id) }
    do {
      try await checkOrigin(of: pieces, id: id)
      return .upToDate
    } catch {
      guard case .originChanged(let url) = error.kind else { throw error }
      return .changed(url: url)
    }
  }

  /// Throws `originChanged` when one of `pieces` (each URL asked once) is another version
  /// on the origin now; the transfer's error when the origin cannot be asked.
  private func checkOrigin(of pieces: [PieceRecord], id: String) async throws(OfflineError) {
    let remote = RemoteCheck(session: try session(ofContent: id))
    var asked: Set<String> = []
    for piece in pieces {
      guard let url = piece.url, asked.insert(url).inserted else { continue }
      do {
        if try await remote.answer(for: piece) == .changed {
          throw OfflineError(.originChanged(url: url), contentID: id)
        }
      } catch let error as OfflineError {
        throw error
      } catch {
        throw OfflineError(.transfer(error as! Transfer.Error), contentID: id)
      }
    }
  }

  /// Fetches the wrong chunks of `piece` (a content's own file) again and writes them in.
  /// Every chunk is staged in a part and checked against its recorded digest first; only
  /// when all are staged are they written into the file (each write fsynced before its part
  /// goes). A kill anywhere leaves the file no worse, and the next repair reuses the staged
  /// parts that are whole. Returns the chunks and body bytes fetched.
  private func repairFile(_ piece: PieceRecord, id: String, in folder: URL)
    async throws(OfflineError) -> (Int, Int64)
  {
    let path = folder.path + "/" + piece.path
    guard !piece.chunkSHA256.isEmpty else { throw OfflineError(.nothingRecorded, contentID: id) }
    let wrong = await Task.detached { ContentVerifier.wrongChunks(of: piece, at: path) }.value
    let fetch = ChunkFetch(session: try session(ofContent: id))
    var bytes: Int64 = 0
    var fetched = 0
    for index in wrong {
      let range = ChunkDigests.range(of: index, length: piece.size)
      let staged = ChunkFetch.stagedPath(of: path, chunk: index)
      let digest = piece.chunkSHA256[index]
      if ChunkFetch.isStaged(staged, digest: digest, length: Int64(range.count)) { continue }
      do {
        bytes += try await fetch.fetch(piece, range: range, digest: digest, into: staged)
        fetched += 1
      } catch {
        unlink(staged)
        switch error {
        case .originChanged:
          throw OfflineError(.originChanged(url: piece.url ?? ""), contentID: id)
        case .transfer(let failure):
          throw OfflineError(.transfer(failure), contentID: id)
        }
      }
    }
    CrashPoint.reach(.repairAfterStaging)
    do {
      // Deleted meanwhile (`rm` in another process): its staged chunks go, nothing is made.
      _ = try downloadedRecord(id: id)
    } catch {
      for index in wrong { unlink(ChunkFetch.stagedPath(of: path, chunk: index)) }
      throw error
    }
    do {
      try ChunkWriter.writeIn(wrong, of: piece, at: path)
    } catch {
      throw OfflineError(
        .transfer(
          Transfer.Error(
            .file(error), url: URL(string: piece.url ?? "") ?? files.directory, destination: path)),
        contentID: id)
    }
    var repaired = piece
    repaired.identity = FileIdentity(regularFileAt: path)
    try? index.pieces.save([repaired])
    return (fetched, bytes)
  }

  /// Deletes the content's files and queues it to be downloaded again, with the options it
  /// was downloaded with.
  private func queueRedownload(_ record: ContentRecord) async throws(OfflineError) -> RepairReport {
    let stored = try DownloadConfiguration.stored(in: record)
    let config = try DownloadConfiguration(
      expectedSHA256: record.expectedSHA256, priority: record.priority, stream: stored.stream,
      connections: stored.connections ?? .adaptive)
    try await perform(.delete, id: record.id)
    try await perform(.download, id: record.id, configuration: config)
    return RepairReport(contentID: record.id, outcome: .redownloadQueued, damage: nil)
  }
}
