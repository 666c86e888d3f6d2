import Foundation
import HLSPlaylist

/// The cues of an HLS subtitle rendition: every WebVTT segment its media playlist lists, read
/// from the offline copy and merged into one track in time order, discontinuity domain by
/// domain. A cue that spans two segments is in both (RFC 8216 leaves it there); it is kept
/// once.
enum WebVTTRendition {
  /// The cues of the media playlist at `playlist`, on a ``CueTimeline`` that knows where each
  /// of its discontinuity domains starts.
  static func timeline(playlist: URL) throws(ExportError) -> CueTimeline {
    guard let data = FileManager.default.contents(atPath: playlist.path),
      case .media(let media)? = try? PlaylistParser.parse(String(decoding: data, as: UTF8.self))
    else { throw .notAStream(path: playlist.path) }
    let folder = playlist.deletingLastPathComponent()
    var cues: [WebVTTCue] = []
    var domains: [CueTimeline.Domain] = []
    var elapsed = 0.0
    for (index, segment) in media.segments.enumerated() {
      if index == 0 || segment.discontinuity {
        domains.append(CueTimeline.Domain(start: elapsed, firstSegment: segment.duration))
      }
      elapsed += segment.duration
      let file = URL(fileURLWithPath: segment.uri, relativeTo: folder).standardizedFileURL
      guard let bytes = FileManager.default.contents(atPath: file.path) else {
        throw .fileSystem(operation: "read", path: file.path, errno: ENOENT)
      }
      cues += WebVTTSegment.cues(in: String(decoding: bytes, as: UTF8.self)).map { cue in
        var cue = cue
        cue.domain = domains.count - 1
        return cue
      }
    }
    return CueTimeline(cues: merged(cues), domains: domains)
  }

  /// `cues` in time order within each discontinuity domain, the domains in order, each cue
  /// only once.
  static func merged(_ cues: [WebVTTCue]) -> [WebVTTCue] {
    let sorted = cues.enumerated().sorted {
      ($0.element.domain, $0.element.start, $0.element.end, $0.offset)
        < ($1.element.domain, $1.element.start, $1.element.end, $1.offset)
    }.map(\.element)
    var kept: [WebVTTCue] = []
    for cue in sorted where !kept.suffix(8).contains(where: { Self.same($0, cue) }) {
      kept.append(cue)
    }
    return kept
  }

  /// Whether two cues are one (times equal to the millisecond, the same text).
  private static func same(_ a: WebVTTCue, _ b: WebVTTCue) -> Bool {
    a.domain == b.domain && abs(a.start - b.start) < 0.0005 && abs(a.end - b.end) < 0.0005
      && a.text == b.text
  }
}
