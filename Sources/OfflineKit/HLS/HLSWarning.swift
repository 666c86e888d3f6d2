import HLSPlaylist

/// Something a download could not include, and why; the download goes on without it. The
/// library reports warnings as values (a stream download's outcome); the application
/// shows them.
package enum HLSWarning: Sendable, Equatable, CustomStringConvertible {
  /// The chosen variant names an `AUDIO` or `SUBTITLES` group (RFC 8216 §4.3.4.2) that no
  /// `EXT-X-MEDIA` of that type in the master playlist belongs to, so none of its renditions
  /// could be included.
  case missingRenditionGroup(type: Rendition.MediaType, group: String)
  /// No rendition of the group has one of the languages asked for; the default one was
  /// taken instead.
  case languageNotFound(type: Rendition.MediaType, wanted: [String], taken: String?)

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

  private static func name(of type: Rendition.MediaType) -> String {
    switch type {
    case .audio: "audio"
    case .subtitles: "subtitle"
    case .video: "video"
    case .closedCaptions: "closed-caption"
    }
  }
}
