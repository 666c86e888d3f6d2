import Foundation
import OfflineKit
import TestSupport
import Testing

/// Issue 40, item 2: a segment a player asks for that is not on disk yet is streamed to it as
/// its bytes arrive, not once the whole segment has landed.
@Suite("offline serve streams a missing segment as it arrives", .serialized, .timed)
struct ArrivingSegmentTests {
  /// Four segments of 2 MiB each (random bytes: nothing here decodes them), sent by nginx at
  /// 256 KiB/s per request, so one takes about 8 s. While the download works on the first,
  /// curl asks the service for the last: its first bytes come within the first half of the
  /// response's time (without streaming they come with the last byte, once the segment is
  /// whole), the body is the origin's, and nginx sends that segment once.
  @Test(.timeLimit(.minutes(2)))
  func aMissingSegmentStartsBeforeItIsWhole() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "256k"))
    let segmentSize = 2 << 20
    var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n"
    for number in 0..<4 {
      try TestData.writeFile(
        at: fixture.origin.file("s\(number).ts"), count: segmentSize, seed: UInt64(number + 1))
      playlist += "#EXTINF:10.0,\ns\(number).ts\n"
    }
    playlist += "#EXT-X-ENDLIST\n"
    try Data(playlist.utf8).write(to: fixture.origin.file("stream.m3u8"))
    var configuration = DownloadConfiguration()
    configuration.stream.parallelSegments = 1
    let content = try await fixture.manager.add(
      [OfflineSource(url: fixture.nginx.url("/stream.m3u8"))], configuration: configuration
    ).first!
    let base = "/content/\(content.id)/"
    var listed = ""
    for _ in 0..<200 where !listed.contains(".ts") {
      listed = try await Curl.fetch(fixture.url(base + "index-through.m3u8")).text
      if !listed.contains(".ts") { try await Task.sleep(for: .milliseconds(50)) }
    }
    let last = try #require(listed.split(separator: "\n").last { $0.hasSuffix(".ts") })
    let reply = try await Curl.fetch(
      fixture.url(base + last),
      ["-m", "60", "-w", "%{stderr}first=%{time_starttransfer} total=%{time_total}\n"])
    #expect(reply.status == 200)
    let isTheOrigins = reply.body == (try Data(contentsOf: fixture.origin.file("s3.ts")))
    #expect(isTheOrigins, "\(reply.body.count) bytes")
    let times = Self.times(in: reply.stderr)
    let first = try #require(times["first"])
    let total = try #require(times["total"])
    #expect(total > 2, "the segment came in \(total) s: too fast to tell")
    #expect(first < total / 2, "first bytes at \(first) s of \(total) s")
    #expect(try await content.state == .downloading)
    try await fixture.waitFor(content.id, .downloaded, timeout: 90)
    let log = try await fixture.nginx.accessLog(minimumCount: 5)
    #expect(log.count { $0.uri == "/s3.ts" } == 1, "\(log.map(\.uri))")
    #expect(try await content.verify().isWhole)
    await fixture.close()
  }

  /// The `name=seconds` pairs curl's `-w` wrote.
  private static func times(in text: String) -> [String: Double] {
    var times: [String: Double] = [:]
    for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      let parts = pair.split(separator: "=")
      if parts.count == 2, let value = Double(parts[1]) { times[String(parts[0])] = value }
    }
    return times
  }
}
