/// Which files of a downloaded content `/content/<id>/…` hands out: what a player needs, and
/// none of the content's bookkeeping.
///
/// A content's folder holds, beside its media, files that are the library's own: the
/// manifest (`.manifest.json`, and its `.tmp` while it is written), an HLS stream's
/// `offline.json` (its entry URL and key URLs, which may be signed), part files of what was
/// downloading (`*.part`), their range maps (`*.part.ranges`), temporary files of atomic
/// writes (`.<name>.tmp`, `*.tmp`) and a cache's `*.fetch`. Journals, the runner's lock and
/// request secrets live outside content folders (in `index.sqlite`, `runner.lock`,
/// `secrets/`), which the route never reaches. Rather than list those names (a new one
/// would be served until someone remembered it), only what plays is served:
///
/// - the content's own file (a plain file, or a stream's `index.m3u8` or `index.mpd`);
/// - for a stream, also files whose name ends in a media extension
///   (``MediaType/playable(_:)``: playlists, segments, init sections, subtitle tracks) or a
///   key under `keys/`; a plain file's folder has nothing else to serve.
///
/// No name may start with `.`. A pure rule: the route resolves the path afterwards.
enum ServedFiles {
  /// The names of the top file of a stream, as HLS and DASH downloads write them.
  static let streamIndexNames: Set<String> = ["index.m3u8", "index.mpd"]

  /// Whether `segments` (the path inside the content's folder, decoded) may be served for a
  /// content whose own file is named `ownFile`.
  static func isServed(_ segments: [String], ownFile: String) -> Bool {
    guard let name = segments.last, segments.allSatisfy({ !$0.hasPrefix(".") }) else {
      return false
    }
    if segments == [ownFile] { return true }
    guard streamIndexNames.contains(ownFile) else { return false }
    if MediaType.playable(name) != nil { return true }
    return isKey(segments)
  }

  /// Whether `segments` names a stream's key: `keys/k0.key.ts`, or `keys/k0.key` as an earlier
  /// version named them.
  static func isKey(_ segments: [String]) -> Bool {
    segments.count == 2 && segments[0] == "keys"
      && (segments[1].hasSuffix(".key") || segments[1].hasSuffix(".key.ts"))
  }
}
