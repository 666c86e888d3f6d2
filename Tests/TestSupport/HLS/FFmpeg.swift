import Foundation

/// Runs the `ffmpeg` and `ffprobe` command-line tools: the reference HLS client of the tests.
///
/// Calls on an `http://` URL allow the protocols `file`, `http`, `tcp` and `crypto`; `decode`
/// of a local path passes no such option, so it opens the file as a stock player does.
///
/// ```swift
/// let result = try await FFmpeg.decode(nginx.url("/master.m3u8").absoluteString)
/// #expect(result.errors.isEmpty)
/// #expect(abs(result.duration - 6) < 0.5)
/// ```
public enum FFmpeg {
  /// The protocols every call allows (`-protocol_whitelist`).
  public static let protocols = "file,http,tcp,crypto"

  /// The path of `ffmpeg`, or `nil` when it is not installed.
  public static let ffmpegPath = ExecutableSearch.path(of: "ffmpeg")
  /// The path of `ffprobe`, or `nil` when it is not installed.
  public static let ffprobePath = ExecutableSearch.path(of: "ffprobe")

  /// Whether both `ffmpeg` and `ffprobe` are installed; use it with `.enabled(if:)`.
  public static var isAvailable: Bool { ffmpegPath != nil && ffprobePath != nil }

  /// Decodes `input` fully, as `ffmpeg -v error -i INPUT -f null -` does.
  ///
  /// A local input is opened as a stock player opens it: no `-protocol_whitelist`, no
  /// `-allowed_extensions`, so what plays here plays in `ffmpeg -i` and mpv as Debian ships
  /// them. ffmpeg 5.1 (Debian 12's 5.1.9) opens a local file a playlist names (segment, key,
  /// init section) only when its name ends in a media extension of its `allowed_extensions`
  /// list (`ts`, `m4s`, `mp4`, `vtt`, …; `key` and `bin` are not in it), for `file:` and
  /// `data:` URLs alike; http URLs are not checked.
  ///
  /// The duration comes from the last `-progress` report (`out_time_us` of the block that
  /// ends with `progress=end`): the end time of what actually went through the decoders,
  /// with the input's start time (1.4 s for ffmpeg's MPEG-TS) already taken off. `ffprobe`
  /// on a playlist only adds up the `#EXTINF` durations and reads no segment, so it cannot
  /// tell whether the media are there, decrypt or decode.
  ///
  /// ffmpeg picks its default streams: the best video and the best audio, which for a
  /// master playlist means the highest variant and one audio rendition.
  ///
  /// - Parameters:
  ///   - input: A local playlist or media path, or a URL.
  ///   - allowingAllExtensions: Passes `-allowed_extensions ALL` for a local playlist; only
  ///     for the test fixtures themselves (their keys are `keyN.key`), never for what
  ///     OfflineKit wrote.
  ///   - timeout: Seconds before ffmpeg is killed and the call throws.
  /// - Returns: What ffmpeg printed on stderr (empty when the decode was clean, or a line
  ///   with the exit status when it failed silently) and the decoded duration in seconds
  ///   (0 when ffmpeg failed before it reported one).
  /// - Throws: `TestSupportError.processTimedOut`, or `.unexpectedOutput` when a clean run
  ///   printed no progress report.
  public static func decode(
    _ input: String, allowingAllExtensions: Bool = false, timeout: Double = 120
  ) async throws -> (errors: String, duration: Double) {
    let isRemote = input.hasPrefix("http://") || input.hasPrefix("https://")
    let lenient = allowingAllExtensions && input.contains(".m3u8")
    let arguments =
      ["-v", "error"] + (lenient ? ["-allowed_extensions", "ALL"] : [])
      + ["-i", input, "-f", "null", "-", "-progress", "pipe:1", "-nostats"]
    let output =
      isRemote
      ? try await run(arguments, timeout: timeout)
      : try await ProcessRunner.run(
        ffmpegPath ?? "ffmpeg", ["-nostdin"] + arguments, timeout: timeout)
    var errors = output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
    if output.status != 0 && errors.isEmpty {
      errors = "ffmpeg exited with status \(output.status)."
    }
    let microseconds = output.stdoutText.split(separator: "\n").last {
      $0.hasPrefix("out_time_us=")
    }.flatMap { Double($0.dropFirst("out_time_us=".count)) }
    guard let microseconds else {
      if !errors.isEmpty { return (errors, 0) }
      throw TestSupportError.unexpectedOutput(
        command: "ffmpeg -i \(input) -f null -", output: output.stdoutText)
    }
    return (errors, microseconds / 1_000_000)
  }

  /// ffprobe's duration of a playlist or media file (for a playlist: the sum of `#EXTINF`).
  ///
  /// - Throws: `TestSupportError.processFailed` when ffprobe fails, or `.unexpectedOutput`
  ///   when it prints no number.
  public static func probeDuration(_ input: String) async throws -> Double {
    let arguments = [
      "-v", "error", "-protocol_whitelist", protocols, "-show_entries", "format=duration",
      "-of", "default=noprint_wrappers=1:nokey=1", input,
    ]
    let output = try await ProcessRunner.checked(ffprobePath ?? "ffprobe", arguments, timeout: 60)
    let text = output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let duration = Double(text) else {
      throw TestSupportError.unexpectedOutput(command: "ffprobe \(input)", output: text)
    }
    return duration
  }

  /// Runs `ffmpeg -nostdin -protocol_whitelist … arguments` and returns what it left behind;
  /// a non-zero exit status is not an error here.
  public static func run(_ arguments: [String], timeout: Double = 120) async throws
    -> ProcessRunner.Output
  {
    try await ProcessRunner.run(
      ffmpegPath ?? "ffmpeg", ["-nostdin", "-protocol_whitelist", protocols] + arguments,
      timeout: timeout)
  }

  /// Runs `ffmpeg -v error -y arguments` like `run(_:timeout:)` and throws
  /// `TestSupportError.processFailed` with its stderr unless it exits with status 0.
  @discardableResult
  static func checked(_ arguments: [String], timeout: Double = 120) async throws
    -> ProcessRunner.Output
  {
    let output = try await run(["-v", "error", "-y"] + arguments, timeout: timeout)
    guard output.status == 0 else {
      throw TestSupportError.processFailed(
        command: (["ffmpeg"] + arguments).joined(separator: " "),
        status: output.status, stderr: output.stderrText)
    }
    return output
  }
}

extension FFmpeg {
  /// The MD5 of each decoded video frame of `input` (a local playlist or media file), in
  /// order, as `ffmpeg -f framemd5` prints them: two inputs holding the same pictures give
  /// the same list, whatever their containers or playlists.
  ///
  /// - Throws: `TestSupportError.processFailed` when ffmpeg fails.
  public static func frameHashes(of input: String, timeout: Double = 120) async throws -> [String] {
    let arguments = ["-nostdin", "-v", "error", "-i", input, "-map", "0:v", "-f", "framemd5", "-"]
    let output = try await ProcessRunner.run(ffmpegPath ?? "ffmpeg", arguments, timeout: timeout)
    guard output.status == 0 else {
      throw TestSupportError.processFailed(
        command: "ffmpeg -i \(input) -f framemd5 -", status: output.status,
        stderr: output.stderrText)
    }
    return output.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }
}
