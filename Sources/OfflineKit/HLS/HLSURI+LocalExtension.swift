import Foundation

/// The extension of a segment's or init section's local name: the remote one when stock
/// players open it, else the one the format calls for.
///
/// ffmpeg 5.1 as Debian 12 ships it (and mpv, which uses its HLS demuxer) opens a local
/// segment only when the text after the last dot of its name is in
/// `allowed_segment_extensions`, and then checks that it fits the format it finds
/// (`extension_picky`): MPEG-TS named `.bin`, `.php` or nothing is refused, and so is fMP4
/// named `.m4v`. Segments are MPEG-TS unless an `EXT-X-MAP` makes them fragmented MP4
/// (RFC 8216 §3), and a subtitle rendition's are WebVTT, so those are the names given when
/// the remote one would not open.
extension HLSURI {
  /// Extensions of media segments kept as the server gave them.
  static let segmentExtensions: Set<String> = [
    "ts", "mpegts", "m4s", "mp4", "cmfv", "cmfa", "m4a", "aac", "ac3", "ec3", "eac3", "mp3",
    "vtt", "webvtt",
  ]
  /// Extensions of init sections kept as the server gave them.
  static let initSectionExtensions: Set<String> = [
    "mp4", "m4s", "m4a", "m4v", "mov", "cmfv", "cmfa", "3gp",
  ]

  /// The local extension of a media segment from `url`: its own when in
  /// ``segmentExtensions``, else `vtt` in a subtitle rendition, `m4s` for fragmented MP4
  /// (the segment has an `EXT-X-MAP`), `ts` otherwise.
  static func segmentExtension(of url: URL, fragmented: Bool, subtitles: Bool) -> String {
    let ext = url.pathExtension.lowercased()
    if segmentExtensions.contains(ext) { return ext }
    return subtitles ? "vtt" : fragmented ? "m4s" : "ts"
  }

  /// The local extension of an init section from `url`: its own when in
  /// ``initSectionExtensions``, else `mp4`.
  static func initSectionExtension(of url: URL) -> String {
    let ext = url.pathExtension.lowercased()
    return initSectionExtensions.contains(ext) ? ext : "mp4"
  }
}
