import Foundation

extension LiveOrigin {
  /// The text of the live media playlist listing `sequences` (in the window), with
  /// `EXT-X-ENDLIST` when `ended`: version 3, target duration 1 s, MPEG-TS segments named
  /// by their media-sequence number.
  static func playlist(
    _ sequences: ClosedRange<Int>, durations: [Double], first: Int, ended: Bool
  ) -> String {
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1",
      "#EXT-X-MEDIA-SEQUENCE:\(sequences.lowerBound)",
    ]
    for sequence in sequences {
      let duration = durations[sequence - first]
      lines.append("#EXTINF:" + String(format: "%.6f", duration) + ",")
      lines.append(segmentPath(sequence).dropFirst().description)
    }
    if ended { lines.append("#EXT-X-ENDLIST") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The path of segment `sequence` on the origin, such as `/seg105.ts`.
  public static func segmentPath(_ sequence: Int) -> String { "/seg\(sequence).ts" }

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
