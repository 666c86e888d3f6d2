import Foundation
import HLSPlaylist

/// Points the offline media playlists at the packs (``PiecePack``): a segment whose piece
/// went into a pack gets the pack's name and its region as `EXT-X-BYTERANGE:length@offset`,
/// with the offset always written (RFC 8216, 4.3.2.2). The regions are known only once the
/// pieces are written (they finish in any order), so this runs between the pieces and the
/// playlists, which are written last.
enum HLSPackAddressing {
  /// `plan` with its media playlists (and the index, when it is the one media playlist)
  /// addressing the `packed` pieces (by ``StreamPiece/local``) in their packs; every other
  /// segment keeps its file.
  static func addressing(
    _ plan: HLSPlan, packed: [String: PieceRunner.PackedPiece]
  ) -> HLSPlan {
    guard !packed.isEmpty else { return plan }
    var plan = plan
    for media in plan.mediaFiles.indices {
      let folder = (plan.mediaFiles[media].local as NSString).deletingLastPathComponent
      var playlist = plan.mediaFiles[media].playlist
      var addressed = false
      for index in playlist.segments.indices where playlist.segments[index].byteRange == nil {
        let uri = playlist.segments[index].uri
        guard let piece = packed[folder.isEmpty ? uri : "\(folder)/\(uri)"] else { continue }
        playlist.segments[index].uri = (piece.pack as NSString).lastPathComponent
        playlist.segments[index].byteRange = ByteRange(length: piece.length, offset: piece.offset)
        addressed = true
      }
      // EXT-X-BYTERANGE needs protocol version 4 (RFC 8216, 7).
      if addressed { playlist.version = max(playlist.version ?? 1, 4) }
      plan.mediaFiles[media].playlist = playlist
    }
    if case .media = plan.index, let only = plan.mediaFiles.first {
      plan.index = .media(only.playlist)
    }
    if case .media = plan.indexWithRemote, let only = plan.mediaFiles.first {
      plan.indexWithRemote = .media(only.playlist)
    }
    return plan
  }
}
