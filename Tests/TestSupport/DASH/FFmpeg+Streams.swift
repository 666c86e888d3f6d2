import Foundation

extension FFmpeg {
  /// The MD5 of the decoded frames of `stream` (`v:0`, `a:1`) of `input` (a local path, or a
  /// URL), as `ffmpeg -v error -i INPUT -map 0:STREAM -f md5 -` prints it (`MD5=…`), and what
  /// ffmpeg printed on stderr. A local input is opened as a stock player opens it.
  public static func decodedMD5(_ input: String, stream: String) throws -> (
    md5: String, errors: String
  ) {
    let output = try decode(input, stream: stream, format: "md5")
    return (
      output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
      output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  /// The subtitle stream `stream` (`s:0`) of `input` as WebVTT text, and ffmpeg's stderr.
  public static func subtitles(_ input: String, stream: String = "s:0") throws -> (
    text: String, errors: String
  ) {
    let output = try decode(input, stream: stream, format: "webvtt")
    return (output.stdoutText, output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Runs `ffmpeg -v error -i INPUT -map 0:STREAM -f FORMAT -`: a URL through `run(_:timeout:)`
  /// (with its protocol whitelist), a local path as a stock player opens it.
  private static func decode(_ input: String, stream: String, format: String) throws
    -> ProcessRunner.Output
  {
    let arguments = ["-v", "error", "-i", input, "-map", "0:\(stream)", "-f", format, "-"]
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    return isRemote
      ? try run(arguments)
      : try ProcessRunner.run(ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: 120)
  }
}
