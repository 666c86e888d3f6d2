/// Tags a playlist may carry only once, and the lines where the parser first saw them.
///
/// RFC 8216 §4.3.1.2 (`EXT-X-VERSION`), §4.3.3 ("There MUST NOT be more than one Media
/// Playlist tag of each type") and §4.3.5 (`EXT-X-INDEPENDENT-SEGMENTS`, `EXT-X-START`);
/// RFC 8216bis §4.4.3 adds `EXT-X-PART-INF` and `EXT-X-SERVER-CONTROL`, and §4.4.5.2
/// `EXT-X-SKIP`. A second one is an error rather than "the last one wins", so no value is
/// silently replaced.
struct SingleTags {
  /// The tags a media playlist may carry once.
  static let media: Set<Substring> = [
    "EXT-X-VERSION", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE",
    "EXT-X-DISCONTINUITY-SEQUENCE", "EXT-X-PLAYLIST-TYPE", "EXT-X-ENDLIST",
    "EXT-X-I-FRAMES-ONLY", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-PART-INF",
    "EXT-X-SERVER-CONTROL", "EXT-X-SKIP",
  ]
  /// The tags a multivariant playlist may carry once.
  static let master: Set<Substring> = [
    "EXT-X-VERSION", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-CONTENT-STEERING",
  ]

  private let names: Set<Substring>
  private var firstLines: [Substring: Int] = [:]

  /// Checks the tags in `names`.
  init(_ names: Set<Substring>) {
    self.names = names
  }

  /// Records tag `name` on `line`.
  ///
  /// - Throws: `PlaylistError` on `line` when `name` may appear once and was seen before.
  mutating func note(_ name: Substring, line: Int) throws(PlaylistError) {
    guard names.contains(name) else { return }
    if let first = firstLines[name] {
      throw PlaylistError(
        line: line,
        message: "\(name) appears a second time (first on line \(first)); "
          + "a playlist may carry it only once.")
    }
    firstLines[name] = line
  }
}
