import Foundation

/// A kind of MPEG-DASH presentation made with ffmpeg's DASH muxer from its built-in test
/// sources (`testsrc2`, `sine`): 4 seconds of 160x90 H.264 at 25 fps and mono AAC at 48 kHz,
/// cut every 2 seconds, a few hundred kilobytes, made in about a second. Every manifest is
/// `static` with relative URLs only, at `/manifest.mpd` in the folder.
///
/// ```swift
/// let root = try TemporaryDirectory()
/// let files = try await DASHStreamFixture.timeline.make(in: root.url)
/// let nginx = try NginxServer(root: files.folder)
/// try nginx.start()
/// let mpd = files.url(on: nginx)
/// ```
public enum DASHStreamFixture: String, CaseIterable, Sendable {
  /// `SegmentTemplate` with a `SegmentTimeline` (`-use_template 1 -use_timeline 1`): a video
  /// AdaptationSet with two Representations (160x90, about 300 kb/s, and 96x54, about
  /// 100 kb/s) and one English audio AdaptationSet.
  case timeline
  /// `SegmentTemplate` with `$Number$` and `@duration` only (`-use_timeline 0`): one video
  /// and one audio Representation.
  case number
  /// One file per Representation with one `sidx` box (`-single_file 1 -global_sidx 1`),
  /// described by a hand-written `SegmentBase` with `indexRange` and `Initialization`
  /// (ffmpeg's own manifest for it, a `SegmentList` of byte ranges, is kept as
  /// `ffmpeg.mpd`).
  case segmentBase
  /// The timeline media with audio in English (`eng`, `Role` main) and French (`fra`), and a
  /// hand-written English WebVTT text AdaptationSet (`subs-en.vtt`, one file).
  case languages
  /// The timeline media twice, in two Periods of 4 s written by hand (`first`, `second`).
  case twoPeriods
  /// 30 seconds cut every second (`-use_template 1 -use_timeline 1`), one video (640x360 at
  /// about 2 Mbit/s, so a segment is about 250 KB) and one audio Representation: 60
  /// segments, about 8 MB, for kills in the middle of a download from a rate-limited origin.
  case long
  /// 12 seconds cut every second with `$Number$` (`-use_timeline 0`), one video (160x90,
  /// about 35 KB a segment) and one audio Representation: 26 pieces, small and quick to
  /// make, so a download from a rate-limited origin is still under way after its first few.
  case manySegments
  /// ``manySegments`` for 40 seconds: 40 segments of each stream, for a live origin that
  /// runs long enough to be killed and resumed several times.
  case fortySegments

  /// The source's duration in seconds: 4, 30 for ``long``, 12 for ``manySegments``, 40 for
  /// ``fortySegments``.
  public var duration: Double {
    switch self {
    case .long: 30
    case .manySegments: 12
    case .fortySegments: 40
    default: 4
    }
  }

  /// Makes the fixture and copies it into `folder`, which is created if needed.
  ///
  /// The first call for a kind encodes into a cache directory shared by the process (with
  /// the HLS fixtures); later calls only copy from there. The files are copies: a test may
  /// damage its own.
  ///
  /// - Returns: The folder, the manifest's path (`/manifest.mpd`) and the duration.
  /// - Throws: `TestSupportError.processFailed` when ffmpeg fails, or the file manager's error.
  public func make(in folder: URL) async throws -> HLSFixtureFiles {
    let built = try await HLSFixtureCache.shared.product(for: "dash-\(rawValue)") { staging in
      try await build(in: staging)
      return HLSFixture.Product(entry: "manifest.mpd")
    }
    try HLSFixtureCache.copyContents(of: built.folder, into: folder)
    return HLSFixtureFiles(
      folder: folder, entryPath: "/manifest.mpd", duration: duration, keys: [])
  }

  private func build(in folder: URL) async throws {
    let manifest = folder.appendingPathComponent("manifest.mpd")
    switch self {
    case .timeline:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "1"], videos: 2,
        languages: ["eng"])
    case .number:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "0"], videos: 1,
        languages: [])
    case .segmentBase:
      try await Self.encode(
        into: folder, options: ["-single_file", "1", "-global_sidx", "1"], videos: 1,
        languages: [])
      try FileManager.default.moveItem(
        at: manifest, to: folder.appendingPathComponent("ffmpeg.mpd"))
      try Self.segmentBaseManifest(in: folder).write(
        to: manifest, atomically: true, encoding: .utf8)
    case .languages:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "1"], videos: 1,
        languages: ["eng", "fra"])
      try Self.webVTT.write(
        to: folder.appendingPathComponent("subs-en.vtt"), atomically: true, encoding: .utf8)
      var text = try String(contentsOf: manifest, encoding: .utf8)
      text = text.replacingOccurrences(
        of: "lang=\"eng\">",
        with: "lang=\"eng\">\n\t\t\t<Role schemeIdUri=\"urn:mpeg:dash:role:2011\" value=\"main\" />"
      )
      text = text.replacingOccurrences(
        of: "\t</Period>",
        with: """
          \t\t<AdaptationSet id="9" contentType="text" mimeType="text/vtt" lang="en">
          \t\t\t<Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle" />
          \t\t\t<Representation id="sub-en" bandwidth="256"><BaseURL>subs-en.vtt</BaseURL></Representation>
          \t\t</AdaptationSet>
          \t</Period>
          """)
      try text.write(to: manifest, atomically: true, encoding: .utf8)
    case .long:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "1"], videos: 1,
        languages: [], duration: 30, segmentDuration: 1, size: "640x360", videoBitrate: "2M")
    case .manySegments:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "0"], videos: 1,
        languages: [], duration: 12, segmentDuration: 1)
    case .fortySegments:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "0"], videos: 1,
        languages: [], duration: 40, segmentDuration: 1)
    case .twoPeriods:
      try await Self.encode(
        into: folder, options: ["-use_template", "1", "-use_timeline", "1"], videos: 1,
        languages: [])
      try Self.repeatPeriod(of: manifest, seconds: 4)
    }
  }

  /// Rewrites ffmpeg's one-Period manifest at `manifest` as two Periods over the same media,
  /// `first` (with a duration of `seconds`) and `second`, for a presentation of twice that.
  static func repeatPeriod(of manifest: URL, seconds: Int) throws {
    let text = try String(contentsOf: manifest, encoding: .utf8)
    guard let open = text.range(of: "<Period"), let close = text.range(of: "</Period>") else {
      throw TestSupportError.unexpectedOutput(command: "ffmpeg -f dash", output: text)
    }
    let body = text[open.lowerBound..<close.upperBound]
    guard let head = body.range(of: ">") else {
      throw TestSupportError.unexpectedOutput(command: "ffmpeg -f dash", output: text)
    }
    let inner = body[head.upperBound...]
    let periods =
      "<Period id=\"first\" duration=\"PT\(seconds)S\">" + inner + "\n\t<Period id=\"second\">"
      + inner
    var result = text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: periods)
    result = result.replacingOccurrences(
      of: "mediaPresentationDuration=\"PT\(seconds).0S\"",
      with: "mediaPresentationDuration=\"PT\(2 * seconds)S\"")
    try result.write(to: manifest, atomically: true, encoding: .utf8)
  }

  /// The subtitles of ``languages``: two cues.
  static let webVTT = """
    WEBVTT

    00:00:00.000 --> 00:00:01.500
    Hello

    00:00:02.000 --> 00:00:03.500
    World

    """

  /// Runs ffmpeg's DASH muxer into `folder/manifest.mpd` with `videos` video Representations
  /// in one AdaptationSet and one audio AdaptationSet per language (one without a language
  /// when `languages` is empty).
  static func encode(
    into folder: URL, options: [String], videos: Int, languages: [String],
    duration: Int = 4, segmentDuration: Int = 2, size: String = "160x90",
    videoBitrate: String? = nil, frameRate: Int = 25
  ) async throws {
    let audios = max(1, languages.count)
    var arguments = [
      "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(frameRate):duration=\(duration)",
    ]
    for index in 0..<audios {
      arguments += [
        "-f", "lavfi", "-i",
        "sine=frequency=\(440 + 220 * index):sample_rate=48000:duration=\(duration)",
      ]
    }
    for _ in 0..<videos { arguments += ["-map", "0:v"] }
    for index in 0..<audios { arguments += ["-map", "\(index + 1):a"] }
    arguments += [
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
      "-force_key_frames", "expr:gte(t,n_forced*\(segmentDuration))", "-sc_threshold", "0",
      "-c:a", "aac", "-b:a", "64k",
    ]
    if let videoBitrate {
      arguments += ["-b:v", videoBitrate, "-maxrate", videoBitrate, "-bufsize", videoBitrate]
    }
    if videos > 1 {
      arguments += ["-b:v:0", "300k", "-b:v:1", "100k", "-s:v:1", "96x54"]
    }
    for (index, language) in languages.enumerated() {
      arguments += ["-metadata:s:a:\(index)", "language=\(language)"]
    }
    var sets = "id=0,streams=" + (0..<videos).map(String.init).joined(separator: ",")
    for index in 0..<audios { sets += " id=\(index + 1),streams=\(videos + index)" }
    arguments +=
      ["-f", "dash", "-seg_duration", "\(segmentDuration)", "-adaptation_sets", sets] + options
    arguments.append(folder.appendingPathComponent("manifest.mpd").path)
    try await FFmpeg.checked(arguments)
  }

  /// A manifest with one `SegmentBase` Representation per file ffmpeg wrote, its
  /// `indexRange` the file's `sidx` box and its `Initialization` the bytes before it.
  static func segmentBaseManifest(in folder: URL, seconds: Int = 4) throws -> String {
    var text = """
      <?xml version="1.0" encoding="utf-8"?>
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT\(seconds)S"
        profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" minBufferTime="PT2S">
        <Period>

      """
    for (index, kind) in ["video", "audio"].enumerated() {
      let name = "manifest-stream\(index).mp4"
      let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
      guard let sidx = box("sidx", in: bytes) else {
        throw TestSupportError.unexpectedOutput(command: "ffmpeg -global_sidx 1", output: name)
      }
      let codecs = index == 0 ? "avc1.42c00b" : "mp4a.40.2"
      text += """
            <AdaptationSet contentType="\(kind)" mimeType="\(kind)/mp4">
              <Representation id="\(index)" bandwidth="\(index == 0 ? 300000 : 64000)" codecs="\(codecs)">
                <BaseURL>\(name)</BaseURL>
                <SegmentBase indexRange="\(sidx.offset)-\(sidx.offset + sidx.size - 1)">
                  <Initialization range="0-\(sidx.offset - 1)"/>
                </SegmentBase>
              </Representation>
            </AdaptationSet>

        """
    }
    return text + "  </Period>\n</MPD>\n"
  }

  /// The offset and size of the first top-level ISO BMFF box of `type` in `bytes`.
  public static func box(_ type: String, in bytes: [UInt8]) -> (offset: Int, size: Int)? {
    var offset = 0
    while offset + 8 <= bytes.count {
      let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
        return (offset, size)
      }
      guard size >= 8 else { return nil }
      offset += size
    }
    return nil
  }
}
