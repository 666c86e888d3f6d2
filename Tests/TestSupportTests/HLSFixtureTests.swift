import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(1)), .timed)
struct HLSFixtureTests {
  /// A fixture made into its own directory and served by nginx (an `HLSOrigin`), with the
  /// checks these tests make of it.
  struct Served {
    let origin: HLSOrigin
    var files: HLSFixtureFiles { origin.files }
    var nginx: NginxServer { origin.nginx }

    init(_ fixture: HLSFixture, segmentDuration: Double = 1, segmentCount: Int? = nil) async throws
    {
      origin = try await HLSOrigin(
        fixture, segmentDuration: segmentDuration, segmentCount: segmentCount)
    }

    /// The text of the playlist at `path` inside the fixture, such as `"/master.m3u8"`.
    func playlist(_ path: String? = nil) throws -> String {
      let file = files.folder.appendingPathComponent(String((path ?? files.entryPath).dropFirst()))
      return try String(contentsOf: file, encoding: .utf8)
    }

    /// Decodes `path` (the entry playlist by default) from the local folder and over HTTP and
    /// expects both to be clean and as long as the source.
    func expectDecodes(_ path: String? = nil) async throws {
      let path = path ?? files.entryPath
      let local = files.folder.appendingPathComponent(String(path.dropFirst())).path
      for input in [local, nginx.url(path).absoluteString] {
        // The fixtures' own keys are `keyN.key`, which ffmpeg opens locally only when told.
        let result = try await FFmpeg.decode(input, allowingAllExtensions: input == local)
        #expect(result.errors.isEmpty, "\(input)")
        #expect(abs(result.duration - files.duration) <= 0.5, "\(input): \(result.duration) s")
      }
    }
  }

  /// The lines of `text` that start with `prefix`.
  func lines(_ text: String, _ prefix: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
  }

  @Test func tsVariantsOffersThreeResolutionsOfMPEGTS() async throws {
    let served = try await Served(.tsVariants)
    #expect(served.files.entryPath == "/master.m3u8")
    let variants = lines(try served.playlist(), "#EXT-X-STREAM-INF:")
    #expect(variants.count == 3)
    for resolution in ["320x180", "640x360", "960x540"] {
      #expect(variants.contains { $0.contains("RESOLUTION=\(resolution)") })
    }
    #expect(lines(try served.playlist("/v0/index.m3u8"), "v0").isEmpty)
    #expect(lines(try served.playlist("/v0/index.m3u8"), "seg").count == 6)
    try await served.expectDecodes()
    try await served.expectDecodes("/v0/index.m3u8")
  }

  @Test func fmp4HasAnInitializationSection() async throws {
    let served = try await Served(.fmp4)
    let playlist = try served.playlist()
    #expect(lines(playlist, "#EXT-X-MAP:URI=\"init.mp4\"").count == 1)
    #expect(lines(playlist, "seg").allSatisfy { $0.hasSuffix(".m4s") })
    #expect(lines(playlist, "#EXTINF:").count == 6)
    try await served.expectDecodes()
  }

  @Test func aes128RotatesKeysEveryTwoSegmentsWithAndWithoutIVs() async throws {
    let served = try await Served(.aes128Rotating)
    let playlist = try served.playlist()
    #expect(lines(playlist, "#EXT-X-MEDIA-SEQUENCE:7").count == 1)
    #expect(lines(playlist, "seg").first == "seg7.ts")
    let keys = lines(playlist, "#EXT-X-KEY:METHOD=AES-128,URI=\"key")
    #expect(keys.count == 3)
    #expect(keys.map { $0.contains(",IV=0x") } == [true, false, true])
    #expect(served.files.keys.map(\.lastPathComponent) == ["key0.key", "key1.key", "key2.key"])
    for key in served.files.keys { #expect(try Data(contentsOf: key).count == 16) }
    // Encrypted segments no longer start with the MPEG-TS sync byte 0x47.
    let segment = try Data(contentsOf: served.files.folder.appendingPathComponent("seg9.ts"))
    #expect(segment.count % 16 == 0 && segment.first != 0x47)
    try await served.expectDecodes()
  }

  @Test func renditionsHaveTwoAudioLanguagesAndWebVTTSubtitles() async throws {
    let served = try await Served(.renditions)
    let playlist = try served.playlist()
    let audio = lines(playlist, "#EXT-X-MEDIA:TYPE=AUDIO,")
    #expect(audio.count == 2)
    #expect(audio.filter { $0.contains("DEFAULT=YES") }.count == 1)
    #expect(audio.contains { $0.contains("LANGUAGE=\"en\"") && $0.contains("DEFAULT=YES") })
    #expect(audio.contains { $0.contains("LANGUAGE=\"fr\"") })
    let subtitles = lines(playlist, "#EXT-X-MEDIA:TYPE=SUBTITLES,")
    #expect(subtitles.count == 1 && subtitles[0].contains("LANGUAGE=\"en\""))
    #expect(lines(playlist, "#EXT-X-STREAM-INF:").count == 1)
    #expect(lines(playlist, "#EXT-X-STREAM-INF:")[0].contains("SUBTITLES=\"subs\""))
    try await served.expectDecodes()
    try await served.expectDecodes("/audio_fr/index.m3u8")

    let cue = try String(
      contentsOf: served.files.folder.appendingPathComponent("subs/seg5.vtt"), encoding: .utf8)
    #expect(cue.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:"))
    #expect(cue.contains(",LOCAL:00:00:00.000\n\n00:00:05.000 --> 00:00:05.900\nSecond 5\n"))
    let url = served.nginx.url("/subs/index.m3u8").absoluteString
    let subs = try await FFmpeg.run(["-v", "error", "-i", url, "-f", "webvtt", "-"])
    #expect(subs.status == 0 && subs.stderrText.isEmpty)
    #expect(subs.stdoutText.contains("Second 0") && subs.stdoutText.contains("Second 5"))
  }

  @Test func byteRangeAddressesOneFile() async throws {
    let served = try await Served(.byteRange)
    let playlist = try served.playlist()
    #expect(lines(playlist, "#EXT-X-BYTERANGE:").count == 6)
    #expect(Set(lines(playlist, "index")) == ["index.ts"])
    let names = try FileManager.default.contentsOfDirectory(atPath: served.files.folder.path)
    #expect(names.sorted() == ["index.m3u8", "index.ts"])
    try await served.expectDecodes()
  }

  @Test func manySegmentsHasTheRequestedCount() async throws {
    let served = try await Served(.manySegments, segmentDuration: 0.2, segmentCount: 40)
    #expect(served.files.duration == 8)
    let playlist = try served.playlist()
    #expect(lines(playlist, "#EXTINF:").count == 40)
    #expect(lines(playlist, "#EXT-X-TARGETDURATION:") == ["#EXT-X-TARGETDURATION:1"])
    #expect(try await FFmpeg.probeDuration(served.files.entryFile.path) == 8)
    try await served.expectDecodes()
  }

  @Test func laterCallsCopyTheCachedFixture() async throws {
    let first = try TemporaryDirectory()
    let second = try TemporaryDirectory()
    let a = try await HLSFixture.byteRange.make(in: first.url, duration: 3)
    let b = try await HLSFixture.byteRange.make(in: second.url, duration: 3)
    #expect(a.duration == 3 && b.duration == 3)
    #expect(try Data(contentsOf: a.entryFile) == Data(contentsOf: b.entryFile))
    try Data("damaged".utf8).write(to: a.entryFile)
    #expect(try String(contentsOf: b.entryFile, encoding: .utf8).hasPrefix("#EXTM3U"))
    let c = try await HLSFixture.byteRange.make(in: TemporaryDirectory().url, duration: 3)
    #expect(try String(contentsOf: c.entryFile, encoding: .utf8).hasPrefix("#EXTM3U"))
  }
}
