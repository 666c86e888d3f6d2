import Foundation
import OfflineExport
import TestTiming
import Testing

/// Long runs of discontinuities with timestamp resets give one timeline as long as the
/// playlist says: the case where other tools report a third of a film's length.
@Suite(.timed) struct ExportTimelineTests {
  @Test(arguments: ExportFormat.allCases)
  func twoThousandSegmentsWithFourHundredResetsLastAsLongAsThePlaylist(format: ExportFormat)
    async throws
  {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeManyResets(parts: 400, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(source: fixture.folder, destination: destination).run()

    let expected = try fixture.playlistDuration()
    let segments =
      try String(contentsOf: fixture.playlist, encoding: .utf8)
      .components(separatedBy: "#EXTINF").count - 1
    #expect(segments == 2000)
    #expect(report.discontinuities == 399)
    let probe = try Probe.of(destination)
    // Within one segment (0.4 s) of the playlist's duration, by ffprobe and by the report.
    #expect(abs(probe.duration - expected) <= 0.4, "\(probe.duration) s against \(expected) s")
    #expect(abs(report.duration - expected) <= 0.4)
    // The audio is as long as the video: no part's few extra milliseconds pile up.
    let audio = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a", "-show_entries", "packet=pts_time", "-of", "csv=p=0",
        destination.path,
      ])
    let lastAudio =
      String(decoding: audio, as: UTF8.self).split(separator: "\n")
      .compactMap { Double($0) }.max() ?? 0
    #expect(abs(lastAudio - expected) <= 0.4, "the last audio packet is at \(lastAudio) s")
  }

  /// Pins a failed export: the epoch's shift was anchored on decode times, so the first
  /// picture after a part with B-frames (shown two frames after decoded) was put two frames
  /// before that part's last picture ended, and the check after writing refused the file
  /// ("the presentation times of track 0 (h264) go back near packet 131"); the other way round,
  /// each part with B-frames started two frames late.
  @Test func twoThousandSegmentsOfTwoEncodingsOneWithBFramesLastAsLongAsThePlaylist()
    async throws
  {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeManyResets(
      parts: 400, bFramesEveryOtherPart: true, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.mp4")
    let report = try await StreamExport(source: fixture.folder, destination: destination).run()

    let expected = try fixture.playlistDuration()
    #expect(report.discontinuities == 399)
    let probe = try Probe.of(destination)
    #expect(abs(probe.duration - expected) <= 0.4, "\(probe.duration) s against \(expected) s")
    // Every picture of every part, in order: 50 frames each.
    let frames = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v", "-count_packets", "-show_entries",
        "stream=nb_read_packets", "-of", "csv=p=0", destination.path,
      ])
    #expect(
      String(decoding: frames, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        == "20000")
  }
}
