import Foundation
import HLSPlaylist

extension HLSPlanner {
  /// The URLs of segment `index` of `media` in each of `alternates` (its backups), found by
  /// media sequence number: the same segment whichever playlist lists it (RFC 8216 §6.2.3).
  /// `uri` picks what to fetch from the alternate's segment (its URI, or its `EXT-X-MAP`'s),
  /// nil when there is nothing to take. An alternate's segment stands in only when it is
  /// cut and encrypted the same way: the same byte range (a merged piece asks the same
  /// range there) and keys of the same method, IV and format (a backup is a copy of the
  /// stream, its keys the same keys at its own URIs: see ``keyAlternates(of:at:in:)``).
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) for an alternate URI that is not http(s).
  static func alternates(
    of media: MediaPlaylist, at index: Int, in alternates: [Alternate],
    _ uri: (Segment) -> String?
  ) throws(Transfer.Error) -> [URL] {
    let segment = media.segments[index]
    guard !alternates.isEmpty else { return [] }
    var urls: [URL] = []
    for alternate in alternates {
      guard let found = counterpart(of: media, at: index, in: alternate),
        found.byteRange == segment.byteRange, sameEncryption(segment.keys, found.keys),
        let text = uri(found)
      else { continue }
      urls.append(try HLSURI.resolve(text, against: alternate.url, what: "backup segment"))
    }
    return urls
  }

  /// The URLs of the keys of segment `index` of `media` in each of `alternates`, by key:
  /// where a key that does not answer is asked next. Empty lists when the segment is clear.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) for an alternate URI that is not http(s).
  static func keyAlternates(of media: MediaPlaylist, at index: Int, in alternates: [Alternate])
    throws(Transfer.Error) -> [[URL]]
  {
    let keys = media.segments[index].keys
    var result = Array(repeating: [URL](), count: keys.count)
    for alternate in alternates {
      guard let found = counterpart(of: media, at: index, in: alternate),
        sameEncryption(keys, found.keys)
      else { continue }
      for (position, key) in found.keys.enumerated() {
        guard let text = key.uri else { continue }
        let url = try HLSURI.resolve(text, against: alternate.url, what: "backup key")
        if !result[position].contains(url) { result[position].append(url) }
      }
    }
    return result
  }

  /// The segment of `alternate` with the media sequence number of segment `index` of
  /// `media`; nil when it has none.
  private static func counterpart(of media: MediaPlaylist, at index: Int, in alternate: Alternate)
    -> Segment?
  {
    let other = media.mediaSequence + index - alternate.playlist.mediaSequence
    guard alternate.playlist.segments.indices.contains(other) else { return nil }
    return alternate.playlist.segments[other]
  }

  /// Whether `a` and `b` encrypt alike: as many keys, each of the same method, IV and
  /// format (their URIs may differ).
  private static func sameEncryption(_ a: [Key], _ b: [Key]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy {
        $0.method == $1.method && $0.iv == $1.iv && $0.keyFormat == $1.keyFormat
          && $0.keyFormatVersions == $1.keyFormatVersions
      }
  }
}
