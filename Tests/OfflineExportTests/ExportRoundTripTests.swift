import Foundation
import OfflineExport
import TestTiming
import Testing

/// Offline copies made by ffmpeg, exported to MP4 and Matroska, then looked at with ffprobe and
/// decoded by ffmpeg: the tracks, the duration, `moov` before `mdat`, and every picture and
/// sample equal to the offline copy's.
@Suite(.timed) struct ExportRoundTripTests {
  @Test(arguments: Fixture.Kind.allCases, ExportFormat.allCases)
  func exportedFilePlaysLikeTheOfflineCopy(kind: Fixture.Kind, format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(kind, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(source: fixture.folder, destination: destination).run()

    let expected = try fixture.playlistDuration()
    let probe = try Probe.of(destination)
    #expect(probe.streams.map(\.codec_type) == ["video", "audio"])
    #expect(probe.streams.map(\.codec_name) == ["h264", "aac"])
    #expect(abs(probe.duration - expected) <= 2, "\(probe.duration) s against \(expected) s")
    #expect(report.tracks.map(\.codec) == ["h264", "aac"])
    #expect(report.verification.packetsCompared == report.tracks.reduce(0) { $0 + $1.packets })
    #expect(report.discontinuities == (kind == .discontinuous ? 1 : 0))
    if format == .mp4 {
      let boxes = try topLevelBoxes(of: destination)
      let moov = try #require(boxes.firstIndex(of: "moov"))
      let mdat = try #require(boxes.firstIndex(of: "mdat"))
      #expect(moov < mdat, "\(boxes)")
    }
    for selector in ["v", "a"] {
      #expect(
        try Probe.decodedMD5(destination, selector)
          == Probe.decodedMD5(fixture.playlist, selector), "stream \(selector)")
    }
  }
}
