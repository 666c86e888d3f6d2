import Foundation
import OfflineStore

/// A piece of a stream whose bytes are in a pack (``PiecePack``): where, how many, the
/// SHA-256 its transfer computed as they streamed, its name in the folder and its URL (its
/// journal record).
struct PackedPiece: Sendable, Equatable {
  /// Where its first byte is in the pack.
  var offset: Int64
  /// Its length.
  var length: Int64
  /// The SHA-256 of its bytes, lowercase hex.
  var sha256: String
  /// Its name inside the content folder had it a file of its own (``StreamPiece/local``,
  /// `video/s00003.ts`): the key of its journal record.
  var local: String = ""
  /// The URL it was downloaded from.
  var url: String = ""
}

extension ContentFiles {
  /// The pieces in each pack of stream `record`'s folder, keyed by the pack's path inside
  /// the folder and in pack order, from the journal's complete records (one query); empty
  /// for a file.
  func packedPieces(of record: ContentRecord) -> [String: [PackedPiece]] {
    guard Self.isStream(record) else { return [:] }
    let root = folder(of: record).path
    guard let records = try? index.transfers.records(under: root) else { return [:] }
    var packs: [String: [PackedPiece]] = [:]
    for journal in records.values {
      guard let pack = journal.pack, journal.phase == .complete,
        let length = journal.totalLength, let sha256 = journal.sha256,
        pack.path.hasPrefix(root + "/")
      else { continue }
      let path = String(pack.path.dropFirst(root.count + 1))
      let local =
        journal.destination.hasPrefix(root + "/")
        ? String(journal.destination.dropFirst(root.count + 1)) : ""
      packs[path, default: []].append(
        PackedPiece(
          offset: pack.offset, length: length, sha256: sha256, local: local, url: journal.url))
    }
    return packs.mapValues { $0.sorted { $0.offset < $1.offset } }
  }
}

extension ContentVerifier {
  /// The offsets of the `pieces` of the pack open at `descriptor` (`size` bytes now) whose
  /// bytes differ from their records or lie past its end.
  static func wrongPieces(_ pieces: [PackedPiece], in descriptor: Int32, size: Int64) -> [Int64] {
    pieces.filter { piece in
      let range = piece.offset..<piece.offset + piece.length
      guard range.upperBound <= size else { return true }
      let hasher = SHA256()
      guard (try? hasher.feed(fromFile: descriptor, range: range)) != nil else { return true }
      return hasher.finalizeHex() != piece.sha256
    }.map(\.offset)
  }

  /// The offsets of the `pieces` of the pack at `path` that must be fetched again: every
  /// one when the pack cannot be read.
  static func wrongPieces(_ pieces: [PackedPiece], at path: String) -> [Int64] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return pieces.map(\.offset) }
    defer { close(descriptor) }
    return wrongPieces(pieces, in: descriptor, size: FileSteps.regularFileSize(path) ?? 0)
  }
}

extension ContentVerifier {
  /// The `pieces` of a pack at `offsets`, named as a player meets them: their position in
  /// their offline media playlist (from the names ``HLSPlanner`` gives whole segments,
  /// `s00002.ts` for the third) and their URL. Empty when one of them cannot be named (a
  /// pack from another layout): its offsets then say where the damage is.
  static func segments(_ pieces: [PackedPiece], at offsets: [Int64]) -> [ContentDamage.Segment] {
    let wanted = Set(offsets)
    var named: [ContentDamage.Segment] = []
    for piece in pieces where wanted.contains(piece.offset) {
      guard let place = HLSPlanner.place(ofWholeSegment: piece.local) else { return [] }
      named.append(
        ContentDamage.Segment(
          playlist: place.playlist, position: place.index + 1, url: piece.url,
          offset: piece.offset))
    }
    return named.count == wanted.count ? named : []
  }
}
