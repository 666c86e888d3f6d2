/// Something a stream's download could not include, and why; the download goes on without
/// it. The library reports warnings as values (a stream download's outcome); the
/// application shows them.
package enum StreamWarning: Sendable, Equatable, CustomStringConvertible {
  /// The kind of track a warning is about.
  public enum Track: Sendable, Equatable {
    /// Audio.
    case audio
    /// Subtitles (HLS `SUBTITLES` renditions, DASH text AdaptationSets).
    case subtitles
  }

  /// The chosen variant names an `AUDIO` or `SUBTITLES` group (RFC 8216 §4.3.4.2) that no
  /// `EXT-X-MEDIA` of that type in the master playlist belongs to, so none of its renditions
  /// could be included.
  case missingRenditionGroup(type: Track, group: String)
  /// No track of the kind has one of the languages asked for; the default one was taken
  /// instead.
  case languageNotFound(type: Track, wanted: [String], taken: String?)

  /// A sentence for people. Group names and languages are the server's text, unescaped.
  public var description: String {
    switch self {
    case .missingRenditionGroup(let type, let group):
      let kind = Self.name(of: type)
      return "no \(kind) rendition could be included: the variant names the \(kind) group"
        + " \"\(group)\", which the master playlist does not define"
    case .languageNotFound(let type, let wanted, let taken):
      let kind = Self.name(of: type)
      return "no \(kind) rendition in \(wanted.joined(separator: ", "));"
        + " took \(taken.map { "\"\($0)\"" } ?? "the default") instead"
    }
  }

  private static func name(of type: Track) -> String {
    switch type {
    case .audio: "audio"
    case .subtitles: "subtitle"
    }
  }
}
