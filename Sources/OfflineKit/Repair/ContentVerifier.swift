import Foundation
import OfflineStore

/// The full check of a downloaded content: every recorded file read again and hashed, its
/// chunks one by one when it has chunk digests (so a flipped byte is named by its chunk's
/// offset), a stream's pieces whole, and the pieces of a damaged pack one by one (so a flipped
/// byte is named by its segment's position in its playlist and its URL, and a repair fetches
/// that segment).
///
/// Reads each file once, in 1 MiB blocks (a damaged pack twice); memory stays flat. Runs on
/// the caller's task.
struct ContentVerifier {
  let folder: URL
  let pieces: [PieceRecord]
  /// The pieces in each pack, by the pack's path (``ContentFiles/packedPieces(of:)``).
  var packs: [String: [PackedPiece]] = [:]

  /// Progress of a check: bytes read so far, of the recorded total.
  typealias Progress = @Sendable (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void

  /// The result: the damage (nil when whole), and the records of files whose bytes are
  /// right but whose identity moved (copied back, touched), with their new identity.
  struct Result {
    var damage: ContentDamage?
    var reidentified: [PieceRecord]
    var bytesRead: Int64
  }

  func run(progress: Progress?) throws(CancellationError) -> Result {
    let total = pieces.reduce(Int64(0)) { $0 + $1.size }
    var read: Int64 = 0
    var problems: [ContentDamage.Problem] = []
    var reidentified: [PieceRecord] = []
    var folders: [String: Bool] = [:]
    for piece in pieces {
      if Task.isCancelled { throw CancellationError() }
      let path = folder.path + "/" + piece.path
      // A file reached through a link at one of the content's folders is not in it.
      let linked = ContentFolders.misplacedFolder(on: piece.path, in: folder.path, known: &folders)
      guard linked == nil, let identity = FileIdentity(regularFileAt: path) else {
        problems.append(.init(path: piece.path, kind: .init(piece.kind), fault: .missing))
        read += piece.size
        continue
      }
      let faults = check(piece, at: path, size: identity.size) {
        read += $0
        progress?(read, total)  // after each chunk of a file, each piece of a stream
      }
      // A check cut short by a cancel says nothing of the file: never a "whole".
      if Task.isCancelled { throw CancellationError() }
      if let fault = faults {
        problems.append(
          .init(
            path: piece.path, kind: .init(piece.kind), fault: fault,
            segments: segments(fault, piece)))
      } else if piece.identity != identity {
        var moved = piece
        moved.identity = identity
        reidentified.append(moved)
      }
    }
    return Result(
      damage: problems.isEmpty ? nil : ContentDamage(problems: problems),
      reidentified: reidentified, bytesRead: read)
  }

  /// The segments of pack `piece` that `fault` found wrong, named by their playlist
  /// position and URL; empty for any other piece or fault.
  private func segments(_ fault: ContentDamage.Fault, _ piece: PieceRecord)
    -> [ContentDamage.Segment]
  {
    guard case .wrongHash(let offsets) = fault, !offsets.isEmpty, let packed = packs[piece.path]
    else { return [] }
    return Self.segments(packed, at: offsets)
  }

  /// What is wrong with the file of `piece` at `path` (`size` bytes now), nil when whole.
  private func check(
    _ piece: PieceRecord, at path: String, size: Int64, didRead: (Int64) -> Void
  ) -> ContentDamage.Fault? {
    if size < piece.size, piece.chunkSHA256.isEmpty {
      return .short(expected: piece.size, actual: size)
    }
    if size > piece.size { return .long(expected: piece.size, actual: size) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .missing }
    defer { close(fd) }
    if piece.chunkSHA256.isEmpty {
      let hasher = SHA256()
      guard (try? hasher.feed(fromFile: fd, length: size)) != nil else { return .missing }
      didRead(size)
      guard hasher.finalizeHex() != piece.sha256 else { return nil }
      // A pack: which of its pieces differ (none when only bytes no playlist names did).
      let packed = packs[piece.path] ?? []
      return .wrongHash(chunkOffsets: Self.wrongPieces(packed, in: fd, size: size))
    }
    // Chunk by chunk: a short file's missing chunks are named by the short fault, the
    // chunks it still has are checked (a repair fetches only what is wrong).
    var wrong: [Int64] = []
    for (index, expected) in piece.chunkSHA256.enumerated() {
      if Task.isCancelled { return nil }  // the caller throws: see `run`
      let range = ChunkDigests.range(of: index, length: piece.size)
      guard range.upperBound <= size else { break }
      let hasher = SHA256()
      guard (try? hasher.feed(fromFile: fd, range: range)) != nil else {
        wrong.append(range.lowerBound)
        continue
      }
      didRead(range.upperBound - range.lowerBound)
      if hasher.finalizeHex() != expected { wrong.append(range.lowerBound) }
    }
    if size < piece.size { return .short(expected: piece.size, actual: size) }
    return wrong.isEmpty ? nil : .wrongHash(chunkOffsets: wrong)
  }
}

extension ContentVerifier {
  /// The chunks of `piece` (a file with chunk digests) at `path` that must be fetched again:
  /// those whose bytes differ, and every chunk past the end of a short or missing file.
  static func wrongChunks(of piece: PieceRecord, at path: String) -> [Int] {
    let size = FileSteps.regularFileSize(path) ?? 0
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    defer { if fd >= 0 { close(fd) } }
    var wrong: [Int] = []
    for (index, expected) in piece.chunkSHA256.enumerated() {
      let range = ChunkDigests.range(of: index, length: piece.size)
      guard fd >= 0, range.upperBound <= size else {
        wrong.append(index)
        continue
      }
      let hasher = SHA256()
      if (try? hasher.feed(fromFile: fd, range: range)) == nil || hasher.finalizeHex() != expected {
        wrong.append(index)
      }
    }
    return wrong
  }
}

extension ContentVerifier {
  /// ``run(progress:)`` off the caller's actor, stopped when the caller is cancelled: nil
  /// then. A detached task does not inherit the cancellation by itself, and a cancelled
  /// verify or repair read on to the last byte.
  func runCancellably(progress: Progress?) async -> Result? {
    let reading = Task.detached { try? self.run(progress: progress) }
    return await withTaskCancellationHandler {
      await reading.value
    } onCancel: {
      reading.cancel()
    }
  }
}
