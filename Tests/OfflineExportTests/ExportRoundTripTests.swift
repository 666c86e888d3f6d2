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
    let videoCodec = kind == .hevc ? "hevc" : "h264"
    #expect(probe.streams.map(\.codec_name) == [videoCodec, "aac"])
    #expect(abs(probe.duration - expected) <= 2, "\(probe.duration) s against \(expected) s")
    #expect(report.tracks.map(\.codec) == [videoCodec, "aac"])
    #expect(report.verification.packetsCompared == report.tracks.reduce(0) { $0 + $1.packets })
    #expect(report.discontinuities == (kind == .discontinuous ? 1 : 0))
    if format == .mp4 {
      let boxes = try topLevelBoxes(of: destination)
      let moov = try #require(boxes.firstIndex(of: "moov"))
      let mdat = try #require(boxes.firstIndex(of: "mdat"))
      #expect(moov < mdat, "\(boxes)")
    }
    #expect(try Probe.decodedMD5(destination, "v") == Probe.decodedMD5(fixture.playlist, "v"))
    let dropped = report.tracks[1].droppedAtDiscontinuities
    if kind == .discontinuous {
      // The first part's audio runs past its video; the second part's first frame overlaps it
      // and is left out, as players do. Everything else decodes to the same samples.
      #expect((1...2).contains(dropped))
      #expect(
        try Probe.decodedSamples(destination)
          == Probe.decodedSamples(fixture.playlist) - dropped * 1024)
    } else {
      #expect(dropped == 0)
      #expect(try Probe.decodedMD5(destination, "a") == Probe.decodedMD5(fixture.playlist, "a"))
    }
  }
}
