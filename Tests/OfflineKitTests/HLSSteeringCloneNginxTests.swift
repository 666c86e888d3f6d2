import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a pathway that only a steering manifest's `PATHWAY-CLONES` makes is a
/// source like any other. Two origins (two nginx, one root each): the playlist names one
/// pathway on the first; the steering manifest clones it onto the second's host and port,
/// with a query parameter; the first loses the second half of its segments (404): those come
/// from the clone, and the copy decodes like the origin's.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSSteeringCloneNginxTests {
  @Test func theSegmentsThePathwayLacksComeFromItsCloneOnTheSecondOrigin() async throws {
    let first = try await StreamFailoverTests.TwoCDNs(hls: .fmp4, segmentCount: 6)
    let secondRoot = try TemporaryDirectory(prefix: "offlinekit-clone-origin")
    try FileManager.default.copyItem(
      at: first.www.url.appending(path: "cdn1"), to: secondRoot.url.appending(path: "cdn1"))
    let second = try NginxServer(root: secondRoot.url)
    try second.start()
    defer { second.stop(graceful: false) }
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json",PATHWAY-ID="A"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="A"
      cdn1/index.m3u8
      """
    try master.write(to: first.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let steering = """
      {"VERSION":1,"TTL":300,"PATHWAY-PRIORITY":["A","B"],"PATHWAY-CLONES":[
        {"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"127.0.0.1:\(second.port)",
         "PARAMS":{"via":"clone"}}},
        {"BASE-ID":"NOPE","ID":"C","URI-REPLACEMENT":{}}]}
      """
    try steering.write(to: first.www.file("steering.json"), atomically: true, encoding: .utf8)
    let missing = try first.remove(from: "cdn1") { name in
      name.hasPrefix("seg") && (Int(name.dropFirst(3).prefix { $0.isNumber }) ?? 0) >= 3
    }
    #expect(missing.count == 3)
    let (root, index) = try StreamFailoverTests().store()
    var download = HLSDownload(
      url: first.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: StreamFailoverTests.quickRetries, journal: index.transfers,
      transport: CurlTransport())
    let lines = Locked<[String]>([])
    download.log = { line in lines.withLock { $0.append(line) } }
    let outcome = try await download.run()

    let clone = second.url("/cdn1/index.m3u8?via=clone")
    #expect(outcome.sources.map(\.url) == [first.nginx.url("/cdn1/index.m3u8"), clone])
    #expect(outcome.sources.last?.bytes == missing.values.reduce(0, +), "\(outcome.sources)")
    let served = try await second.accessLog(minimumCount: 4, timeout: 30)
    // The clone's playlist URI carries PARAMS; its segments are relative to it.
    #expect(served.contains { $0.uri == "/cdn1/index.m3u8?via=clone" && $0.status == 200 })
    #expect(
      served.filter { $0.uri.contains("/seg") }.map { "\($0.uri) \($0.status)" }.sorted() == [
        "/cdn1/seg3.m4s 200", "/cdn1/seg4.m4s 200", "/cdn1/seg5.m4s 200",
      ])
    #expect(
      lines.withLock { $0 }.contains { $0.contains("pathway clone C") && $0.contains("NOPE") },
      "\(lines.withLock { $0 })")

    first.nginx.stop(graceful: false)
    second.stop(graceful: false)
    try await Self.expectPlaysOffline(
      outcome.index, like: secondRoot.url.appending(path: "cdn1/index.m3u8"),
      duration: first.files.duration)
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("http") && !text.contains("STEERING"), "\(text)")
  }

  /// With the origins stopped: the offline copy at `index` decodes without an error to
  /// `duration` (within a segment's rounding), and its frames are those of `origin`.
  static func expectPlaysOffline(_ index: URL, like origin: URL, duration: Double) async throws {
    let decoded = try await FFmpeg.decode(index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - duration) < 0.6, "\(decoded.duration)")
    let expected = try await FFmpeg.frameHashes(of: origin.path)
    #expect(try await FFmpeg.frameHashes(of: index.path) == expected)
  }
}
