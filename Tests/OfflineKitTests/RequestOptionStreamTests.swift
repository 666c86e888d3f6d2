import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// HLS streams behind a check (issue 13, item 1): every playlist, segment, key, init section
/// and rendition of a stream sends the source's options. Pins that before, a stream behind
/// a token, Basic credentials, a cookie or a Referer check failed at its first request.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct RequestOptionStreamTests {
  func download(
    _ url: URL, _ options: RequestOptions, hls: StreamConfiguration = StreamConfiguration()
  ) async throws
    -> StreamOutcome
  {
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: url, folder: store.url.appending(path: "content"), configuration: hls,
      journal: index.transfers, transport: CurlTransport(),
      retry: RetryPolicy(maximumAttempts: 1),
      requestOptions: options)
    var quick = download
    quick.onPieceRetry = nil
    return try await quick.run()
  }

  /// Pins: the keys and segments of an encrypted stream were fetched without the options.
  @Test(arguments: ["bearer", "basic", "referer", "header"])
  func anEncryptedStreamBehindACheckDownloadsWithTheOptionsThatPassIt(folder: String)
    async throws
  {
    let origin = try await GatedOrigin(streams: ["hls": .aes128Rotating])
    let options = try RequestOptionDownloadTests.opening(folder, origin: origin)
    let url = origin.streamURL("hls", in: folder)
    await #expect(throws: Transfer.Error.self) {
      _ = try await download(url, RequestOptions(), hls: StreamConfiguration(pieceRetries: 0))
    }
    let outcome = try await download(url, options)
    let fixture = try #require(origin.streams["hls"])
    #expect(outcome.keys == fixture.keys.count && outcome.keys > 1)
    let requests = try origin.server.accessLog().filter { $0.uri.hasPrefix("/\(folder)/") }
    #expect(requests.contains { $0.uri.hasSuffix(".key") && $0.status == 200 })
    #expect(requests.contains { $0.uri.hasSuffix(".ts") && $0.status == 200 })
  }

  /// Pins: a cookie the playlist's response set was not kept, so the segments and keys
  /// that need it were refused (403).
  @Test func aCookieThePlaylistSetsIsSentWithTheSegmentsAndKeys() async throws {
    let origin = try await GatedOrigin(streams: ["hls": .aes128Rotating])
    let outcome = try await download(origin.streamURL("hls", in: "cookie"), RequestOptions())
    #expect(outcome.keys > 1)
    let log = try origin.server.headerLog().filter { !$0.uri.hasSuffix(".m3u8") }
    #expect(!log.isEmpty)
    #expect(log.allSatisfy { $0.status == 200 })
    #expect(log.allSatisfy { $0["Cookie"] == "\(NginxGates.cookieName)=\(NginxGates.cookieValue)" })
  }

  /// Pins: init sections and renditions were fetched without the options.
  @Test(arguments: [HLSFixture.fmp4, .renditions])
  func initSectionsAndRenditionsSendTheToken(kind: HLSFixture) async throws {
    let origin = try await GatedOrigin(streams: ["hls": kind])
    let options = try RequestOptionDownloadTests.opening("bearer", origin: origin)
    let outcome = try await download(
      origin.streamURL("hls", in: "bearer"), options,
      hls: StreamConfiguration(audio: .all, subtitles: .all))
    #expect(outcome.segments > 0)
    if kind == .fmp4 { #expect(outcome.initSections > 0) }
    let log = try origin.server.headerLog()
    #expect(log.count > 3)
    #expect(log.allSatisfy { $0.status == 200 && $0["Authorization"] != nil })
  }

  /// Pins: `offline info` read a stream behind a token without it.
  @Test func theStreamInfoIsReadWithTheOptions() async throws {
    let origin = try await GatedOrigin(streams: ["hls": .renditions])
    let options = try RequestOptionDownloadTests.opening("bearer", origin: origin)
    let info = try await HLSInfo.fetch(
      origin.streamURL("hls", in: "bearer"), transport: CurlTransport(), requestOptions: options)
    #expect(!info.variants.isEmpty)
    #expect(info.variantErrors.isEmpty)
  }
}
