import DASHManifest

/// What an AdaptationSet carries, read from `@contentType`, else the `@mimeType` of the set
/// or of its first Representation, else its codecs (ISO/IEC 23009-1 §5.3.3.2).
enum DASHTrack: String, Sendable, Equatable {
  case video
  case audio
  /// Subtitles and captions: `text`, `text/vtt`, TTML, and `application/mp4` with `wvtt` or
  /// `stpp` codecs.
  case text
  /// Something else (`image` thumbnails, an unknown type): never downloaded.
  case other

  /// The kind of `set`.
  init(_ set: AdaptationSet) {
    let first = set.representations.first?.common.inheriting(from: set.common) ?? set.common
    let type = (set.contentType ?? "").lowercased()
    let mime = (first.mimeType ?? "").lowercased()
    let codecs = (first.codecs ?? "").lowercased()
    if ["video", "audio", "text"].contains(type) {
      self.init(rawValue: type)!
    } else if mime.hasPrefix("video/") {
      self = .video
    } else if mime.hasPrefix("audio/") {
      self = .audio
    } else if mime.hasPrefix("text/") || mime.contains("ttml") || codecs.hasPrefix("wvtt")
      || codecs.hasPrefix("stpp")
    {
      self = .text
    } else if codecs.hasPrefix("avc") || codecs.hasPrefix("hvc") || codecs.hasPrefix("hev")
      || codecs.hasPrefix("av01") || codecs.hasPrefix("vp")
    {
      self = .video
    } else if codecs.hasPrefix("mp4a") || codecs.hasPrefix("ac-3") || codecs.hasPrefix("ec-3")
      || codecs.hasPrefix("opus")
    {
      self = .audio
    } else {
      self = .other
    }
  }
}
