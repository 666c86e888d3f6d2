/// The media type of an offline file, from its name, as players expect it.
enum MediaType {
  /// The `Content-Type` of a file a player or the web page plays (a playlist, a manifest, a
  /// segment, an init section, a subtitle track, a whole video or audio file), or nil for
  /// anything else: such a file is served as a download, never as something a browser runs
  /// (see ``ContentHeaders``).
  static func playable(_ name: String) -> String? {
    let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "m3u8", "m3u": return "application/vnd.apple.mpegurl"
    case "mpd": return "application/dash+xml"
    case "ts", "mpegts": return "video/mp2t"
    case "mp4", "m4v", "cmfv", "fmp4": return "video/mp4"
    case "m4s": return "video/iso.segment"
    case "m4a", "cmfa": return "audio/mp4"
    case "aac": return "audio/aac"
    case "mp3": return "audio/mpeg"
    case "ac3": return "audio/ac3"
    case "ec3", "eac3": return "audio/eac3"
    case "webm": return "video/webm"
    case "mkv": return "video/x-matroska"
    case "mov": return "video/quicktime"
    case "3gp": return "video/3gpp"
    case "ogg", "oga": return "audio/ogg"
    case "ogv": return "video/ogg"
    case "vtt", "webvtt": return "text/vtt; charset=utf-8"
    default: return nil
    }
  }
}
