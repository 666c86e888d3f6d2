import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a pathway clone that first appears in a steering reload joins the
/// download that runs. Two origins (two nginx): the playlist names one pathway, `A`, on the
/// first (both served at 32 KB/s so the download lasts several seconds); the first steering
/// manifest has no clone; once a segment is on disk, the manifest (reloaded every second)
/// clones `A` onto the second origin's host and port as `B` and puts `B` first. Once the
/// second origin has served a segment, `A` fails (its segments are gone: 404). Before the
/// fix the clone was ignored until the next run: every segment came from `A`, and the
/// download failed when `A` did.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSSteeringReloadCloneNginxTests {
  static let master = """
    #EXTM3U
    #EXT-X-CONTENT-STEERING:SERVER-URI="/steer/steering.json",PATHWAY-ID="A"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="A"
    cdn1/index.m3u8
    """

  static let withoutClone =
    #"{"VERSION":1,"TTL":1,"RELOAD-URI":"steering.json?s=1","PATHWAY-PRIORITY":["A"]}"#

  static func withClone(port: Int) -> String {
    """
    {"VERSION":1,"TTL":1,"RELOAD-URI":"steering.json?s=1","PATHWAY-PRIORITY":["B","A"],
     "PATHWAY-CLONES":[{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"127.0.0.1:\(port)"}}]}
    """
  }

  @Test func aCloneAddedByAReloadServesTheRestWhenTheFirstPathwayFails() async throws {
    let first = try await StreamFailoverTests.TwoCDNs(
      hls: .fmp4, segmentCount: 8, options: .init(limitRate: "32k"))
    let secondRoot = try TemporaryDirectory(prefix: "offlinekit-reload-clone-origin")
    try FileManager.default.copyItem(
      at: first.www.url.appending(path: "cdn1"), to: secondRoot.url.appending(path: "cdn1"))
    // As slow as the first, so the download is still under way when A fails.
    let second = try NginxServer(root: secondRoot.url, options: .init(limitRate: "32k"))
    try second.start()
    defer {
      first.nginx.stop(graceful: false)
      second.stop(graceful: false)
    }
    try Self.master.write(to: first.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let steer = first.www.url.appending(path: "steer")
    try FileManager.default.createDirectory(at: steer, withIntermediateDirectories: true)
    let json = steer.appending(path: "steering.json")
    try Self.withoutClone.write(to: json, atomically: true, encoding: .utf8)
    let (root, index) = try StreamFailoverTests().store()
    var download = HLSDownload(
      url: first.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: StreamConfiguration(
        parallelSegments: 1, pieceRetries: 2, pieceRetryDelay: .milliseconds(10)),
      journal: index.transfers, transport: CurlTransport())
    let lines = Locked<[String]>([])
    download.log = { line in lines.withLock { $0.append(line) } }
    // What the run has done to the origins: cloned (the manifest rewritten), then A failed.
    let steps = Locked((cloned: false, failedA: [String: Int64]()))
    let port = second.port
    let cdn1 = first.www.url.appending(path: "cdn1")
    let outcome = try await download.run { progress in
      guard (progress.segmentsDone ?? 0) >= 1 else { return }
      let cloned = steps.withLock { $0.cloned }
      if !cloned {
        try? Self.withClone(port: port).write(to: json, atomically: true, encoding: .utf8)
        steps.withLock { $0.cloned = true }
        return
      }
      // A fails once the clone has served a segment (a piece on its way keeps its answer).
      guard steps.withLock({ $0.failedA.isEmpty }),
        (try? second.accessLog())?.contains(where: { $0.uri.contains("/seg") }) == true
      else { return }
      let removed = try? Self.removeSegments(in: cdn1)
      steps.withLock { $0.failedA = removed ?? [:] }
    }
    let failedA = steps.withLock { $0.failedA }
    #expect(!failedA.isEmpty, "A failed mid-way: \(lines.withLock { $0 })")

    let clone = second.url("/cdn1/index.m3u8")
    #expect(outcome.sources.map(\.url) == [first.nginx.url("/cdn1/index.m3u8"), clone])
    #expect(outcome.sources.map(\.pathway) == ["A", "B"], "\(outcome.sources)")
    #expect(outcome.sources.allSatisfy { $0.bytes > 0 }, "\(outcome.sources)")
    let served = try await second.accessLog(minimumCount: 2, timeout: 30)
    #expect(served.contains { $0.uri == "/cdn1/index.m3u8" && $0.status == 200 })
    let fromB = served.filter { $0.uri.contains("/seg") }
    #expect(!fromB.isEmpty && fromB.allSatisfy { $0.status == 200 }, "\(served.map(\.uri))")
    let fromA = try first.nginx.accessLog().filter { $0.uri.contains("/seg") && $0.status == 200 }
    #expect(!fromA.isEmpty, "the first segments came from A")
    let names = (fromA + fromB).map { ($0.uri as NSString).lastPathComponent }
    #expect(Set(names).count == 8, "every segment from one origin or the other: \(names)")

    first.nginx.stop(graceful: false)
    second.stop(graceful: false)
    try await HLSSteeringCloneNginxTests.expectPlaysOffline(
      outcome.index, like: secondRoot.url.appending(path: "cdn1/index.m3u8"),
      duration: first.files.duration)
  }

  /// Removes the segments in `folder`; returns their sizes by name.
  static func removeSegments(in folder: URL) throws -> [String: Int64] {
    var removed: [String: Int64] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasPrefix("seg") {
      let file = folder.appending(path: name)
      removed[name] = try Int64(Data(contentsOf: file).count)
      try FileManager.default.removeItem(at: file)
    }
    return removed
  }
}
