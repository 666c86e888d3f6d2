import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 42, step 2, through the command line: `offline export` of a content of the store and
/// of a folder `get -o DIR` wrote, `get URL -o FILE.mp4` of a stream, and the refusals, run
/// in-process against nginx and checked with ffprobe. A SIGKILL during an export is in
/// `ExportKillTests`.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct ExportCommandTests {
  /// A temporary folder with a store in it, and `offline --store STORE` run in that folder.
  struct Work {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory(prefix: "offlinekit-export") }
    var store: URL { folder.url.appending(path: "store") }
    func path(_ name: String) -> String { folder.url.appending(path: name).path }

    /// Runs `offline --store STORE ARGUMENTS` here; standard error is a terminal
    /// `terminalColumns` wide when given.
    func offline(_ arguments: [String], terminalColumns: Int? = nil) async throws -> OfflineRun {
      try await InProcessOffline.run(
        arguments, store: store, in: folder.url, terminalColumns: terminalColumns, timeout: 120)
    }

    /// The names in the folder, the store left out.
    func names() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "store" }
        .sorted()
    }
  }

  /// Checks that the file at `path` has a video and an audio stream (`format` as ffprobe
  /// names the container) and lasts `duration` seconds, within one segment of one second.
  func expectPlayable(
    _ path: String, format: String, duration: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let probe = try await MediaProbe.of(path)
    #expect(probe.kinds.sorted() == ["audio", "video"], sourceLocation: sourceLocation)
    #expect(probe.format.format_name.contains(format), sourceLocation: sourceLocation)
    #expect(
      abs(probe.duration - duration) <= 1, "\(probe.duration) s", sourceLocation: sourceLocation)
  }

  @Test func exportsADownloadedContentByIdToAnMP4WithItsMoovFirst() async throws {
    let origin = try await HLSOrigin(.tsVariants, segmentCount: 6)
    let work = try Work()
    let url = origin.url.absoluteString
    #expect(try await work.offline(["add", url, "--id", "movie"]).status == 0)
    let run = try await work.offline(["run", "--quiet"])
    try #require(run.status == 0, "\(run.stderrText)")

    let result = try await work.offline(["export", "movie", "-o", "movie.mp4", "--json"])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    #expect(object?["output"] as? String == work.path("movie.mp4"))
    #expect(object?["verified"] as? Bool == true)
    let tracks = object?["tracks"] as? [[String: Any]] ?? []
    #expect(tracks.compactMap { $0["kind"] as? String }.sorted() == ["audio", "video"])
    #expect(tracks.allSatisfy { ($0["packets"] as? Int ?? 0) > 0 }, "\(tracks)")
    try await expectPlayable(
      work.path("movie.mp4"), format: "mp4", duration: origin.files.duration)
    let boxes = try MediaProbe.topLevelBoxes(work.path("movie.mp4"))
    let moov = try #require(boxes.firstIndex(of: "moov"), "\(boxes)")
    let mdat = try #require(boxes.firstIndex(of: "mdat"), "\(boxes)")
    #expect(moov < mdat, "\(boxes)")
  }

  @Test func exportsAFolderThatGetWroteToMatroska() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 4)
    let work = try Work()
    let got = try await work.offline(["get", origin.url.absoluteString, "-o", "movie", "--quiet"])
    try #require(got.status == 0, "\(got.stderrText)")

    let result = try await work.offline(["export", "movie", "-o", "movie.mkv"])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.hasPrefix("Exported \(work.path("movie.mkv")) ("))
    #expect(result.stdout.isEmpty)
    try await expectPlayable(
      work.path("movie.mkv"), format: "matroska", duration: origin.files.duration)
    #expect(try work.names() == ["movie", "movie.mkv"], "the offline copy stays, nothing else")
  }

  @Test func progressIsDrawnOnlyOnATerminalAndNeverWithJSON() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 3)
    let work = try Work()
    let got = try await work.offline(["get", origin.url.absoluteString, "-o", "movie", "--quiet"])
    try #require(got.status == 0, "\(got.stderrText)")

    let drawn = try await work.offline(
      ["export", "movie", "-o", "a.mp4"], terminalColumns: 80)
    #expect(drawn.status == 0, "\(drawn.stderrText)")
    #expect(drawn.stderrText.hasPrefix("\r["), "\(drawn.stderrText)")
    #expect(drawn.stderrText.contains("Exporting: writing"), "\(drawn.stderrText)")
    // The line is cleared before the result is printed.
    #expect(drawn.stderrText.contains("\r\u{1B}[KExported \(work.path("a.mp4")) ("))
    let plain = try await work.offline(["export", "movie", "-o", "b.mp4"])
    #expect(!plain.stderrText.contains("Exporting"), "\(plain.stderrText)")
    let json = try await work.offline(
      ["export", "movie", "-o", "c.mp4", "--json"], terminalColumns: 80)
    #expect(json.stderrText.isEmpty, "\(json.stderrText)")
    #expect(json.stdoutText.hasSuffix("\"verified\":true}\n"), "\(json.stdoutText)")
  }

  @Test func getOfAStreamIntoAnMP4FileExportsItAndRemovesItsWorkFolder() async throws {
    let origin = try await HLSOrigin(.tsVariants, segmentCount: 4)
    let work = try Work()
    let result = try await work.offline(["get", origin.url.absoluteString, "-o", "movie.mp4"])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.contains("Exported \(work.path("movie.mp4")) ("))
    try await expectPlayable(
      work.path("movie.mp4"), format: "mp4", duration: origin.files.duration)
    #expect(try work.names() == ["movie.mp4"], "no work folder, no temporary file left")

    let again = try await work.offline(["get", origin.url.absoluteString, "-o", "movie.mp4"])
    #expect(again.status == 1)
    #expect(again.stderrText.contains("already exists; add --force"), "\(again.stderrText)")
  }

  @Test func getOfAPlainFileIntoAnMP4NameSavesTheFileAsItIs() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 3)
    let work = try Work()
    let result = try await work.offline([
      "get", origin.nginx.url("/init.mp4").absoluteString, "-o", "clip.mp4",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(!result.stderrText.contains("Exported"), "\(result.stderrText)")
    let served = origin.files.folder.appending(path: "init.mp4").path
    #expect(
      FileManager.default.contents(atPath: work.path("clip.mp4"))
        == FileManager.default.contents(atPath: served))
    #expect(try work.names() == ["clip.mp4"])
  }

  @Test func anExistingFileIsKeptWithoutForceAndReplacedWithIt() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 3)
    let work = try Work()
    let got = try await work.offline(["get", origin.url.absoluteString, "-o", "movie", "--quiet"])
    try #require(got.status == 0, "\(got.stderrText)")
    let mine = Data("mine".utf8)
    try mine.write(to: URL(fileURLWithPath: work.path("movie.mp4")))

    let refused = try await work.offline(["export", "movie", "-o", "movie.mp4"])
    #expect(refused.status == 1)
    #expect(
      refused.stderrText == "Error: \(work.path("movie.mp4")) already exists; add --force to"
        + " replace it.\n")
    #expect(FileManager.default.contents(atPath: work.path("movie.mp4")) == mine)
    #expect(try work.names() == ["movie", "movie.mp4"])

    let forced = try await work.offline(["export", "movie", "-o", "movie.mp4", "--force"])
    #expect(forced.status == 0, "\(forced.stderrText)")
    try await expectPlayable(
      work.path("movie.mp4"), format: "mp4", duration: origin.files.duration)
  }

  @Test func aFileContentAndAContentNotDownloadedAreRefused() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 3)
    let work = try Work()
    let segment = origin.nginx.url("/seg0.m4s").absoluteString
    #expect(try await work.offline(["add", segment, "--id", "clip"]).status == 0)
    let run = try await work.offline(["run", "--quiet"])
    try #require(run.status == 0, "\(run.stderrText)")
    #expect(
      try await work.offline(["add", origin.url.absoluteString, "--id", "later"]).status == 0)

    let file = try await work.offline(["export", "clip", "-o", "clip.mp4"])
    #expect(file.status == 1)
    #expect(file.stderrText.contains("Content clip is a file, not a stream: nothing to export"))
    let queued = try await work.offline(["export", "later", "-o", "later.mp4"])
    #expect(queued.status == 1)
    #expect(queued.stderrText.contains("Content later is downloading"), "\(queued.stderrText)")
    let unknown = try await work.offline(["export", "nothing", "-o", "nothing.mp4"])
    #expect(unknown.status == 1)
    #expect(unknown.stderrText.contains("No content has the id nothing"), "\(unknown.stderrText)")
    #expect(try work.names().isEmpty, "nothing written")
  }

  @Test func anUnknownExtensionIsAUsageErrorAndAMissingFolderAFailure() async throws {
    let origin = try await HLSOrigin(.fmp4, segmentCount: 3)
    let work = try Work()
    let got = try await work.offline(["get", origin.url.absoluteString, "-o", "movie", "--quiet"])
    try #require(got.status == 0, "\(got.stderrText)")

    let avi = try await work.offline(["export", "movie", "-o", "movie.avi"])
    #expect(avi.status == 64)
    #expect(avi.stderrText.hasPrefix("Error: Cannot tell the format of"), "\(avi.stderrText)")
    #expect(avi.stderrText.contains("See 'offline export --help'."))
    let named = try await work.offline(["export", "movie", "-o", "movie.avi", "--format", "mkv"])
    #expect(named.status == 0, "\(named.stderrText)")
    #expect(try await MediaProbe.of(work.path("movie.avi")).format.format_name.contains("matroska"))

    let missing = try await work.offline(["export", "movie", "-o", "gone/movie.mp4"])
    #expect(missing.status == 1)
    #expect(
      missing.stderrText == "Error: The folder \(work.path("gone")) does not exist.\n",
      "\(missing.stderrText)")
    let refusedGet = try await work.offline([
      "get", origin.url.absoluteString, "-o", "gone/movie.mp4",
    ])
    #expect(refusedGet.status == 1, "refused before anything is fetched")
    #expect(try work.names() == ["movie", "movie.avi"])
  }

  @Test func theSubtitleRenditionIsATrackAndWithSubsSidecarAVTTFileBesideIt() async throws {
    let origin = try await HLSOrigin(.renditions, segmentCount: 3)
    let work = try Work()
    let got = try await work.offline([
      "get", origin.url.absoluteString, "-o", "movie", "--subtitles", "all", "--quiet",
    ])
    try #require(got.status == 0, "\(got.stderrText)")

    let result = try await work.offline([
      "export", "movie", "-o", "movie.mkv", "--subs-sidecar", "--json",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    let tracks = object?["tracks"] as? [[String: Any]] ?? []
    #expect(tracks.compactMap { $0["kind"] as? String }.contains("subtitle"), "\(tracks)")
    #expect(object?["subtitleSidecar"] as? String == work.path("movie.vtt"))
    let probe = try await MediaProbe.of(work.path("movie.mkv"))
    #expect(probe.streams.contains { $0.codec_name == "webvtt" }, "\(probe.streams)")
    let sidecar = try String(contentsOfFile: work.path("movie.vtt"), encoding: .utf8)
    // The fixture's X-TIMESTAMP-MAP ties each cue to its video segment, which starts 21 ms
    // after the audio (the file's start).
    #expect(sidecar.hasPrefix("WEBVTT\n\n00:00:00.021 --> 00:00:00.921\nSecond 0\n"), "\(sidecar)")
    #expect(sidecar.contains("00:00:01.021 --> 00:00:01.921\nSecond 1\n"), "\(sidecar)")
    #expect(try work.names() == ["movie", "movie.mkv", "movie.vtt"])
  }
}
