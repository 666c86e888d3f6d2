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
}
