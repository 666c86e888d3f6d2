import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 42 through the command line, beside `ExportCommandTests`: a DASH presentation of two
/// Periods downloaded and exported whole, `get URL -o FILE.mp4 --subs-sidecar`, and an export
/// run where no `ffmpeg` or `ffprobe` program is on `PATH`.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct GetExportTests {
  typealias Work = ExportCommandTests.Work

  @Test func getOfADASHPresentationWithTwoPeriodsExportsBothInOrder() async throws {
    let origin = try await DASHCommandTests.Origin(.twoPeriods)
    let work = try Work()
    let result = try await work.offline(["get", origin.url, "-o", "movie.mp4", "--quiet"])
    #expect(result.status == 0, "\(result.stderrText)")
    origin.nginx.stop(graceful: false)

    let probe = try await MediaProbe.of(work.path("movie.mp4"))
    #expect(probe.kinds.sorted() == ["audio", "video"])
    // Two Periods of 4 s; the first alone (all libavformat's DASH demuxer reads) made 4 s.
    #expect(abs(probe.duration - 8) <= 0.1, "\(probe.duration) s")
    // The origin's Periods hold the same media: its first Period alone, decoded, twice.
    let manifest = origin.files.folder.appending(path: "manifest.mpd")
    var alone = try MPDParser.parse(Data(contentsOf: manifest))
    alone.periods = [alone.periods[0]]
    alone.periods[0].start = 0
    alone.periods[0].duration = nil
    alone.mediaPresentationDuration = 4
    let first = origin.files.folder.appending(path: "first.mpd").path
    try MPDWriter.write(alone).write(toFile: first, atomically: true, encoding: .utf8)
    let period = try await FFmpeg.frameMD5s(first, stream: "v:0")
    let exported = try await FFmpeg.frameMD5s(work.path("movie.mp4"), stream: "v:0")
    #expect(exported.errors.isEmpty, "\(exported.errors)")
    #expect(period.hashes.count == 100, "25 fps for 4 s")
    #expect(exported.hashes == period.hashes + period.hashes)
    #expect(try work.names() == ["movie.mp4"])
  }

  @Test func getWithSubsSidecarWritesTheSubtitlesBesideTheFile() async throws {
    let origin = try await HLSOrigin(.renditions, segmentCount: 3)
    let work = try Work()
    let result = try await work.offline([
      "get", origin.url.absoluteString, "-o", "movie.mp4", "--subtitles", "all",
      "--subs-sidecar", "--quiet",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let sidecar = try String(contentsOfFile: work.path("movie.vtt"), encoding: .utf8)
    // As `export --subs-sidecar` writes it (ExportCommandTests): the cues in the file's times.
    #expect(sidecar.hasPrefix("WEBVTT\n\n00:00:00.021 --> 00:00:00.921\nSecond 0\n"), "\(sidecar)")
    let probe = try await MediaProbe.of(work.path("movie.mp4"))
    #expect(probe.streams.contains { $0.codec_name == "mov_text" }, "\(probe.streams)")
    #expect(try work.names() == ["movie.mp4", "movie.vtt"], "no work folder left")
  }

  @Test func getRefusesAnExistingSidecarBeforeFetchingAndAsksForAnExportName() async throws {
    let origin = try await HLSOrigin(.renditions, segmentCount: 3)
    let work = try Work()
    try "mine".write(toFile: work.path("movie.vtt"), atomically: true, encoding: .utf8)
    let refused = try await work.offline([
      "get", origin.url.absoluteString, "-o", "movie.mp4", "--subs-sidecar",
    ])
    #expect(refused.status == 1)
    #expect(
      refused.stderrText.contains("\(work.path("movie.vtt")) already exists; add --force"),
      "\(refused.stderrText)")
    #expect(try origin.nginx.accessLog().isEmpty, "nothing fetched")
    #expect(try work.names() == ["movie.vtt"])

    let folder = try await work.offline([
      "get", origin.url.absoluteString, "-o", "movie", "--subs-sidecar",
    ])
    #expect(folder.status == 64)
    #expect(
      folder.stderrText.hasPrefix(
        "Error: --subs-sidecar goes with -o FILE.mp4 or -o FILE.mkv of a stream."),
      "\(folder.stderrText)")
  }

  /// Issue 42: "works on a machine where the ffmpeg program is not installed (only the
  /// libraries)". The real `offline` runs with a `PATH` that holds no `ffmpeg` or `ffprobe`
  /// (nor anything else): it starts `offline-export` from beside itself, which remuxes and
  /// checks with the libraries alone.
  @Test func exportNeedsNoFFmpegProgramOnPath() async throws {
    let origin = try await HLSOrigin(.tsVariants, segmentCount: 4)
    let work = try Work()
    let got = try await work.offline(["get", origin.url.absoluteString, "-o", "movie", "--quiet"])
    try #require(got.status == 0, "\(got.stderrText)")
    let empty = work.folder.url.appending(path: "bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)

    let run = try await ProcessRunner.run(
      OfflineBinary.path,
      ["--store", work.store.path, "export", work.path("movie"), "-o", work.path("movie.mp4")],
      timeout: 120, environment: ["PATH": empty.path, "HOME": work.folder.path])
    #expect(run.status == 0, "\(run.stderrText)")
    #expect(run.stderrText.hasPrefix("Exported \(work.path("movie.mp4")) ("), "\(run.stderrText)")
    let probe = try await MediaProbe.of(work.path("movie.mp4"))
    #expect(probe.kinds.sorted() == ["audio", "video"])
    #expect(abs(probe.duration - origin.files.duration) <= 1, "\(probe.duration) s")
  }
}
