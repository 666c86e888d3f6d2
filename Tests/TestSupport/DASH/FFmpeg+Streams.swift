import Foundation

extension FFmpeg {
  /// The MD5 of the decoded frames of `stream` (`v:0`, `a:1`) of `input` (a local path, or a
  /// URL), as `ffmpeg -v error -i INPUT -map 0:STREAM -f md5 -` prints it (`MD5=…`), and what
  /// ffmpeg printed on stderr. A local input is opened as a stock player opens it.
  public static func decodedMD5(_ input: String, stream: String) async throws -> (
    md5: String, errors: String
  ) {
    let output = try await decode(input, stream: stream, format: "md5")
    return (
      output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
      output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  /// The subtitle stream `stream` (`s:0`) of `input` as WebVTT text, and ffmpeg's stderr.
  public static func subtitles(_ input: String, stream: String = "s:0") async throws -> (
    text: String, errors: String
  ) {
    let output = try await decode(input, stream: stream, format: "webvtt")
    return (output.stdoutText, output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Runs `ffmpeg -v error -i INPUT -map 0:STREAM -f FORMAT -`: a URL through `run(_:timeout:)`
  /// (with its protocol whitelist), a local path as a stock player opens it.
  private static func decode(_ input: String, stream: String, format: String) async throws
    -> ProcessRunner.Output
  {
    let arguments = ["-v", "error", "-i", input, "-map", "0:\(stream)", "-f", format, "-"]
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    return isRemote
      ? try await run(arguments)
      : try await ProcessRunner.run(ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: 120)
  }
}

extension FFmpeg {
  /// The MD5 of each decoded frame of `stream` (`v:0`, `a:0`) of `input`, in order, as
  /// `ffmpeg -v error -i INPUT -map 0:STREAM -f framemd5 -` prints them, and what ffmpeg
  /// printed on stderr. A local input is opened as a stock player opens it.
  public static func frameMD5s(_ input: String, stream: String) async throws -> (
    hashes: [String], errors: String
  ) {
    let arguments = ["-v", "error", "-i", input, "-map", "0:\(stream)", "-f", "framemd5", "-"]
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    let output =
      isRemote
      ? try await run(arguments)
      : try await ProcessRunner.run(ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: 120)
    let hashes = output.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    return (hashes, output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The MD5 of each decoded frame of the first `video` or `audio` stream of `parts` (an
  /// init section and media segments) joined in one file in `folder`, as the MP4 demuxer
  /// decodes it: the media a DASH manifest addresses, without the DASH reader.
  public static func frameMD5s(
    ofJoined parts: [Data], video: Bool, in folder: URL
  ) async throws -> (hashes: [String], errors: String) {
    let file = folder.appendingPathComponent("joined-\(UUID().uuidString).mp4")
    try parts.reduce(Data(), +).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await frameMD5s(file.path, stream: video ? "v:0" : "a:0")
  }
}
