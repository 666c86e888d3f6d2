import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3: for an HLS stream with content steering, `get --json`, `ls --json` and
/// `info ID --json` name each source's pathway by its ID (`pathway`) beside its URL. Two
/// pathways, `CDN-A` on `cdn1` (which lacks the second half of its segments) and `CDN-B` on
/// `cdn2`, a steering manifest that puts `CDN-A` first.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSSteeringPathwayJSONTests {
  let www: TemporaryDirectory
  let nginx: NginxServer
  let store: URL
  /// Bytes of the segments removed from `cdn1`: what `CDN-B` served.
  let fromB: Int64

  init() async throws {
    www = try TemporaryDirectory(prefix: "offlinekit-steering-json")
    let served = www.url.appending(path: "origin")
    fromB = try await QueuedBackupVariantTests.twoCDNs(in: served)
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json",PATHWAY-ID="CDN-B"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="CDN-B"
      cdn2/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="CDN-A"
      cdn1/index.m3u8

      """
    try master.write(
      to: served.appending(path: "master.m3u8"), atomically: true, encoding: .utf8)
    try #"{"VERSION":1,"TTL":300,"PATHWAY-PRIORITY":["CDN-A","CDN-B"]}"#.write(
      to: served.appending(path: "steering.json"), atomically: true, encoding: .utf8)
    nginx = try NginxServer(root: served)
    try nginx.start()
    store = www.url.appending(path: "store")
  }

  func offline(_ arguments: [String], timeout: Double = 30) async throws -> OfflineRun {
    try await InProcessOffline.run(["--store", store.path] + arguments, timeout: timeout)
  }

  /// Checks the `sources` of `object`: the steering manifest's first pathway first.
  func expectPathways(in object: [String: Any], _ context: String) throws {
    let sources = try #require(object["sources"] as? [[String: Any]], "\(context): \(object)")
    #expect(
      sources.map { $0["url"] as? String } == [
        nginx.url("/cdn1/index.m3u8").absoluteString, nginx.url("/cdn2/index.m3u8").absoluteString,
      ], "\(context)")
    #expect(sources.map { $0["pathway"] as? String } == ["CDN-A", "CDN-B"], "\(context)")
    #expect(sources.map { $0["primary"] as? Bool } == [true, false], "\(context)")
    #expect((sources.last?["bytes"] as? NSNumber)?.int64Value == fromB, "\(context): \(sources)")
  }

  @Test func getJSONNamesEachSourcesPathway() async throws {
    defer { nginx.stop(graceful: false) }
    let out = www.url.appending(path: "movie").path
    let result = try await offline(
      ["get", nginx.url("/master.m3u8").absoluteString, "-o", out, "--json"], timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    let finished = try #require(
      result.stdoutText.split(separator: "\n").last { $0.contains(#""event":"finished""#) })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
    try expectPathways(in: object, "get --json")
  }

  @Test func lsAndInfoJSONNameEachSourcesPathway() async throws {
    defer { nginx.stop(graceful: false) }
    let add = try await offline(["add", nginx.url("/master.m3u8").absoluteString, "--id", "c"])
    try #require(add.status == 0, "\(add.stderrText)")
    let run = try await offline(["run", "--quiet"], timeout: 120)
    try #require(run.status == 0, "\(run.stderrText)")
    for arguments in [["ls", "--json"], ["info", "c", "--json"]] {
      let listed = try await offline(arguments)
      #expect(listed.status == 0, "\(listed.stderrText)")
      let parsed = try JSONSerialization.jsonObject(with: listed.stdout)
      let object = try #require(
        (parsed as? [[String: Any]])?.first ?? (parsed as? [String: Any]), "\(listed.stdoutText)")
      try expectPathways(in: object, arguments.joined(separator: " "))
    }
    // The lines for people name the pathways too.
    for arguments in [["ls"], ["info", "c"]] {
      let text = try await offline(arguments).stdoutText
      #expect(
        text.contains("(pathway CDN-A)") && text.contains("(pathway CDN-B)"),
        "\(arguments): \(text)")
    }
  }
}
