import Foundation
import OfflineExport
import TestTiming
import Testing

/// A master playlist's renditions become tracks of their own, with their languages and
/// default flags.
@Suite(.timed) struct ExportTrackTests {
  @Test(arguments: ExportFormat.allCases)
  func eachAudioRenditionIsATrackWithItsLanguage(format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeWithAudioRenditions(in: folder.url)
    let destination = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(source: fixture.folder, destination: destination).run()

    let probe = try Probe.of(destination)
    #expect(probe.streams.map(\.codec_type) == ["video", "audio", "audio"])
    #expect(probe.streams.dropFirst().map(\.language) == ["eng", "fre"])
    #expect(probe.streams.dropFirst().map(\.isDefault) == [true, false])
    #expect(report.tracks.map(\.language) == [nil, "eng", "fre"])
    #expect(report.tracks.map(\.isDefault) == [true, true, false])
    for selector in ["v", "a:0", "a:1"] {
      #expect(
        try Probe.decodedMD5(destination, selector)
          == Probe.decodedMD5(fixture.playlist, selector), "stream \(selector)")
    }
  }

  /// The MPD's representations become the file's tracks. AAC in MP4 segments starts with
  /// encoder priming at a negative time; ffmpeg's own remux and this export both keep those
  /// samples, where decoding the MPD directly drops them, so the audio is compared with
  /// ffmpeg's `-c copy` remux of the same folder and the video with the MPD.
  @Test(arguments: ExportFormat.allCases)
  func dashRepresentationsBecomeTracks(format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.makeDASH(in: folder.url)
    let manifest = fixture.folder.appendingPathComponent("index.mpd")
    let destination = folder.url.appendingPathComponent("out.\(format.rawValue)")
    let report = try await StreamExport(source: fixture.folder, destination: destination).run()

    let probe = try Probe.of(destination)
    #expect(probe.streams.map(\.codec_type) == ["video", "audio"])
    #expect(abs(probe.duration - 6) <= 2, "\(probe.duration) s")
    #expect(report.discontinuities == 0)
    #expect(try Probe.decodedMD5(destination, "v") == Probe.decodedMD5(manifest, "v"))
    let remux = folder.url.appendingPathComponent("ffmpeg.\(format.rawValue)")
    try Tool.run("ffmpeg", ["-v", "error", "-i", manifest.path, "-c", "copy", remux.path])
    #expect(try Probe.decodedMD5(destination, "a") == Probe.decodedMD5(remux, "a"))
  }
}
