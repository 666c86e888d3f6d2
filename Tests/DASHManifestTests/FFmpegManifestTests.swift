import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

/// Manifests ffmpeg's DASH muxer writes parse to the Representations and segments it made.
@Suite(.enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct FFmpegManifestTests {
  let resolver = SegmentResolver()

  /// Every resolved URL of `listing` is a file of `fixture`'s folder.
  func expectFilesExist(_ listing: RepresentationSegments, _ fixture: DASHFixture) {
    for url in [listing.initialization?.url].compactMap({ $0 }) + listing.segments.map(\.url) {
      #expect(url.isFileURL)
      #expect(FileManager.default.fileExists(atPath: url.path), "\(url) was not written")
    }
  }

  @Test func aTemplateWithATimelineListsEverySegmentFFmpegWrote() async throws {
    let fixture = try await DASHFixture.make(["-use_template", "1", "-use_timeline", "1"])
    let mpd = try MPDParser.parse(fixture.manifest())
    #expect(!mpd.isLive)
    #expect(mpd.mediaPresentationDuration == 6)
    #expect(mpd.periods.count == 1)
    let sets = mpd.periods[0].adaptationSets
    #expect(sets.map(\.contentType) == ["video", "audio"])
    #expect(sets.map(\.representations.count) == [1, 1])
    let video = sets[0].representations[0]
    #expect(video.common.codecs?.hasPrefix("avc1.") == true)
    #expect(video.common.width == 160 && video.common.height == 90)
    #expect(sets[0].common.frameRate == FrameRate(numerator: 25, denominator: 1))
    #expect(sets[1].representations[0].common.audioSamplingRate == "48000")
    for (index, path) in mpd.representationPaths.enumerated() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: fixture.manifestURL)
      let chunks = try fixture.files(withPrefix: "chunk-stream\(index)-")
      #expect(listing.segments.count == chunks.count)
      #expect(listing.segments.map(\.url.lastPathComponent) == chunks)
      #expect(listing.initialization?.url.lastPathComponent == "init-stream\(index).m4s")
      expectFilesExist(listing, fixture)
      // The timeline covers the presentation, in the template's timescale.
      let total = listing.segments.compactMap(\.duration).reduce(0, +)
      #expect(Double(total) / Double(listing.timescale) == 6)
    }
  }

  @Test func aNumberTemplateListsTheSegmentsThatCoverThePeriod() async throws {
    let fixture = try await DASHFixture.make(["-use_template", "1", "-use_timeline", "0"])
    let mpd = try MPDParser.parse(fixture.manifest())
    let template = mpd.periods[0].adaptationSets[0].representations[0].segmentInfo.template
    #expect(template?.timeline == nil)
    #expect(template?.duration == 2_000_000 && template?.timescale == 1_000_000)
    for (index, path) in mpd.representationPaths.enumerated() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: fixture.manifestURL)
      // ceil(6 s / 2 s): ffmpeg also writes a fourth audio chunk of 5 ms that this
      // manifest does not address (its timeline twin lists it).
      #expect(listing.segments.count == 3)
      #expect(listing.segments.map(\.number) == [1, 2, 3])
      #expect(listing.segments[0].url.lastPathComponent == "chunk-stream\(index)-00001.m4s")
      expectFilesExist(listing, fixture)
    }
  }

  @Test func aSingleFileSegmentListGivesContiguousByteRangesOfOneFile() async throws {
    let fixture = try await DASHFixture.make(["-single_file", "1"])
    let mpd = try MPDParser.parse(fixture.manifest())
    let expectedCounts = [3, 4]
    for (index, path) in mpd.representationPaths.enumerated() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: fixture.manifestURL)
      let file = fixture.directory.file("manifest-stream\(index).mp4")
      let size = try #require(
        FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64)
      #expect(listing.segments.count == expectedCounts[index])
      #expect(Set(listing.segments.map(\.url)) == [file.standardizedFileURL])
      #expect(listing.initialization?.url.standardizedFileURL == file.standardizedFileURL)
      let ranges =
        try [listing.initialization?.byteRange].compactMap { $0 }
        + listing.segments.map { try #require($0.byteRange) }
      #expect(ranges.first?.first == 0)
      #expect(ranges.last?.last == size - 1)
      for (before, after) in zip(ranges, ranges.dropFirst()) {
        #expect(after.first == before.last + 1)
      }
    }
  }

  @Test func twoAudioLanguagesAreTwoAdaptationSetsWithTheirLanguage() async throws {
    let fixture = try await DASHFixture.make(
      ["-use_template", "1", "-use_timeline", "1"], languages: ["eng", "fra"])
    let mpd = try MPDParser.parse(fixture.manifest())
    let sets = mpd.periods[0].adaptationSets
    #expect(sets.map(\.contentType) == ["video", "audio", "audio"])
    #expect(sets.map(\.lang) == [nil, "eng", "fra"])
    for (index, path) in mpd.representationPaths.enumerated() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: fixture.manifestURL)
      #expect(
        listing.segments.count == (try fixture.files(withPrefix: "chunk-stream\(index)-")).count)
      expectFilesExist(listing, fixture)
    }
  }
}
