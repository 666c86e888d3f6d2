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
}
