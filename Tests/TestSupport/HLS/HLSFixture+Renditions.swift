import Foundation

/// The renditions fixture: ffmpeg writes the video and the two audio renditions; the WebVTT
/// subtitle rendition and the master playlist are written here.
extension HLSFixture {
  /// Video in `video/`, English audio (440 Hz) in `audio_en/`, French audio (660 Hz) in
  /// `audio_fr/`, English subtitles in `subs/`, and `master.m3u8` tying them together.
  func buildRenditions(in folder: URL, _ parameters: Parameters) async throws -> Product {
    // The AAC encoder adds one frame of priming; trimming one frame from the source keeps
    // the audio renditions from ending in a 21 ms segment of their own.
    let samples = Int((parameters.duration * Double(Self.sampleRate)).rounded()) - 1024
    let streams = [
      "v:0,agroup:audio,name:video",
      "a:0,agroup:audio,language:en,name:audio_en,default:yes",
      "a:1,agroup:audio,language:fr,name:audio_fr",
    ]
    try await FFmpeg.checked(
      Self.videoSource("320x180", parameters) + Self.audioSource(frequency: 440, parameters)
        + Self.audioSource(frequency: 660, parameters)
        + ["-map", "0:v", "-map", "1:a", "-map", "2:a"] + Self.videoEncoding(parameters)
        + ["-b:v", "200k"] + Self.audioEncoding + ["-af", "atrim=end_sample=\(samples)"]
        + Self.hlsOutput(parameters)
        + ["-hls_segment_filename", folder.path + "/%v/seg%d.ts"]
        + ["-master_pl_name", "ffmpeg-master.m3u8", "-var_stream_map"]
        + [streams.joined(separator: " "), folder.path + "/%v/index.m3u8"])
    for name in ["video", "audio_en", "audio_fr"] {
      try Self.fixTargetDuration(folder.appendingPathComponent("\(name)/index.m3u8"))
    }

    let ffmpegMaster = folder.appendingPathComponent("ffmpeg-master.m3u8")
    let streamInfo = try String(contentsOf: ffmpegMaster, encoding: .utf8)
      .split(separator: "\n").first { $0.hasPrefix("#EXT-X-STREAM-INF:") }
      .map { $0.replacingOccurrences(of: ",AUDIO=\"group_audio\"", with: "") }
    guard let streamInfo else {
      throw TestSupportError.unexpectedOutput(
        command: "ffmpeg -master_pl_name",
        output: try String(contentsOf: ffmpegMaster, encoding: .utf8))
    }
    try FileManager.default.removeItem(at: ffmpegMaster)
    try await writeSubtitles(in: folder.appendingPathComponent("subs"), parameters, video: folder)

    let media = "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\",AUTOSELECT=YES"
    let master = [
      "#EXTM3U", "#EXT-X-VERSION:3",
      media + ",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,URI=\"audio_en/index.m3u8\"",
      media + ",NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=NO,URI=\"audio_fr/index.m3u8\"",
      "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\","
        + "DEFAULT=NO,AUTOSELECT=YES,URI=\"subs/index.m3u8\"",
      streamInfo + ",AUDIO=\"audio\",SUBTITLES=\"subs\"", "video/index.m3u8",
    ]
    try (master.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
    return Product(entry: "master.m3u8")
  }

  /// Writes `index.m3u8` and one `segN.vtt` per video segment into `subs`, with the cue
  /// "Second N" in each.
  ///
  /// `X-TIMESTAMP-MAP` ties local time 0 to the first video timestamp, read from the first
  /// segment with ffprobe: ffmpeg's MPEG-TS starts at 1.4 s, plus the AAC priming it shifts
  /// every stream by.
  private func writeSubtitles(in subs: URL, _ parameters: Parameters, video: URL) async throws {
    try FileManager.default.createDirectory(at: subs, withIntermediateDirectories: true)
    let (target, segments) = try Self.segments(
      of: video.appendingPathComponent("video/index.m3u8"))
    let firstSegment = video.appendingPathComponent("video/" + segments[0].uri).path
    let output = try await ProcessRunner.checked(
      FFmpeg.ffprobePath ?? "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_pts",
        "-of", "default=noprint_wrappers=1:nokey=1", firstSegment,
      ])
    // ffprobe lists the stream once in its program and once on its own.
    let startText = output.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
    guard let start = Int(startText) else {
      throw TestSupportError.unexpectedOutput(command: "ffprobe \(firstSegment)", output: startText)
    }

    var playlist = [
      "#EXTM3U", "#EXT-X-VERSION:3", target, "#EXT-X-MEDIA-SEQUENCE:0",
      "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    var time = 0.0
    for (index, segment) in segments.enumerated() {
      let length = Double(segment.info.dropFirst("#EXTINF:".count).prefix { $0 != "," }) ?? 0
      let cue = """
        WEBVTT
        X-TIMESTAMP-MAP=MPEGTS:\(start),LOCAL:00:00:00.000

        \(Self.timestamp(time)) --> \(Self.timestamp(time + length * 0.9))
        Second \(index)

        """
      try cue.write(
        to: subs.appendingPathComponent("seg\(index).vtt"), atomically: true, encoding: .utf8)
      playlist += [segment.info, "seg\(index).vtt"]
      time += length
    }
    playlist.append("#EXT-X-ENDLIST")
    try (playlist.joined(separator: "\n") + "\n").write(
      to: subs.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
  }

  /// `seconds` as a WebVTT timestamp, `HH:MM:SS.mmm`.
  static func timestamp(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded())
    return String(
      format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
      milliseconds / 1000 % 60, milliseconds % 1000)
  }
}
