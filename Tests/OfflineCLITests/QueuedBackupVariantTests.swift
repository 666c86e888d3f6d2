import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3: a stream queued with `add` whose variant has a backup on a second CDN,
/// the first losing the second half of its segments (404): after `run`, `ls` and `info ID`
/// list both CDNs as sources of the content, and `--json` says how many bytes each served.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct QueuedBackupVariantTests {
  let www: TemporaryDirectory
  let nginx: NginxServer
  let store: URL
  /// Bytes of the segments removed from the first CDN: what the backup served.
  let fromBackup: Int64

  /// Six fMP4 segments at `cdn1/` and `cdn2/` in `served`, the second half of them gone
  /// from `cdn1` (404); returns the bytes of those, what the second CDN serves.
  static func twoCDNs(in served: URL) async throws -> Int64 {
    _ = try await HLSFixture.fmp4.make(in: served.appending(path: "cdn1"), segmentCount: 6)
    try FileManager.default.copyItem(
      at: served.appending(path: "cdn1"), to: served.appending(path: "cdn2"))
    var removed: Int64 = 0
    for index in 3..<6 {
      let file = served.appending(path: "cdn1/seg\(index).m4s")
      removed += try Int64(Data(contentsOf: file).count)
      try FileManager.default.removeItem(at: file)
    }
    return removed
  }

  init() async throws {
    www = try TemporaryDirectory(prefix: "offlinekit-queued-backup")
    let served = www.url.appending(path: "origin")
    fromBackup = try await Self.twoCDNs(in: served)
    let master = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2"
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2"
      cdn2/index.m3u8

      """
    try master.write(
      to: served.appending(path: "master.m3u8"), atomically: true, encoding: .utf8)
    nginx = try NginxServer(root: served)
    try nginx.start()
    store = www.url.appending(path: "store")
    let add = try await offline(["add", nginx.url("/master.m3u8").absoluteString, "--id", "c"])
    try #require(add.status == 0, "\(add.stderrText)")
    let run = try await offline(["run", "--quiet"], timeout: 120)
    try #require(run.status == 0, "\(run.stderrText)")
  }

  func offline(_ arguments: [String], timeout: Double = 30) async throws -> OfflineRun {
    try await InProcessOffline.run(["--store", store.path] + arguments, timeout: timeout)
  }

  var cdn1: String { nginx.url("/cdn1/index.m3u8").absoluteString }
  var cdn2: String { nginx.url("/cdn2/index.m3u8").absoluteString }

  @Test func lsAndInfoListTheBackupAsASourceOfTheStream() async throws {
    defer { nginx.stop(graceful: false) }
    let listed = try await offline(["ls"])
    #expect(listed.status == 0, "\(listed.stderrText)")
    let sources = listed.stdoutText.split(separator: "\n").filter { $0.contains("source: ") }
    #expect(sources.count == 2, "\(listed.stdoutText)")
    #expect(sources.first?.contains(cdn1 + " (the URL)") == true, "\(sources)")
    #expect(sources.first?.contains("dropped: 3 pieces failed there") == true, "\(sources)")
    #expect(sources.last?.contains("from " + cdn2) == true, "\(sources)")

    let info = try await offline(["info", "c"])
    #expect(info.status == 0, "\(info.stderrText)")
    let lines = info.stdoutText.split(separator: "\n").filter { $0.hasPrefix("Source: ") }
    #expect(lines.count == 2, "\(info.stdoutText)")
    #expect(lines.last?.contains(cdn2) == true, "\(lines)")
  }

  @Test func jsonSaysHowMuchEachCDNServed() async throws {
    defer { nginx.stop(graceful: false) }
    for arguments in [["ls", "--json"], ["info", "c", "--json"]] {
      let run = try await offline(arguments)
      #expect(run.status == 0, "\(run.stderrText)")
      let parsed = try JSONSerialization.jsonObject(with: run.stdout)
      let object = try #require(
        (parsed as? [[String: Any]])?.first ?? (parsed as? [String: Any]), "\(run.stdoutText)")
      #expect(object["state"] as? String == "downloaded", "\(object)")
      let sources = try #require(object["sources"] as? [[String: Any]], "\(object)")
      #expect(sources.map { $0["url"] as? String } == [cdn1, cdn2], "\(arguments)")
      #expect(sources.map { $0["primary"] as? Bool } == [true, false])
      #expect((sources.last?["bytes"] as? NSNumber)?.int64Value == fromBackup, "\(sources)")
      #expect((sources.first?["bytes"] as? NSNumber)?.int64Value ?? 0 > 0, "\(sources)")
      #expect(sources.first?["dropped"] is String && sources.last?["dropped"] == nil)
    }
  }
}
