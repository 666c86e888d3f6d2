import Foundation
import TestSupport

/// Media and a manifest made by ffmpeg's DASH muxer in a temporary folder: 6 seconds of a
/// 160x90 test pattern at 25 fps and a tone per audio language, cut every 2 seconds.
struct DASHFixture {
  /// The folder that holds the manifest and the media.
  let directory: TemporaryDirectory
  /// The manifest's name in `directory`.
  static let manifestName = "manifest.mpd"

  /// The manifest's file URL, the base of its relative URLs.
  var manifestURL: URL { directory.file(DASHFixture.manifestName) }

  /// The manifest's bytes.
  func manifest() throws -> Data { try Data(contentsOf: manifestURL) }

  /// The names of the files ffmpeg wrote whose names start with `prefix`.
  func files(withPrefix prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix(prefix) }.sorted()
  }

  /// Runs ffmpeg's DASH muxer with `options` (such as `-use_template 1 -use_timeline 1`).
  ///
  /// - Parameter languages: one audio stream (and AdaptationSet) per language; one audio
  ///   stream without a language when empty.
  static func make(_ options: [String], languages: [String] = []) async throws -> DASHFixture {
    let directory = try TemporaryDirectory(prefix: "dash-fixture")
    let audioCount = max(1, languages.count)
    var arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=6",
    ]
    for index in 0..<audioCount {
      arguments += [
        "-f", "lavfi", "-i", "sine=frequency=\(440 + 220 * index):sample_rate=48000:duration=6",
      ]
    }
    arguments += ["-map", "0:v"]
    for index in 0..<audioCount { arguments += ["-map", "\(index + 1):a"] }
    arguments += [
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
      "-force_key_frames", "expr:gte(t,n_forced*2)", "-sc_threshold", "0",
      "-c:a", "aac", "-b:a", "64k",
    ]
    for (index, language) in languages.enumerated() {
      arguments += ["-metadata:s:a:\(index)", "language=\(language)"]
    }
    var sets = "id=0,streams=v"
    for index in 0..<audioCount { sets += " id=\(index + 1),streams=\(index + 1)" }
    arguments += ["-f", "dash", "-seg_duration", "2", "-adaptation_sets", sets] + options
    arguments.append(directory.file(manifestName).path)
    let output = try await FFmpeg.run(arguments)
    guard output.status == 0 else {
      throw TestSupportError.processFailed(
        command: "ffmpeg " + arguments.joined(separator: " "), status: output.status,
        stderr: output.stderrText)
    }
    return DASHFixture(directory: directory)
  }
}

/// Decoding with ffmpeg, for comparing an offline copy with its origin.
enum Decoded {
  /// The MD5 of the decoded frames of `stream` (`v:0` or `a:0`) of `input`, and what
  /// ffmpeg printed on stderr.
  static func md5(_ input: String, stream: String) async throws -> (md5: String, errors: String) {
    let output = try await FFmpeg.run([
      "-v", "error", "-i", input, "-map", "0:\(stream)", "-f", "md5", "-",
    ])
    return (
      output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
      output.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }
}
