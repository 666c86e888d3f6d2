import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a backup variant fails over for AES-128 segments (each CDN serving its
/// own copy of the keys: a key missing on one is fetched from the other) and for
/// `EXT-X-BYTERANGE` packs (the same ranges asked of the other CDN's file), and the offline
/// copy decodes like the origin (ffmpeg's decode MD5s equal). Two copies of real ffmpeg
/// fixtures under one nginx.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSBackupKeyAndRangeTests {
  static let master = """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=400000
    cdn1/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=400000
    cdn2/index.m3u8
    """

  /// Downloads the master over both CDNs; the store's folder goes with the outcome.
  func download(_ cdns: StreamFailoverTests.TwoCDNs) async throws
    -> (StreamOutcome, TemporaryDirectory)
  {
    try Self.master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let (root, index) = try StreamFailoverTests().store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: StreamFailoverTests.quickRetries, journal: index.transfers,
      transport: CurlTransport())
    return (try await download.run(), root)
  }

  @Test func aKeyAndASegmentMissingOnOneCDNComeFromTheOther() async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(hls: .aes128Rotating)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: cdns.www.url.appending(path: "cdn1").path)
    let keys = names.filter { !$0.hasSuffix(".ts") && !$0.hasSuffix(".m3u8") }.sorted()
    let segments = names.filter { $0.hasSuffix(".ts") }.sorted()
    #expect(keys.count >= 2, "\(names)")
    let key = try #require(keys.last)
    let segment = try #require(segments.first)
    try cdns.remove(from: "cdn1") { $0 == key || $0 == segment }

    let (outcome, store) = try await download(cdns)
    defer { withExtendedLifetime(store) {} }
    let log = try await cdns.nginx.accessLog(minimumCount: 10)
    #expect(
      log.filter { $0.uri.hasSuffix("/\(key)") }.map { "\($0.uri) \($0.status)" } == [
        "/cdn1/\(key) 404", "/cdn2/\(key) 200",
      ], "the key, from the CDN that has it")
    #expect(
      log.filter { $0.uri.hasSuffix("/\(segment)") }.map { "\($0.uri) \($0.status)" } == [
        "/cdn1/\(segment) 404", "/cdn2/\(segment) 200",
      ], "the encrypted segment, from the backup")
    #expect(
      !log.contains {
        $0.uri.hasPrefix("/cdn2/") && $0.uri.hasSuffix(".ts") && $0.uri != "/cdn2/\(segment)"
      })
    try await Self.expectDecodesLikeTheOrigin(outcome, cdns)
  }

  @Test func aByteRangePackMissingOnOneCDNComesFromTheOther() async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(hls: .byteRange)
    let removed = try cdns.remove(from: "cdn1") { $0 == "index.ts" }
    #expect(removed.count == 1)

    let (outcome, store) = try await download(cdns)
    defer { withExtendedLifetime(store) {} }
    let log = try await cdns.nginx.accessLog(minimumCount: 4)
    let asked = log.filter { $0.uri.hasSuffix("/index.ts") }
    #expect(asked.first.map { "\($0.uri) \($0.status)" } == "/cdn1/index.ts 404", "\(asked)")
    #expect(
      asked.dropFirst().allSatisfy { $0.uri == "/cdn2/index.ts" && $0.status == 206 },
      "the same ranges, from the backup: \(asked.map { "\($0.uri) \($0.status) \($0.range ?? "")" })"
    )
    #expect(outcome.sources.last?.bytes == removed["index.ts"], "\(outcome.sources)")
    try await Self.expectDecodesLikeTheOrigin(outcome, cdns)
  }

  /// The offline copy decodes without error, to the stream's duration, and equal to the
  /// origin as ffmpeg reads it from the second CDN (read after the download's log). Stops
  /// the CDNs' nginx.
  static func expectDecodesLikeTheOrigin(
    _ outcome: StreamOutcome, _ cdns: StreamFailoverTests.TwoCDNs,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let origin = try await StreamFailoverTests.decodedMD5s(
      cdns.nginx.url("/cdn2/index.m3u8").absoluteString)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)", sourceLocation: sourceLocation)
    #expect(
      abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)",
      sourceLocation: sourceLocation)
    #expect(
      try await StreamFailoverTests.decodedMD5s(outcome.index.path) == origin,
      sourceLocation: sourceLocation)
  }
}
