import Foundation

extension LiveOrigin {
  /// The text of the live media playlist listing `sequences` (in the window), with
  /// `EXT-X-ENDLIST` when `ended`: target duration 1 s, segments named by their
  /// media-sequence number, `EXT-X-DISCONTINUITY` before each of `restarts` and
  /// `EXT-X-DISCONTINUITY-SEQUENCE` counting those that left the window; `EXT-X-MAP` and
  /// `EXT-X-KEY` (AES-128, the IV left to the media-sequence number) at the first segment
  /// and wherever `map` or `key` names another URI.
  static func playlist(
    _ sequences: ClosedRange<Int>, duration: (Int) -> Double, restarts: Set<Int> = [],
    map: (Int) -> String? = { _ in nil }, key: (Int) -> String? = { _ in nil },
    initKey: (uri: String, iv: String)? = nil, ended: Bool
  ) -> String {
    let fragmented = map(sequences.lowerBound) != nil
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:\(fragmented ? 7 : 3)", "#EXT-X-TARGETDURATION:1",
      "#EXT-X-MEDIA-SEQUENCE:\(sequences.lowerBound)",
    ]
    let gone = restarts.filter { $0 < sequences.lowerBound }.count
    if gone > 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(gone)") }
    var lastMap: String?
    var lastKey: String?
    for sequence in sequences {
      if restarts.contains(sequence) { lines.append("#EXT-X-DISCONTINUITY") }
      // A key applies to the init sections declared after it (RFC 8216 §4.3.2.5): a clear
      // section stands where no key is in effect, an encrypted one after its own key.
      if let uri = map(sequence), uri != lastMap {
        if let initKey {
          lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"\(initKey.uri)\",IV=\(initKey.iv)")
          lastKey = ""  // the segments' key is declared again after the section
        } else if lastKey != nil {
          lines.append("#EXT-X-KEY:METHOD=NONE")
          lastKey = nil
        }
        lines.append("#EXT-X-MAP:URI=\"\(uri)\"")
        lastMap = uri
      }
      if let uri = key(sequence), uri != lastKey {
        lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"\(uri)\"")
        lastKey = uri
      } else if key(sequence) == nil, lastKey != nil {
        lines.append("#EXT-X-KEY:METHOD=NONE")
        lastKey = nil
      }
      lines.append("#EXTINF:" + String(format: "%.6f", duration(sequence)) + ",")
      lines.append(segmentPath(sequence, fragmented: fragmented).dropFirst().description)
    }
    if ended { lines.append("#EXT-X-ENDLIST") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The path of segment `sequence` on the origin, such as `/seg105.ts` (`/seg105.m4s`
  /// when `fragmented`).
  public static func segmentPath(_ sequence: Int, fragmented: Bool = false) -> String {
    "/seg\(sequence)." + (fragmented ? "m4s" : "ts")
  }

  /// The durations of the fixture's segments and their bytes, in order.
  static func segments(in files: HLSFixtureFiles) throws -> [(duration: Double, body: Data)] {
    let listed = try HLSFixture.segments(of: files.entryFile).segments
    return try listed.map { segment in
      let seconds = Double(segment.info.dropFirst("#EXTINF:".count).prefix { $0 != "," }) ?? 1
      let body = try Data(contentsOf: files.folder.appendingPathComponent(segment.uri))
      return (seconds, body)
    }
  }
}
