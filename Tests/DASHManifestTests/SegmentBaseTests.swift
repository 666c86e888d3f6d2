import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

/// A `SegmentBase` with an `indexRange`, written by hand for a file ffmpeg made with one
/// `sidx` box (`-global_sidx 1`), gives the segments ffmpeg's own SegmentList names.
@Suite(.enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct SegmentBaseTests {
  /// A manifest with one Representation per file, each a SegmentBase over its sidx.
  static func segmentBaseManifest(files: [(name: String, sidx: (offset: Int, size: Int))])
    -> String
  {
    var text = """
      <?xml version="1.0" encoding="utf-8"?>
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S"
        profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" minBufferTime="PT2S">
        <Period>

      """
    for (index, file) in files.enumerated() {
      let kind = index == 0 ? "video" : "audio"
      text += """
            <AdaptationSet contentType="\(kind)" mimeType="\(kind)/mp4">
              <Representation id="\(index)" bandwidth="100000">
                <BaseURL>\(file.name)</BaseURL>
                <SegmentBase indexRange="\(file.sidx.offset)-\(file.sidx.offset + file.sidx.size - 1)">
                  <Initialization range="0-\(file.sidx.offset - 1)"/>
                </SegmentBase>
              </Representation>
            </AdaptationSet>

        """
    }
    return text + "  </Period>\n</MPD>\n"
  }

  @Test func theSidxOfAGlobalSidxFileGivesTheRangesFFmpegListed() async throws {
    let fixture = try await DASHFixture.make(["-single_file", "1", "-global_sidx", "1"])
    let ffmpegMPD = try MPDParser.parse(fixture.manifest())
    var files: [(name: String, sidx: (offset: Int, size: Int))] = []
    for index in 0..<2 {
      let name = "manifest-stream\(index).mp4"
      let bytes = [UInt8](try Data(contentsOf: fixture.directory.file(name)))
      files.append((name, try #require(DASHStreamFixture.box("sidx", in: bytes))))
    }
    let url = fixture.directory.file("segment-base.mpd")
    try Self.segmentBaseManifest(files: files).write(to: url, atomically: true, encoding: .utf8)
    let mpd = try MPDParser.parse(Data(contentsOf: url))
    let resolver = SegmentResolver()
    for (index, path) in mpd.representationPaths.enumerated() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: url)
      #expect(listing.segments.isEmpty)
      let index_ = try #require(listing.index)
      let range = try #require(index_.byteRange)
      let bytes = [UInt8](try Data(contentsOf: index_.url))
      let sidx = try SegmentIndex.parse(Array(bytes[Int(range.first)...Int(range.last)]))
      let applied = try listing.applying(sidx)
      let expected = try resolver.segments(
        for: ffmpegMPD.representationPaths[index], in: ffmpegMPD,
        manifestURL: fixture.manifestURL)
      #expect(applied.segments.map(\.byteRange) == expected.segments.map(\.byteRange))
      #expect(applied.segments.count == [3, 4][index])
      #expect(
        applied.initialization?.byteRange
          == ByteRange(first: 0, last: UInt64(files[index].sidx.offset - 1)))
      let seconds =
        Double(applied.segments.compactMap(\.duration).reduce(0, +)) / Double(applied.timescale)
      #expect(abs(seconds - 6) < 0.1)
    }
  }
}
