import Foundation

/// Runs `mpv`, a stock player that reads DASH with libavformat's demuxer, when it is
/// installed (`scripts/install-deps` installs it; tests that use it skip cleanly without it).
///
/// ```swift
/// @Test(.enabled(if: MPV.isAvailable)) func playsInMPV() async throws {
///   let frames = try await MPV.videoFrameMD5s(copy.path)
/// }
/// ```
public enum MPV {
  /// The path of `mpv`, or nil when it is not installed.
  public static let path = ExecutableSearch.path(of: "mpv")

  /// Whether `mpv` is installed; use it with `.enabled(if:)`.
  public static var isAvailable: Bool { path != nil }

  /// The MD5 of each video frame mpv decodes from local `input`, in order (its encoding mode
  /// into ffmpeg's `framemd5` format, raw video: the same MD5s `ffmpeg -f framemd5` gives),
  /// and what mpv printed on stderr.
  ///
  /// - Throws: `TestSupportError.processFailed` when mpv exits with an error.
  public static func videoFrameMD5s(_ input: String) async throws -> (
    hashes: [String], errors: String
  ) {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-mpv")
    let output = scratch.file("frames.md5")
    let arguments = [
      "--no-config", "--really-quiet", "--no-audio", "--of=framemd5", "--ovc=rawvideo",
      "--o=\(output.path)", input,
    ]
    let result = try await ProcessRunner.run(path ?? "mpv", arguments, timeout: 120)
    guard result.status == 0 else {
      throw TestSupportError.processFailed(
        command: "mpv " + arguments.joined(separator: " "), status: result.status,
        stderr: result.stderrText)
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let hashes = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    return (hashes, result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
