import Foundation
import HLSPlaylist

extension HLSPlanner {
  /// The URLs of segment `index` of `media` in each of `alternates` (its backups), found by
  /// media sequence number: the same segment whichever playlist lists it (RFC 8216 §6.2.3).
  /// `uri` picks what to fetch from the alternate's segment (its URI, or its `EXT-X-MAP`'s),
  /// nil when there is nothing to take. Only clear segments fetched whole have alternates:
  /// an encrypted one might be under another key there, and byte ranges are merged per file.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) for an alternate URI that is not http(s).
  static func alternates(
    of media: MediaPlaylist, at index: Int, in alternates: [Alternate],
    _ uri: (Segment) -> String?
  ) throws(Transfer.Error) -> [URL] {
    let segment = media.segments[index]
    guard !alternates.isEmpty, segment.keys.isEmpty, segment.byteRange == nil else { return [] }
    let number = media.mediaSequence + index
    var urls: [URL] = []
    for alternate in alternates {
      let other = number - alternate.playlist.mediaSequence
      guard alternate.playlist.segments.indices.contains(other) else { continue }
      let found = alternate.playlist.segments[other]
      guard found.keys.isEmpty, found.byteRange == nil, let text = uri(found) else { continue }
      urls.append(try HLSURI.resolve(text, against: alternate.url, what: "backup segment"))
    }
    return urls
  }
}
