import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// Issue 42, DASH: every Period of an MPD goes into the file, in order, on one timeline.
/// libavformat 5.1's DASH demuxer reads one Period of an MPD; the export hands it each alone.
@Suite(.timed) struct ExportPeriodTests {
  /// The MD5 of the decoded video of `manifests` one after the other (ffmpeg's concat filter
  /// passes frames through as decoded).
  static func concatenatedVideoMD5(_ manifests: [URL]) throws -> String {
    let inputs = manifests.flatMap { ["-i", $0.path] }
    let labels = manifests.indices.map { "[\($0):v]" }.joined()
    let data = try Tool.run(
      "ffmpeg",
      ["-v", "error"] + inputs + [
        "-filter_complex", "\(labels)concat=n=\(manifests.count):v=1:a=0[v]", "-map", "[v]",
        "-fps_mode", "passthrough", "-f", "md5", "-",
      ])
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(arguments: ExportFormat.allCases)
  func everyPeriodIsExportedInOrderOnOneTimeline(format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeTwoPeriodDASH(in: folder.url)
    let destination = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(
      source: fixture.folder, destination: destination, rereadsSource: true
    ).run()

    let probe = try Probe.of(destination)
    #expect(probe.streams.map(\.codec_type) == ["video", "audio"])
    // Two Periods of 4 s: 8 s, where the first Period alone made 4.
    #expect(abs(probe.duration - 8) <= 0.1, "\(probe.duration) s")
    #expect(abs(report.duration - 8) <= 0.1, "\(report.duration) s")
    #expect(report.discontinuities == 1)
    // Every picture of both Periods, the second's decoded with its own parameter sets.
    let origin = ["a.mpd", "b.mpd"].map { fixture.folder.appendingPathComponent($0) }
    #expect(try Probe.decodedMD5(destination, "v") == Self.concatenatedVideoMD5(origin))
    let videoPackets = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time", "-of",
        "csv=p=0", destination.path,
      ])
    let times = String(decoding: videoPackets, as: UTF8.self).split(separator: "\n")
      .compactMap { Double($0) }.sorted()
    #expect(times.count == 200, "25 fps for 8 s")
    // One frame after another: no gap or overlap where the Periods meet.
    let steps = zip(times.dropFirst(), times).map { $0 - $1 }
    #expect(
      steps.allSatisfy { abs($0 - 0.04) < 0.002 }, "\(steps.filter { abs($0 - 0.04) >= 0.002 })")
  }

  @Test func aPeriodWithOtherTracksIsRefusedAndNothingIsWritten() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeTwoPeriodDASH(in: folder.url)
    let manifest = fixture.folder.appendingPathComponent("index.mpd")
    var text = try String(contentsOf: manifest, encoding: .utf8)
    // The second Period loses its audio AdaptationSet.
    let second = try #require(text.range(of: "<Period id=\"second\""))
    let audio = try #require(
      text.range(of: "<AdaptationSet id=\"1\"", range: second.upperBound..<text.endIndex))
    let end = try #require(
      text.range(of: "</AdaptationSet>", range: audio.upperBound..<text.endIndex))
    text.removeSubrange(audio.lowerBound..<end.upperBound)
    try text.write(to: manifest, atomically: true, encoding: .utf8)

    await #expect(
      throws: ExportError.unsupportedSource(
        path: manifest.path,
        reason: "Period 2 has other tracks (h264) than Period 1 (h264, aac), and one file has "
          + "one set of tracks")
    ) {
      try await StreamExport(
        source: fixture.folder, destination: folder.url.appendingPathComponent("out.mp4")
      ).run()
    }
    #expect(try folder.names() == ["periods"])
  }

  @Test func anAVCRecordGivesItsParameterSetsBehindLengthPrefixes() throws {
    // avcC: version 1, profile 66, level 30, 4-byte lengths, one SPS (3 bytes), one PPS (2).
    let record: [UInt8] = [1, 66, 0, 30, 0xFF, 0xE1, 0, 3, 0x67, 1, 2, 1, 0, 2, 0x68, 9]
    let found = try #require(ParameterSets.units(codec: "h264", extradata: record))
    #expect(found.lengthSize == 4)
    #expect(found.units == [[0x67, 1, 2], [0x68, 9]])
    #expect(
      ParameterSets.prefix(found.units, lengthSize: 4)
        == [0, 0, 0, 3, 0x67, 1, 2, 0, 0, 0, 2, 0x68, 9])
    #expect(ParameterSets.units(codec: "h264", extradata: [0, 0, 0, 1, 0x67]) == nil)
    #expect(ParameterSets.units(codec: "aac", extradata: [0x11, 0x90]) == nil)
  }
}
