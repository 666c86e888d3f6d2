/// Reads the cues of one WebVTT segment of an HLS subtitle rendition, with their times moved
/// onto the media timeline by the segment's `X-TIMESTAMP-MAP`
/// ([RFC 8216, section 3.5](https://www.rfc-editor.org/rfc/rfc8216#section-3.5)):
/// `MPEGTS` (90 kHz) is the media time of the cue time `LOCAL`. Without the header a cue
/// time counts from the presentation's start (``WebVTTCue/isOnMediaTimeline`` false). `NOTE`, `STYLE` and `REGION` blocks are skipped; a cue's settings
/// (position, alignment) are dropped.
enum WebVTTSegment {
  /// The cues of `text`, in the segment's order; empty when it is not WebVTT.
  static func cues(in text: String) -> [WebVTTCue] {
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
      .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    guard let first = lines.first, first.hasPrefix("WEBVTT") || first.hasPrefix("\u{FEFF}WEBVTT")
    else { return [] }
    var offset = 0.0
    var isMapped = false
    var cues: [WebVTTCue] = []
    var index = 1
    // The header runs to the first blank line.
    while index < lines.count, !lines[index].isEmpty {
      if lines[index].hasPrefix("X-TIMESTAMP-MAP=") {
        offset = timestampOffset(lines[index])
        isMapped = true
      }
      index += 1
    }
    while index < lines.count {
      // One block: the lines up to the next blank line.
      var block: [String] = []
      while index < lines.count, !lines[index].isEmpty {
        block.append(lines[index])
        index += 1
      }
      index += 1
      guard let timing = block.firstIndex(where: { $0.contains("-->") }), timing <= 1,
        let (start, end) = times(block[timing])
      else { continue }
      let text = block[(timing + 1)...].joined(separator: "\n")
      cues.append(
        WebVTTCue(
          start: start + offset, end: end + offset, text: text, isOnMediaTimeline: isMapped))
    }
    return cues
  }

  /// `X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000`: the seconds to add to a cue time.
  static func timestampOffset(_ line: String) -> Double {
    var mpegts = 0.0
    var local = 0.0
    for field in line.dropFirst("X-TIMESTAMP-MAP=".count).split(separator: ",") {
      let parts = field.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "MPEGTS": mpegts = (Double(parts[1]) ?? 0) / 90_000
      case "LOCAL": local = seconds(String(parts[1])) ?? 0
      default: break
      }
    }
    return mpegts - local
  }

  /// The start and end of a timing line, `00:00:01.000 --> 00:00:02.500 align:start`.
  static func times(_ line: String) -> (Double, Double)? {
    let words = line.split(separator: " ", omittingEmptySubsequences: true)
    guard words.count >= 3, words[1] == "-->", let start = seconds(String(words[0])),
      let end = seconds(String(words[2])), end >= start
    else { return nil }
    return (start, end)
  }

  /// `HH:MM:SS.mmm` or `MM:SS.mmm` in seconds.
  static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    guard (2...3).contains(parts.count), let last = Double(parts[parts.count - 1]) else {
      return nil
    }
    var total = last
    var scale = 60.0
    for part in parts.dropLast().reversed() {
      guard let value = Double(part) else { return nil }
      total += value * scale
      scale *= 60
    }
    return total
  }
}
