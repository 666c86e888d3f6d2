import Foundation

extension FFmpeg {
  /// The MD5 of the decoded frames of `stream` (`v:0`, `a:1`) of `input` (a local path, or a
  /// URL), as `ffmpeg -v error -i INPUT -map 0:STREAM -f md5 -` prints it (`MD5=…`), and what
  /// ffmpeg printed on stderr. A local input is opened as a stock player opens it.
  public static func decodedMD5(_ input: String, stream: String) throws -> (
    md5: String, errors: String
  ) {
    let arguments = ["-v", "error", "-i", input, "-map", "0:\(stream)", "-f", "md5", "-"]
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    let output =
      isRemote
      ? try run(arguments)
      : try ProcessRunner.run(ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: 120)
    return (
      output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
      output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  /// The subtitle stream `stream` (`s:0`) of `input` as WebVTT text, and ffmpeg's stderr.
  public static func subtitles(_ input: String, stream: String = "s:0") throws -> (
    text: String, errors: String
  ) {
    let arguments = ["-v", "error", "-i", input, "-map", "0:\(stream)", "-f", "webvtt", "-"]
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    let output =
      isRemote
      ? try run(arguments)
      : try ProcessRunner.run(ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: 120)
    return (output.stdoutText, output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
