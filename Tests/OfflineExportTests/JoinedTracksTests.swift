import Foundation
import TestTiming
import Testing

@testable import OfflineExport

/// The input the AVFoundation side of the export reads (not compiled here), made and checked
/// on Linux: an fMP4 offline copy joined into one fragmented MP4 that decodes like the copy.
@Suite(.serialized, .timed) struct JoinedTracksTests {
  @Test func anFMP4CopyJoinsIntoOneFileThatDecodesLikeIt() throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.fragmentedMP4, in: folder.url)
    let joined = try JoinedTracks(ExportInput.locate(fixture.folder))
    #expect(joined.files.count == 1)
    let file = try #require(joined.files.first)
    #expect(file.isDefault && file.language == nil)
    let probe = try Probe.of(file.url)
    #expect(probe.streams.map(\.codec_type) == ["video", "audio"])
    #expect(abs(probe.duration - 6) <= 0.1, "\(probe.duration) s")
    #expect(try Probe.decodedMD5(file.url, "v") == Probe.decodedMD5(fixture.playlist, "v"))
  }

  @Test func transportStreamSegmentsAreRefusedNamingWhy() throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, in: folder.url)
    #expect(
      throws: ExportError.unsupportedSource(
        path: fixture.playlist.path,
        reason: "its segments are not fragmented MP4 (no EXT-X-MAP), which AVFoundation reads")
    ) {
      try JoinedTracks(ExportInput.locate(fixture.folder))
    }
    let left = try FileManager.default.contentsOfDirectory(
      atPath: FileManager.default.temporaryDirectory.path
    ).filter { $0.hasPrefix("offline-export-joined-") }
    #expect(left.isEmpty, "the temporary folder is removed: \(left)")
  }
}
