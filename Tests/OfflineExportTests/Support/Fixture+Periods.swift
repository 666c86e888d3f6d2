import Foundation

extension Fixture {
  /// Makes an offline DASH copy with two Periods of `seconds` each: two encodings made by
  /// ffmpeg's DASH muxer apart (another picture, tone and H.264 parameter sets), each
  /// Period's timestamps starting again at zero, joined into `index.mpd` the way the
  /// downloader writes one (relative segment names, no `BaseURL`). The encodings' own MPDs stay
  /// beside it as `a.mpd` and `b.mpd`, the origin each Period is compared with.
  static func makeTwoPeriodDASH(seconds: Int = 4, in root: URL) throws -> Fixture {
    let folder = root.appendingPathComponent("periods")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var bodies: [String] = []
    // The second encoding with CABAC and B-frames (the first has neither): its parameter sets
    // differ in what decoding needs, not only in what it may ignore.
    for (name, pattern, tone, preset) in [
      ("a", "testsrc", 440, "ultrafast"), ("b", "smptebars", 880, "veryfast"),
    ] {
      try Tool.run(
        "ffmpeg",
        [
          "-v", "error", "-f", "lavfi", "-i", "\(pattern)=size=160x120:rate=25", "-f", "lavfi",
          "-i", "sine=frequency=\(tone):sample_rate=48000", "-t", "\(seconds)", "-c:v",
          "libx264", "-preset", preset, "-g", "25", "-c:a", "aac", "-b:a", "32k", "-f",
          "dash", "-seg_duration", "2", "-use_template", "1", "-use_timeline", "1",
          "-init_seg_name", "\(name)-init-$RepresentationID$.$ext$", "-media_seg_name",
          "\(name)-chunk-$RepresentationID$-$Number%05d$.$ext$", "\(name).mpd",
        ], in: folder)
      let text = try String(
        contentsOf: folder.appendingPathComponent("\(name).mpd"), encoding: .utf8)
      guard let open = text.range(of: "<Period"),
        let head = text[open.upperBound...].range(
          of: ">"), let close = text.range(of: "</Period>")
      else { throw Tool.Failure(command: "ffmpeg -f dash", status: 0, errorOutput: text) }
      bodies.append(String(text[head.upperBound..<close.lowerBound]))
    }
    let first = try String(contentsOf: folder.appendingPathComponent("a.mpd"), encoding: .utf8)
    let open = first.range(of: "<Period")!.lowerBound
    let close = first.range(of: "</Period>")!.upperBound
    let periods =
      "<Period id=\"first\" start=\"PT0S\" duration=\"PT\(seconds)S\">\(bodies[0])</Period>\n"
      + "\t<Period id=\"second\" start=\"PT\(seconds)S\">\(bodies[1])</Period>"
    let joined = first.replacingCharacters(in: open..<close, with: periods)
      .replacingOccurrences(
        of: "mediaPresentationDuration=\"PT\(seconds).0S\"",
        with: "mediaPresentationDuration=\"PT\(2 * seconds).0S\"")
    try joined.write(
      to: folder.appendingPathComponent("index.mpd"), atomically: true, encoding: .utf8)
    return Fixture(folder: folder)
  }
}
