import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 42's first judge item over the shared origin fixtures, downloaded from nginx and
/// exported by the command line to MP4 and MKV: the HLS renditions stream (audio in two
/// languages and WebVTT subtitles, all in one file) and the DASH fixtures, each checked with
/// ffprobe (tracks, languages, duration, `moov` before `mdat`) and by decoding against the
/// origin. The single-kind HLS fixtures (TS, fMP4, AES-128, byte ranges) are in
/// OfflineExportTests' ExportRoundTripTests.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct ExportFixtureTests {
  typealias Work = ExportCommandTests.Work

  /// Checks the MP4 at `path` has its `moov` box before its `mdat`.
  func expectMoovFirst(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let boxes = try MediaProbe.topLevelBoxes(path)
    let moov = try #require(boxes.firstIndex(of: "moov"), sourceLocation: sourceLocation)
    let mdat = try #require(boxes.firstIndex(of: "mdat"), sourceLocation: sourceLocation)
    #expect(moov < mdat, "\(boxes)", sourceLocation: sourceLocation)
  }

  @Test(arguments: ["mp4", "mkv"])
  func theRenditionsStreamKeepsBothLanguagesAndItsSubtitles(format: String) async throws {
    let origin = try await HLSOrigin(.renditions, segmentCount: 3)
    let work = try Work()
    let got = try await work.offline([
      "get", origin.url.absoluteString, "-o", "movie", "--audio", "all", "--subtitles", "all",
      "--quiet",
    ])
    try #require(got.status == 0, "\(got.stderrText)")
    let file = work.path("movie.\(format)")
    let result = try await work.offline(["export", "movie", "-o", file, "--quiet"])
    #expect(result.status == 0, "\(result.stderrText)")

    let probe = try await MediaProbe.of(file)
    #expect(probe.kinds == ["video", "audio", "audio", "subtitle"], "\(probe.streams)")
    let languages = probe.streams.filter { $0.codec_type != "video" }.map { $0.tags?["language"] }
    #expect(languages == ["eng", "fre", "eng"], "\(probe.streams)")
    #expect(abs(probe.duration - origin.files.duration) <= 1, "\(probe.duration) s")
    if format == "mp4" { try expectMoovFirst(file) }
    // Every picture and both languages' samples as the offline copy decodes them.
    let copy = work.path("movie/index.m3u8")
    for stream in ["v:0", "a:0", "a:1"] {
      let exported = try await FFmpeg.decodedMD5(file, stream: stream)
      let expected = try await FFmpeg.decodedMD5(copy, stream: stream)
      #expect(exported.md5 == expected.md5 && expected.md5.hasPrefix("MD5="), "\(stream)")
    }
  }

  @Test(arguments: [DASHStreamFixture.timeline, .number, .segmentBase], ["mp4", "mkv"])
  func aDASHFixtureExportsWithEveryPictureOfTheOrigin(
    kind: DASHStreamFixture, format: String
  ) async throws {
    let origin = try await DASHCommandTests.Origin(kind)
    let expected = try await FFmpeg.decodedMD5(origin.url, stream: "v:0")
    let work = try Work()
    let file = work.path("movie.\(format)")
    let result = try await work.offline(["get", origin.url, "-o", file, "--quiet"])
    #expect(result.status == 0, "\(result.stderrText)")
    let probe = try await MediaProbe.of(file)
    #expect(probe.kinds.sorted() == ["audio", "video"], "\(probe.streams)")
    #expect(abs(probe.duration - origin.files.duration) <= 0.1, "\(probe.duration) s")
    if format == "mp4" { try expectMoovFirst(file) }
    let exported = try await FFmpeg.decodedMD5(file, stream: "v:0")
    #expect(exported.md5 == expected.md5 && expected.md5.hasPrefix("MD5="))
  }
}
