/// The media type of an offline file, from its name, as players expect it.
enum MediaType {
  /// The `Content-Type` for `name` (in `keys/` a stream key, whatever its extension).
  static func of(_ name: String, inKeysFolder: Bool = false) -> String {
    if inKeysFolder { return "application/octet-stream" }
    let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "m3u8", "m3u": return "application/vnd.apple.mpegurl"
    case "ts": return "video/mp2t"
    case "mp4", "m4v": return "video/mp4"
    case "m4s": return "video/iso.segment"
    case "m4a": return "audio/mp4"
    case "aac": return "audio/aac"
    case "mp3": return "audio/mpeg"
    case "webm": return "video/webm"
    case "mkv": return "video/x-matroska"
    case "vtt", "webvtt": return "text/vtt; charset=utf-8"
    case "mpd": return "application/dash+xml"
    case "json": return "application/json"
    case "txt": return "text/plain; charset=utf-8"
    case "html", "htm": return "text/html; charset=utf-8"
    case "jpg", "jpeg": return "image/jpeg"
    case "png": return "image/png"
    case "pdf": return "application/pdf"
    case "zip": return "application/zip"
    default: return "application/octet-stream"
    }
  }
}
