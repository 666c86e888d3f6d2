import Foundation
import OfflineStore

/// The packs of one run of a stream's pieces (``PiecePack``), and the pieces an earlier run
/// left in them that this run keeps without a request.
///
/// A piece in a pack is kept when its record is `complete`, was written in this boot (the
/// pieces of a stream are not synced one by one, as their files are not: see
/// ``Transfer/Configuration/syncsEachFile``), and claims a region inside the pack as it is
/// now. Each pack is then cut after the last region a kept record claims, when this run
/// first writes to it: what follows was written without a record, or under records this
/// run does not trust.
struct PiecePacks: Sendable {
  /// The packs the pieces may go into, by absolute path.
  let packs: [String: PiecePack]
  /// The kept pieces' records, by destination.
  let kept: [String: TransferRecord]

  /// Where `piece`, whose file would be `destination`, is in its pack when an earlier run
  /// left it there and this run keeps it; nil otherwise (not in a pack, or not kept).
  func keptRegion(of piece: StreamPiece, at destination: String) -> PieceRunner.PackedPiece? {
    guard let pack = piece.pack, let record = kept[destination],
      let length = record.totalLength, let region = record.pack
    else { return nil }
    return PieceRunner.PackedPiece(pack: pack, offset: region.offset, length: length)
  }
  /// Whether a pack holds bytes past its kept regions, which the run's first write into it
  /// cuts: regions the offline playlists of an earlier run may address (a complete stream
  /// downloaded again in another boot, whose records this run does not trust).
  let cutsRegions: Bool

  /// The packs of `pieces` (their ``StreamPiece/pack``, inside `folder`), given the
  /// journal's `records` of the folder (by destination) when the run begins.
  init(
    pieces: [StreamPiece], folder: URL, records: [String: TransferRecord],
    bootID: String? = BootIdentity.current
  ) {
    var paths = Set<String>()
    for piece in pieces {
      if let pack = piece.pack { paths.insert(folder.appending(path: pack).path) }
    }
    var sizes: [String: Int64] = [:]
    var kept: [String: TransferRecord] = [:]
    var keeping: [String: Int64] = [:]
    for record in records.values {
      guard let pack = record.pack, paths.contains(pack.path), record.phase == .complete,
        let bootID, record.bootID == bootID, let length = record.totalLength
      else { continue }
      if sizes[pack.path] == nil { sizes[pack.path] = FileSteps.regularFileSize(pack.path) ?? 0 }
      let end = pack.offset + length
      guard end <= sizes[pack.path]! else { continue }
      kept[record.destination] = record
      keeping[pack.path] = max(keeping[pack.path] ?? 0, end)
    }
    var packs: [String: PiecePack] = [:]
    var cuts = false
    for path in paths {
      let keep = keeping[path] ?? 0
      packs[path] = PiecePack(path: path, keeping: keep)
      cuts = cuts || (sizes[path] ?? FileSteps.regularFileSize(path) ?? 0) > keep
    }
    self.packs = packs
    self.kept = kept
    self.cutsRegions = cuts
  }
}
