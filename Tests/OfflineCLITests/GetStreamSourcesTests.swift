import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3, through the command line: `get --json` of an HLS stream with a backup
/// variant says in its `finished` line which source served how much.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct GetStreamSourcesTests {
  @Test func getJSONSaysWhichCDNServedHowMuch() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-cli-failover")
    let files = try await HLSFixture.fmp4.make(in: www.url.appending(path: "cdn1"), segmentCount: 4)
    try FileManager.default.copyItem(
      at: www.url.appending(path: "cdn1"), to: www.url.appending(path: "cdn2"))
    let missing = www.url.appending(path: "cdn1/seg1.m4s")
    let size = try Data(contentsOf: missing).count
    try FileManager.default.removeItem(at: missing)
    let master = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=300000
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000
      cdn2/index.m3u8
      """
    try master.write(to: www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie").path
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get",
      nginx.url("/master.m3u8").absoluteString, "-o", out, "--json",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let finished = try #require(
      result.stdoutText.split(separator: "\n").last { $0.contains(#""event":"finished""#) })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
    let sources = try #require(object["sources"] as? [[String: Any]], "\(finished)")
    #expect(
      sources.map { $0["url"] as? String } == [
        nginx.url("/cdn1/index.m3u8").absoluteString, nginx.url("/cdn2/index.m3u8").absoluteString,
      ])
    #expect(sources.map { $0["primary"] as? Bool } == [true, false])
    #expect(sources.last?["bytes"] as? Int == size)
    #expect((sources.first?["dropped"] as? String)?.contains("404") == true, "\(finished)")
    nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 0.6)
  }
}
