import Foundation
import OfflineStore

extension OfflineManager {
  /// Mends the `damaged` pieces of stream `record` (`recorded`: every piece its download
  /// recorded) with the bytes its download recorded and no others: an origin may serve new
  /// bytes for a segment under its old `ETag`, `Last-Modified` and length (a CDN that lies),
  /// and a copy mixing two versions is no version at all.
  ///
  /// A pack of its recorded size whose damaged segments are known: each of them is fetched
  /// whole into a staged part beside the pack and checked against the SHA-256 recorded for
  /// it; only when all are staged are they written back at their own offsets (fsynced), so
  /// the pack holds the bytes downloaded again and the offline playlists stay as they are.
  /// Any other damage (a piece in a file of its own, a pack missing or resized, a key, an
  /// offline playlist) goes through the stream's piece engine: the journal entries of those
  /// pieces go, so the download fetches them while every whole piece is found complete and
  /// skipped, each one checked against its recorded SHA-256 (one with other bytes is not
  /// kept); the offline playlists are written again last, and the pieces recorded again.
  ///
  /// - Throws: ``OfflineError``: `originChanged` naming the URL of a segment that came with
  ///   other bytes (none of them were written), `transfer` when the origin cannot be reached.
  func repairStream(
    _ record: ContentRecord, damaged: [PieceRecord], damage: ContentDamage, recorded: [PieceRecord]
  ) async throws(OfflineError) -> RepairReport {
    let folder = files.folder(id: record.id)
    let packs = files.packedPieces(of: record)
    var mends: [PackMend] = []
    var fetched = 0
    var needsEngine = false
    for piece in damaged {
      let path = folder.appending(path: piece.path).path
      if let packed = packs[piece.path] {
        let wrong = ContentVerifier.wrongPieces(packed, at: path)
        let offsets = Set(wrong)
        let segments = packed.filter { offsets.contains($0.offset) }
        if !segments.isEmpty, FileSteps.regularFileSize(path) == piece.size {
          mends.append(PackMend(pack: piece, path: path, segments: segments))
          continue
        }
        // Segments fetched again go to the pack's end; the playlist names them there.
        fetched += (try? index.transfers.remove(packedIn: path, at: wrong)) ?? 0
        needsEngine = true
        continue
      }
      needsEngine = true
      guard piece.kind != .playlist else { continue }
      try? index.transfers.remove(destination: path)
      let packed = (try? index.transfers.remove(packedIn: path)) ?? 0
      fetched += max(1, packed)
    }
    if try await mend(mends, id: record.id) { needsEngine = true }
    fetched += mends.reduce(0) { $0 + $1.segments.count }
    if needsEngine {
      try await refetch(record, expecting: Self.recordedSHA256(of: recorded, packs: packs))
    }
    return RepairReport(
      contentID: record.id, outcome: .repaired, damage: damage, piecesFetched: fetched)
  }

  /// The SHA-256 every piece of a stream must have, by its path in the folder: the pieces
  /// and keys in files of their own (the index's records) and those in packs (their
  /// journal's).
  static func recordedSHA256(of recorded: [PieceRecord], packs: [String: [PackedPiece]])
    -> [String: String]
  {
    var expected: [String: String] = [:]
    for piece in recorded where [.segment, .initSection, .key].contains(piece.kind) {
      expected[piece.path] = piece.sha256
    }
    for piece in packs.values.joined() where !piece.local.isEmpty {
      expected[piece.local] = piece.sha256
    }
    return expected
  }

  /// Fetches the segments of each of `mends` into staged parts, checked against their
  /// recorded SHA-256; then, all staged, writes them back into their packs and records each
  /// pack's identity when it is again the bytes downloaded. Returns whether a pack still
  /// differs from its record after that (bytes no segment holds): the piece engine then
  /// records it as it is. Staged parts never outlive the call.
  private func mend(_ mends: [PackMend], id: String) async throws(OfflineError) -> Bool {
    guard !mends.isEmpty else { return false }
    let fetch = ChunkFetch(session: try session(ofContent: id))
    let folder = files.folder(id: id).path
    // The packs' folders held open: staged parts and packs are written relative to them,
    // never through a link swapped in meanwhile.
    let pins: ContentFolders.Pins
    do {
      pins = try ContentFolders.pin(forFiles: mends.map(\.pack.path), in: folder)
    } catch {
      throw OfflineError(
        .transfer(
          Transfer.Error(
            .file(error), url: URL(string: mends[0].segments[0].url) ?? files.directory,
            destination: error.path ?? folder)),
        contentID: id)
    }
    defer { withExtendedLifetime(pins) {} }
    StopPoint.reach(.repairBeforeMendingPacks)
    var staged: [String] = []
    defer { for part in staged { FileSteps.unlink(part) } }
    for mend in mends {
      for segment in mend.segments {
        let part = ChunkFetch.stagedPath(ofPack: mend.path, segmentAt: segment.offset)
        staged.append(part)
        do {
          _ = try await fetch.fetch(segment: segment, into: part)
        } catch {
          switch error {
          case .originChanged:
            throw OfflineError(.originChanged(url: segment.url), contentID: id)
          case .transfer(let failure):
            throw OfflineError(.transfer(failure), contentID: id)
          }
        }
      }
    }
    var differs = false
    for mend in mends {
      do {
        try pins.checkInPlace()
        try mend.writeStagedSegments()
      } catch {
        throw OfflineError(
          .transfer(
            Transfer.Error(
              .file(error), url: URL(string: mend.segments[0].url) ?? files.directory,
              destination: mend.path)),
          contentID: id)
      }
      guard PieceHashing.hash(path: mend.path, length: mend.pack.size)?.sha256 == mend.pack.sha256
      else {
        differs = true
        continue
      }
      var repaired = mend.pack
      repaired.identity = FileIdentity(regularFileAt: mend.path)
      try? index.pieces.save([repaired])
    }
    return differs
  }

  /// Runs the stream's download again, each piece `expecting` names checked against it; a
  /// piece that came with other bytes ends it with `originChanged` naming its URL.
  private func refetch(_ record: ContentRecord, expecting: [String: String])
    async throws(OfflineError)
  {
    guard let url = URL(string: record.url) else {
      throw OfflineError(.invalidURL(record.url), contentID: record.id)
    }
    let stored = try DownloadConfiguration.stored(in: record)
    // Its options were kept by `add`, perhaps in another process.
    let session = try self.session(of: record, url: url)
    let kind: ContentDownload.Kind = url.isHLSPlaylist ? .hls : .dash
    // A stream: mirrors are a file's.
    let work = self.work(
      record, kind: kind, session: session, mirrors: [], options: stored, expecting: expecting)
    guard case .failure(let error) = await work({ _ in }) else { return }
    if case .checksumMismatch = error.kind {
      throw OfflineError(.originChanged(url: error.url.absoluteString), contentID: record.id)
    }
    throw OfflineError(.transfer(error), contentID: record.id)
  }
}

/// The damaged segments of one pack of the size recorded, to be fetched again and written
/// back at their own offsets.
struct PackMend: Sendable {
  /// The pack's record.
  var pack: PieceRecord
  /// The pack's absolute path.
  var path: String
  /// Its segments whose bytes are wrong.
  var segments: [PackedPiece]

  /// Writes each segment's staged part (``ChunkFetch/stagedPath(ofPack:segmentAt:)``, whole
  /// and checked) at its offset in the pack, never through a link, and syncs the pack.
  func writeStagedSegments() throws(TransferFileError) {
    let fd = FileSteps.open(path, flags: O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw TransferFileError(.open, errno: errno, path: path) }
    defer { close(fd) }
    for segment in segments {
      let part = ChunkFetch.stagedPath(ofPack: path, segmentAt: segment.offset)
      // Read never through a link: a staged part is a regular file the fetch made.
      guard case .success(let bytes) = DurableFile.read(part, limit: Int(segment.length)),
        Int64(bytes.count) == segment.length
      else { throw TransferFileError(.open, errno: ENOENT, path: part) }
      var failure: TransferFileError?
      bytes.withUnsafeBytes { buffer in
        do throws(TransferFileError) {
          try FileSteps.writeAll(buffer, at: segment.offset, to: fd)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
    }
    guard Durability.syncData(fd) == 0 else {
      throw TransferFileError(.sync, errno: errno, path: path)
    }
  }
}
