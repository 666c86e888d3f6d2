import HLSPlaylist
import HexDigits

/// The offline playlist of a live recording (`index.m3u8`), made from its state: an
/// `EVENT` playlist that grows while it records, and a `VOD` one with `EXT-X-ENDLIST` once it
/// finished. Each segment's init section (`EXT-X-MAP`) and AES-128 key are the local copies,
/// the key's IV written out; an encrypted init section keeps its own key and IV, written
/// before its `EXT-X-MAP` (RFC 8216 §4.3.2.5).
///
/// It lists the recorded segments up to the first number still being fetched, so it only
/// ever grows at its end and a player reloading it never sees a segment vanish. A gap of the
/// ledger is marked with `EXT-X-DISCONTINUITY` before the segment after it, and the gap's
/// segments are left out; so is a change of the live playlist's discontinuity sequence.
///
/// Why not `EXT-X-GAP`: ffmpeg 5.1 (libavformat 59) and mpv 0.35, which plays through it,
/// do not know the tag (it is not in RFC 8216, only in its successor draft): they try to
/// open the gap's URI ("Failed to open segment") and play on. A discontinuity alone, the
/// missing segments left out, decodes without a message at the error level in both, and is
/// what RFC 8216 §4.3.2.3 asks for when timestamps jump.
enum LiveOfflinePlaylist {
  /// The playlist's text for `state`.
  static func text(_ state: LiveRecordState) -> String {
    PlaylistWriter.write(.media(playlist(state)))
  }

  /// The playlist for `state`.
  static func playlist(_ state: LiveRecordState) -> MediaPlaylist {
    let journal = state.journal
    let limit = journal.asked.keys.min() ?? Int.max
    var segments: [Segment] = []
    var previous: (sequence: Int, discontinuity: Int)?
    for run in journal.recorded.runs {
      for sequence in run where sequence < limit {
        guard let entry = state.entries[sequence] else { continue }
        var segment = Segment(uri: entry.local, duration: entry.duration)
        segment.mediaSequenceNumber = segments.count
        segment.map = entry.map.map { map in
          // An encrypted section keeps its key and IV: the writer puts them before the MAP.
          let keys = entry.mapKey.map { key in
            [
              Key(
                method: .aes128, uri: key,
                iv: entry.mapIV.flatMap { ASCIIHex.bytes(Array($0.utf8)) })
            ]
          }
          return MapSection(uri: map, keys: keys ?? [])
        }
        if let key = entry.key {
          // The IV written out: the offline playlist numbers its segments from 0.
          segment.key = Key(
            method: .aes128, uri: key, iv: entry.iv.flatMap { ASCIIHex.bytes(Array($0.utf8)) })
        }
        if let previous {
          segment.discontinuity =
            previous.sequence + 1 != sequence
            || previous.discontinuity != entry.discontinuitySequence
        }
        segments.append(segment)
        previous = (sequence, entry.discontinuitySequence)
      }
    }
    let longest = segments.map(\.duration).max() ?? Double(journal.targetDuration ?? 1)
    let finished = state.finished != nil
    // EXT-X-MAP in a playlist without I-frames only needs version 6 (RFC 8216 §7).
    let version = segments.contains { $0.map != nil } ? 6 : 3
    return MediaPlaylist(
      version: version, targetDuration: max(journal.targetDuration ?? 1, Int(longest.rounded(.up))),
      playlistType: finished ? .vod : .event, hasEndList: finished, segments: segments)
  }
}
