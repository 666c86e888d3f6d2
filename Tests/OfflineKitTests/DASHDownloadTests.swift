import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 17, item 3: presentations made by ffmpeg's DASH muxer, served by nginx, downloaded
/// through the piece engine, then decoded from disk with the origin stopped: every stream
/// decodes to the same frames and samples as the origin (MD5 of the decoded streams).
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHDownloadTests {
  /// Downloads `kind` with every audio and text track into `store`, decodes `streams` of the
  /// origin over http, stops nginx and compares them with the offline copy.
  func expectDecodesLikeTheOrigin(
    _ kind: DASHStreamFixture, streams: [String], store: DASHStore
  ) async throws -> (StreamOutcome, DASHOrigin) {
    let origin = try await DASHOrigin(kind)
    let outcome = try await store.download(
      origin.url, options: StreamConfiguration(audio: .all, subtitles: .all)
    ).run()
    let expected = try await origin.decodedMD5s(streams)
    origin.nginx.stop(graceful: false)
    let full = try await FFmpeg.decode(outcome.index.path)
    #expect(full.errors.isEmpty, "\(kind): \(full.errors)")
    #expect(abs(full.duration - kind.duration) < 0.6, "\(kind): \(full.duration) s")
    for stream in streams {
      let copy = try await FFmpeg.decodedMD5(outcome.index.path, stream: stream)
      #expect(copy.errors.isEmpty, "\(kind) \(stream): \(copy.errors)")
      #expect(copy.md5 == expected[stream], "\(kind) \(stream) decodes differently offline")
    }
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("http://"), "index.mpd names only local files")
    return (outcome, origin)
  }

  @Test func aTimelineTemplateDecodesOfflineLikeTheOrigin() async throws {
    let (outcome, _) = try await expectDecodesLikeTheOrigin(
      .timeline, streams: ["v:0", "a:0"], store: DASHStore())
    // 2 video and 3 audio segments (ffmpeg's muxer writes a last 10 ms audio chunk).
    #expect(outcome.segments == 5 && outcome.initSections == 2)
    #expect(outcome.files == outcome.segments + outcome.initSections)
  }

  /// The SegmentBase fixture: one file per Representation; its sidx is read to find the
  /// segments, and adjacent byte ranges are merged into one piece as for HLS.
  @Test func aSingleFileSegmentBaseDecodesOfflineLikeTheOriginWithItsRangesMerged()
    async throws
  {
    let (outcome, origin) = try await expectDecodesLikeTheOrigin(
      .segmentBase, streams: ["v:0", "a:0"], store: DASHStore())
    #expect(outcome.segments == 5, "segments listed by the two sidx boxes")
    #expect(outcome.files == 4, "an init section and one merged piece per Representation")
    let log = try await origin.nginx.accessLog(minimumCount: 1)
    #expect(log.filter { $0.uri.hasSuffix(".mp4") }.allSatisfy { $0.status == 206 })
  }

  /// Two audio languages and a WebVTT text track, all chosen: each audio decodes like the
  /// origin's and the subtitles read the same.
  @Test func twoLanguagesAndAWebVTTTrackDecodeOfflineLikeTheOrigin() async throws {
    let origin = try await DASHOrigin(.languages)
    let subtitles = try await FFmpeg.subtitles(origin.url.absoluteString)
    #expect(subtitles.text.contains("Hello") && subtitles.text.contains("World"))
    origin.nginx.stop(graceful: false)
    let store = try DASHStore()
    let (outcome, _) = try await expectDecodesLikeTheOrigin(
      .languages, streams: ["v:0", "a:0", "a:1"], store: store)
    let copy = try await FFmpeg.subtitles(outcome.index.path)
    #expect(copy.errors.isEmpty, "\(copy.errors)")
    #expect(copy.text == subtitles.text)
    let mpd = try MPDParser.parse(Data(contentsOf: outcome.index))
    #expect(mpd.periods[0].adaptationSets.map(\.lang) == [nil, "eng", "fra", "en"])
  }

  /// ffmpeg's DASH reader asks a `$Number$` origin for segments past the end until one
  /// fails, and there decodes a last 10 ms audio chunk the manifest does not address; the
  /// offline copy holds what the manifest addresses. So video is compared with the origin,
  /// audio with its init section and addressed segments joined.
  @Test func aNumberTemplateDecodesOfflineLikeWhatItsManifestAddresses() async throws {
    let origin = try await DASHOrigin(.number)
    let store = try DASHStore()
    let outcome = try await store.download(origin.url).run()
    let video = try await origin.decodedMD5s(["v:0"])["v:0"]
    origin.nginx.stop(graceful: false)
    let copy = try await FFmpeg.decodedMD5(outcome.index.path, stream: "v:0")
    #expect(copy.errors.isEmpty, "\(copy.errors)")
    #expect(copy.md5 == video)
    var joined = try Data(contentsOf: origin.www.file("init-stream1.m4s"))
    for number in 1...2 {
      joined += try Data(
        contentsOf: origin.www.file(String(format: "chunk-stream1-%05d.m4s", number)))
    }
    try joined.write(to: origin.www.file("joined.mp4"))
    let audio = try await FFmpeg.decodedMD5(origin.www.file("joined.mp4").path, stream: "a:0")
    let copyAudio = try await FFmpeg.decodedMD5(outcome.index.path, stream: "a:0")
    #expect(copyAudio.errors.isEmpty, "\(copyAudio.errors)")
    #expect(copyAudio.md5 == audio.md5 && audio.md5.hasPrefix("MD5="))
    #expect(outcome.segments == 4)
  }

  /// Two Periods written by hand over the same media. ffmpeg 5.1 plays only one Period of a
  /// multi-Period MPD, so each Period of the offline copy is decoded alone (a manifest of
  /// that Period) and compared with the same Period of the origin; the copy keeps both, in
  /// order, with their start and duration.
  @Test func twoPeriodsAreKeptInOrderAndEachDecodesLikeTheOrigin() async throws {
    let origin = try await DASHOrigin(.twoPeriods)
    let store = try DASHStore()
    let outcome = try await store.download(origin.url).run()
    origin.nginx.stop(graceful: false)
    let copy = try MPDParser.parse(Data(contentsOf: outcome.index))
    #expect(copy.periods.map(\.id) == ["first", "second"])
    #expect(copy.periods.map(\.start) == [0, 4] && copy.periods.map(\.duration) == [4, 4])
    let source = try MPDParser.parse(Data(contentsOf: origin.entryFile))
    for period in 0..<2 {
      let alone = { (mpd: MPD, folder: URL) throws -> String in
        var single = mpd
        single.periods = [mpd.periods[period]]
        single.periods[0].start = 0
        single.periods[0].duration = nil
        single.mediaPresentationDuration = 4
        let path = folder.appending(path: "period\(period).mpd").path
        try MPDWriter.write(single).write(toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let offlinePath = try alone(copy, outcome.index.deletingLastPathComponent())
      let originPath = try alone(source, origin.www.url)
      for stream in ["v:0", "a:0"] {
        let expected = try await FFmpeg.decodedMD5(originPath, stream: stream)
        let decoded = try await FFmpeg.decodedMD5(offlinePath, stream: stream)
        #expect(decoded.errors.isEmpty, "period \(period) \(stream): \(decoded.errors)")
        #expect(decoded.md5 == expected.md5 && expected.md5.hasPrefix("MD5="))
      }
    }
  }

  /// The same presentation again: every piece is complete in the journal, so only the
  /// manifest is fetched.
  @Test func aSecondRunFetchesOnlyTheManifest() async throws {
    let origin = try await DASHOrigin(.segmentBase)
    let store = try DASHStore()
    _ = try await store.download(origin.url).run()
    let before = try await origin.nginx.accessLog(minimumCount: 1).count
    let again = try await store.download(origin.url).run()
    #expect(again.segments == 5)
    let after = try await origin.nginx.accessLog(minimumCount: before + 1).dropFirst(before)
    #expect(after.map(\.uri) == ["/manifest.mpd"])
  }
}
