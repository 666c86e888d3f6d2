import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

/// The offline MPD: the same structure, relative names, and ffmpeg decodes it like the
/// origin.
@Suite(.enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct OfflineManifestTests {
  let resolver = SegmentResolver()

  /// Copies every segment of `mpd` (fetched from `manifestURL`, a file) into `folder` under
  /// names of our own, writes `offline.mpd` there and returns its path.
  func makeOfflineCopy(_ mpd: MPD, from manifestURL: URL, into folder: TemporaryDirectory)
    throws -> String
  {
    var files: [RepresentationPath: OfflineRepresentation] = [:]
    for path in mpd.representationPaths {
      var listing = try resolver.segments(for: path, in: mpd, manifestURL: manifestURL)
      if let index = listing.index, let range = index.byteRange {
        listing = try listing.applying(SegmentIndex.parse([UInt8](try read(index.url, range))))
      }
      let folderName = "p\(path.period)-a\(path.adaptationSet)-r\(path.representation)"
      try FileManager.default.createDirectory(
        at: folder.file(folderName), withIntermediateDirectories: true)
      var initName: String?
      if let initialization = listing.initialization {
        initName = "\(folderName)/init.mp4"
        try read(initialization.url, initialization.byteRange).write(to: folder.file(initName!))
      }
      var names: [String] = []
      for (index, segment) in listing.segments.enumerated() {
        let name = "\(folderName)/segment-\(index + 1).m4s"
        try read(segment.url, segment.byteRange).write(to: folder.file(name))
        names.append(name)
      }
      files[path] = try OfflineRepresentation(
        listing, initialization: initName, segmentNames: names)
    }
    let offline = try OfflineManifest.make(from: mpd, files: files)
    let path = folder.file("offline.mpd").path
    try MPDWriter.write(offline).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The bytes of a local file, or of `range` of it.
  func read(_ url: URL, _ range: ByteRange?) throws -> Data {
    let data = try Data(contentsOf: url)
    guard let range else { return data }
    return data.subdata(in: Int(range.first)..<Int(range.last) + 1)
  }

  @Test func anOfflineCopyOfATimelineTemplateDecodesLikeTheOrigin() async throws {
    let fixture = try await DASHFixture.make(["-use_template", "1", "-use_timeline", "1"])
    let mpd = try MPDParser.parse(fixture.manifest())
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(mpd, from: fixture.manifestURL, into: folder)
    let text = try String(contentsOfFile: offline, encoding: .utf8)
    #expect(text.contains("startNumber=\"1\" initialization=\"p0-a0-r0/init.mp4\""))
    #expect(text.contains("media=\"p0-a0-r0/segment-$Number$.m4s\""))
    // The only BaseURL is the manifest's own folder (OfflineManifest.baseURL).
    #expect(text.components(separatedBy: "<BaseURL>").count == 2)
    #expect(text.contains("<BaseURL>./</BaseURL>") && !text.contains(fixture.directory.path))
    // The structure is kept: the same sets, representations and attributes.
    let reparsed = try MPDParser.parse(Data(contentsOf: URL(fileURLWithPath: offline)))
    #expect(reparsed.periods[0].adaptationSets.map(\.contentType) == ["video", "audio"])
    #expect(
      reparsed.periods[0].adaptationSets[0].representations[0].common
        == mpd.periods[0].adaptationSets[0].representations[0].common)
    for stream in ["v:0", "a:0"] {
      let origin = try await Decoded.md5(fixture.manifestURL.path, stream: stream)
      let copy = try await Decoded.md5(offline, stream: stream)
      #expect(origin.errors.isEmpty && copy.errors.isEmpty, "\(origin.errors) \(copy.errors)")
      #expect(copy.md5.hasPrefix("MD5=") && copy.md5 == origin.md5)
    }
  }

  /// ffmpeg's DASH reader, given a `$Number$` template, asks for segments until one fails
  /// (and prints that failure), so for audio it also decodes a fourth 5 ms chunk ffmpeg's
  /// muxer wrote but the manifest does not address (ceil(6 s / 2 s) = 3). Video is compared
  /// with the origin; audio with the init section and the three addressed segments joined.
  @Test func anOfflineCopyOfANumberTemplateDecodesLikeWhatTheManifestAddresses() async throws {
    let fixture = try await DASHFixture.make(
      ["-use_template", "1", "-use_timeline", "0"], languages: ["eng", "fra"])
    let mpd = try MPDParser.parse(fixture.manifest())
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(mpd, from: fixture.manifestURL, into: folder)
    let reparsed = try MPDParser.parse(Data(contentsOf: URL(fileURLWithPath: offline)))
    #expect(reparsed.periods[0].adaptationSets.map(\.lang) == [nil, "eng", "fra"])
    let video = (
      try await Decoded.md5(fixture.manifestURL.path, stream: "v:0"),
      try await Decoded.md5(offline, stream: "v:0")
    )
    #expect(video.1.errors.isEmpty, "\(video.1.errors)")
    #expect(video.1.md5.hasPrefix("MD5=") && video.1.md5 == video.0.md5)
    for (index, path) in mpd.representationPaths.enumerated().dropFirst() {
      let listing = try resolver.segments(for: path, in: mpd, manifestURL: fixture.manifestURL)
      var joined = try Data(contentsOf: try #require(listing.initialization?.url))
      for segment in listing.segments { joined += try Data(contentsOf: segment.url) }
      let reference = folder.file("joined-\(index).mp4")
      try joined.write(to: reference)
      let expected = try await Decoded.md5(reference.path, stream: "a:0")
      let copy = try await Decoded.md5(offline, stream: "a:\(index - 1)")
      #expect(expected.errors.isEmpty && copy.errors.isEmpty, "\(expected.errors) \(copy.errors)")
      #expect(copy.md5.hasPrefix("MD5=") && copy.md5 == expected.md5)
    }
  }

  /// ffmpeg's DASH reader decodes its own single-file SegmentList wrong (NOTES-linux.md), so
  /// the reference is the MP4 file itself, read by the MP4 demuxer.
  @Test(arguments: [false, true])
  func anOfflineCopyOfASingleFileDecodesLikeTheFileItself(globalSidx: Bool) async throws {
    let fixture = try await DASHFixture.make(
      ["-single_file", "1"] + (globalSidx ? ["-global_sidx", "1"] : []))
    let mpd = try MPDParser.parse(fixture.manifest())
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(mpd, from: fixture.manifestURL, into: folder)
    for (index, stream) in ["v:0", "a:0"].enumerated() {
      let file = fixture.directory.file("manifest-stream\(index).mp4").path
      let origin = try await Decoded.md5(file, stream: stream)
      let copy = try await Decoded.md5(offline, stream: stream)
      #expect(origin.errors.isEmpty && copy.errors.isEmpty, "\(origin.errors) \(copy.errors)")
      #expect(copy.md5.hasPrefix("MD5=") && copy.md5 == origin.md5)
    }
  }

  /// Issue 36, item 1: every kind of input with ten segments of 20 video frames per stream
  /// (a `SegmentBase` cut into one file per `sidx` reference): each stream of the copy
  /// decodes to the same frames as the media the origin addresses, joined and read by the
  /// MP4 demuxer. As a `SegmentList`, ffmpeg 5.1 decoded the first two segments only.
  @Test(arguments: DASHPlaybackFixture.allCases)
  func anOfflineCopyOfTenSegmentsPerStreamDecodesToItsEnd(_ kind: DASHPlaybackFixture) async throws
  {
    let origin = try TemporaryDirectory(prefix: "dash-origin")
    _ = try await kind.make(in: origin.url)
    let manifestURL = origin.file("manifest.mpd")
    let mpd = try MPDParser.parse(Data(contentsOf: manifestURL))
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(mpd, from: manifestURL, into: folder)
    let copy = try MPDParser.parse(Data(contentsOf: URL(fileURLWithPath: offline)))
    for period in mpd.periods.indices {
      var single = copy
      single.periods = [copy.periods[period]]
      single.periods[0].start = 0
      single.periods[0].duration = nil
      single.mediaPresentationDuration = copy.periodDuration(at: period)
      let alone = folder.file("period\(period).mpd").path
      try MPDWriter.write(single).write(toFile: alone, atomically: true, encoding: .utf8)
      for (set, stream) in [(0, "v:0"), (1, "a:0")] {
        let path = RepresentationPath(period: period, adaptationSet: set, representation: 0)
        var listing = try resolver.segments(for: path, in: mpd, manifestURL: manifestURL)
        if let index = listing.index, let range = index.byteRange {
          listing = try listing.applying(SegmentIndex.parse([UInt8](try read(index.url, range))))
        }
        #expect(listing.segments.count >= 10, "\(kind) \(path)")
        let parts = try ((listing.initialization.map { [$0] } ?? []) + listing.segments).map {
          try read($0.url, $0.byteRange)
        }
        let expected = try await FFmpeg.frameMD5s(ofJoined: parts, video: set == 0, in: folder.url)
        let decoded = try await FFmpeg.frameMD5s(alone, stream: stream)
        #expect(decoded.errors.isEmpty, "\(kind) \(period) \(stream): \(decoded.errors)")
        #expect(
          decoded.hashes.count == expected.hashes.count,
          "\(kind) \(period) \(stream): \(decoded.hashes.count) of \(expected.hashes.count)")
        #expect(decoded.hashes == expected.hashes && !expected.hashes.isEmpty)
        if set == 0 {
          let frames = DASHPlaybackFixture.periodSeconds * DASHPlaybackFixture.frameRate
          #expect(expected.hashes.count == frames)
        }
      }
    }
  }

  /// Pins the offline copy of a manifest without `profiles`: ffmpeg 5.1's DASH demuxer
  /// refuses an MPD without a profile it knows ("Invalid data found when processing
  /// input"), so the copy always declares the full profile, which its SegmentLists meet.
  @Test func anOfflineCopyOfAManifestWithoutProfilesStillDecodes() async throws {
    let fixture = try await DASHFixture.make(["-use_template", "1", "-use_timeline", "1"])
    var mpd = try MPDParser.parse(fixture.manifest())
    mpd.profiles = nil
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(mpd, from: fixture.manifestURL, into: folder)
    let origin = try await Decoded.md5(fixture.manifestURL.path, stream: "v:0")
    let copy = try await Decoded.md5(offline, stream: "v:0")
    #expect(copy.errors.isEmpty, "\(copy.errors)")
    #expect(copy.md5.hasPrefix("MD5=") && copy.md5 == origin.md5)
  }

  /// A two-Period manifest written by hand over ffmpeg's media (the same files twice): the
  /// counts match the files, and the offline copy keeps both Periods in order with their
  /// start and duration. ffmpeg 5.1 plays only one Period of a multi-Period MPD (its DASH
  /// demuxer picks the longest), so the decode is checked for errors, not length.
  @Test func aTwoPeriodManifestOverFFmpegMediaKeepsItsPeriodsOffline() async throws {
    let fixture = try await DASHFixture.make(["-use_template", "1", "-use_timeline", "1"])
    let ffmpegMPD = try MPDParser.parse(fixture.manifest())
    var mpd = ffmpegMPD
    mpd.mediaPresentationDuration = 12
    mpd.periods = [ffmpegMPD.periods[0], ffmpegMPD.periods[0]]
    mpd.periods[0].id = "first"
    mpd.periods[0].start = nil
    mpd.periods[0].duration = 6
    mpd.periods[1].id = "second"
    mpd.periods[1].start = nil
    let url = fixture.directory.file("two-periods.mpd")
    try MPDWriter.write(mpd).write(to: url, atomically: true, encoding: .utf8)
    let parsed = try MPDParser.parse(Data(contentsOf: url))
    #expect(parsed.periodStart(at: 1) == 6 && parsed.periodDuration(at: 1) == 6)
    for path in parsed.representationPaths {
      let listing = try resolver.segments(for: path, in: parsed, manifestURL: url)
      let chunks = try fixture.files(withPrefix: "chunk-stream\(path.adaptationSet)-")
      #expect(listing.segments.map(\.url.lastPathComponent) == chunks)
    }
    let folder = try TemporaryDirectory(prefix: "dash-offline")
    let offline = try makeOfflineCopy(parsed, from: url, into: folder)
    let copy = try MPDParser.parse(Data(contentsOf: URL(fileURLWithPath: offline)))
    #expect(copy.periods.map(\.id) == ["first", "second"])
    #expect(copy.periods.map(\.start) == [0, 6] && copy.periods.map(\.duration) == [6, 6])
    let decoded = try await Decoded.md5(offline, stream: "v:0")
    #expect(decoded.errors.isEmpty && decoded.md5.hasPrefix("MD5="), "\(decoded.errors)")
  }

  @Test func representationsLeftOutAreDroppedWithTheirEmptySets() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD mediaPresentationDuration="PT4S"><BaseURL>https://cdn.example.com/</BaseURL>
        <Period><AdaptationSet contentType="video"><SegmentTemplate media="$Number$" duration="2"/>
          <Representation id="hi" bandwidth="2"/><Representation id="lo" bandwidth="1"/></AdaptationSet>
          <AdaptationSet contentType="text"><Representation id="t" bandwidth="1"><BaseURL>t.vtt</BaseURL></Representation></AdaptationSet>
        </Period>
      </MPD>
      """)
    let lo = RepresentationPath(period: 0, adaptationSet: 0, representation: 1)
    let text = RepresentationPath(period: 0, adaptationSet: 1, representation: 0)
    let listing = try resolver.segments(
      for: lo, in: mpd, manifestURL: URL(string: "https://o.example/m.mpd")!)
    let files = [
      lo: try OfflineRepresentation(
        listing, initialization: nil, segmentNames: ["lo/1.m4s", "lo/2.m4s"]),
      text: OfflineRepresentation(initialization: nil, segments: [.init(name: "text/t.vtt")]),
    ]
    let offline = try OfflineManifest.make(from: mpd, files: files)
    #expect(offline.baseURLs == ["./"] && offline.type == .static)
    #expect(offline.periods[0].start == 0 && offline.periods[0].duration == 4)
    #expect(offline.periods[0].adaptationSets[0].representations.map(\.id) == ["lo"])
    #expect(offline.periods[0].adaptationSets[0].segmentInfo.isEmpty)
    #expect(offline.periods[0].adaptationSets[1].representations[0].baseURLs == ["text/t.vtt"])
    let template = offline.periods[0].adaptationSets[0].representations[0].segmentInfo.template
    #expect(template?.media == "lo/$Number$.m4s" && template?.startNumber == 1)
    #expect(template?.timeline == [SegmentTimelineEntry(time: 0, duration: 2, repeatCount: 1)])
    #expect(throws: MPDError.self) {
      try OfflineRepresentation(listing, initialization: nil, segmentNames: ["only-one"])
    }
  }

  /// Pins the unread index: a SegmentBase listing whose `sidx` was not applied has no
  /// segments yet, and used to give an offline Representation with none.
  @Test func aListingWhoseIndexWasNotAppliedIsRefused() throws {
    let listing = RepresentationSegments(
      index: SegmentReference(
        url: URL(string: "https://a.example/v.mp4")!, byteRange: ByteRange(first: 0, last: 99)))
    #expect(throws: MPDError.self) {
      try OfflineRepresentation(listing, initialization: nil, segmentNames: [])
    }
  }

  @Test func writingAndParsingAgainGivesTheSameManifest() async throws {
    for options in [["-use_template", "1", "-use_timeline", "1"], ["-single_file", "1"]] {
      let fixture = try await DASHFixture.make(options, languages: ["eng", "fra"])
      let mpd = try MPDParser.parse(fixture.manifest())
      let written = MPDWriter.write(mpd)
      #expect(try MPDParser.parse(written) == mpd)
      #expect(MPDWriter.write(try MPDParser.parse(written)) == written)
    }
  }
}
