import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Real streams made with ffmpeg, served by nginx, downloaded, then played from disk with
/// the origin stopped: the offline playlist must decode without an error, for as long as
/// the source.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct HLSDownloadTests {
  struct Downloaded {
    let origin: HLSOrigin
    let folder: TemporaryDirectory
    let outcome: StreamOutcome
    var fixture: HLSFixtureFiles { origin.files }
    var nginx: NginxServer { origin.nginx }
  }

  func download(
    _ kind: HLSFixture, options: StreamConfiguration = StreamConfiguration(), segments: Int? = nil
  ) async throws -> Downloaded {
    let origin = try await HLSOrigin(kind, segmentCount: segments)
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: origin.url, folder: store.url.appending(path: "content"), configuration: options,
      journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    origin.nginx.stop(graceful: false)
    return Downloaded(origin: origin, folder: store, outcome: outcome)
  }

  func expectPlaysOffline(_ result: Downloaded, _ comment: Comment? = nil) async throws {
    let decoded = try await FFmpeg.decode(result.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - result.fixture.duration) < 0.6, "\(decoded.duration)")
  }

  @Test(arguments: [HLSFixture.tsVariants, .fmp4, .aes128Rotating, .renditions, .byteRange])
  func aStreamPlaysFromDiskWithTheOriginStopped(kind: HLSFixture) async throws {
    let result = try await download(
      kind, options: StreamConfiguration(audio: .all, subtitles: .all))
    try await expectPlaysOffline(result)
    let text = try String(contentsOf: result.outcome.index, encoding: .utf8)
    #expect(!text.contains("http://"), "index.m3u8 lists only local files")
  }

  /// Pins issue 11, item 13: the outcome counted merged pieces as segments, so a stream of
  /// byte ranges of one file said "1 segments".
  @Test func theOutcomeCountsSegmentsNotMergedPieces() async throws {
    let result = try await download(.byteRange)
    let source = try String(contentsOf: result.fixture.entryFile, encoding: .utf8)
    let segments = source.components(separatedBy: "#EXTINF").count - 1
    #expect(segments > 1)
    #expect(result.outcome.segments == segments)
    #expect(result.outcome.files < segments, "byte ranges of one file are merged")
    let fmp4 = try await download(.fmp4)
    let fmp4Source = try String(contentsOf: fmp4.fixture.entryFile, encoding: .utf8)
    #expect(fmp4.outcome.segments == fmp4Source.components(separatedBy: "#EXTINF").count - 1)
    #expect(fmp4.outcome.initSections == 1)
    #expect(fmp4.outcome.files == fmp4.outcome.segments + 1)
    let encrypted = try await download(.aes128Rotating)
    #expect(encrypted.outcome.keys == encrypted.fixture.keys.count)
    #expect(encrypted.outcome.initSections == 0)
  }

  @Test func keysAreStoredPrivatelyAndTheIVRuleIsKept() async throws {
    let result = try await download(.aes128Rotating)
    let keys = result.outcome.index.deletingLastPathComponent().appending(path: "keys")
    let files = try FileManager.default.contentsOfDirectory(atPath: keys.path)
    #expect(files.count == result.fixture.keys.count)
    for file in files {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: keys.appending(path: file).path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      #expect((attributes[.size] as? Int) == 16)
    }
    let media = try String(contentsOf: result.outcome.index, encoding: .utf8)
    let source = try String(contentsOf: result.fixture.entryFile, encoding: .utf8)
    #expect(media.contains("#EXT-X-MEDIA-SEQUENCE:7") == source.contains("#EXT-X-MEDIA-SEQUENCE:7"))
    let sourceIVs = source.components(separatedBy: "IV=").count
    #expect(media.components(separatedBy: "IV=").count == sourceIVs)
  }

  @Test func theLowestVariantAndOneLanguageAreChosen() async throws {
    let result = try await download(
      .renditions,
      options: StreamConfiguration(variant: .lowest, audio: .languages(["fr"]), subtitles: .none))
    try await expectPlaysOffline(result)
    guard
      case .master(let master) = try PlaylistParser.parse(
        String(contentsOf: result.outcome.index, encoding: .utf8))
    else {
      Issue.record("index.m3u8 is not a master playlist")
      return
    }
    #expect(master.variants.count == 1)
    #expect(
      master.renditions.filter { $0.type == .audio && $0.uri != nil }.map(\.language) == ["fr"])
    #expect(master.renditions.allSatisfy { $0.type != .subtitles })
  }
}
