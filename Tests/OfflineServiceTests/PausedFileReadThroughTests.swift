import Foundation
import OfflineKit
import TestSupport
import Testing

/// Issue 40, item 2: a paused file that a player reads through `offline serve` fetches only
/// what the player asks for, and stays paused; the download that resumes fetches none of it
/// again.
@Suite("offline serve reads a paused file through", .serialized, .timed)
struct PausedFileReadThroughTests {
  /// 48 MiB at 1 MiB/s per request, paused once 2 MiB are on disk. curl reads 1 MiB at
  /// 45 MiB through the service: the bytes are the origin's, the content is still
  /// suspended, and the origin was asked only for bytes from 45 MiB on, at most a reader's
  /// span (4 MiB) of them. Resumed, the download completes to the origin's file, and nginx
  /// sent the file once plus at most what the requests cut by the pause held.
  @Test(.timeLimit(.minutes(2)))
  func aPausedFileFetchesOnlyWhatThePlayerReadsAndStaysPaused() async throws {
    let size = 48 << 20
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "1m", logsConnections: true))
    try TestData.writeFile(at: fixture.origin.file("movie.bin"), count: size, seed: 41)
    let body = try Data(contentsOf: fixture.origin.file("movie.bin"))
    let content = try await fixture.manager.add([
      OfflineSource(url: fixture.nginx.url("/movie.bin"))
    ]).first!
    var onDisk: Int64 = 0
    for _ in 0..<600 where onDisk < 2 << 20 {
      try await Task.sleep(for: .milliseconds(50))
      onDisk = try await content.snapshot.bytes
    }
    #expect(onDisk >= 2 << 20, "\(onDisk) bytes on disk")
    try await content.suspend()
    // The requests the pause cut are logged once nginx sees them closed.
    let atPause = try await Self.settledLog(fixture.nginx).count

    // Past what any connection reached: eight ranges of 6 MiB hold 2 MiB in all.
    let offset = 45 << 20
    let reply = try await Curl.fetch(
      fixture.url("/content/\(content.id)/movie.bin"),
      ["-r", "\(offset)-\(offset + (1 << 20) - 1)", "-m", "60"])
    #expect(reply.status == 206)
    let isTheOrigins = reply.body == body[offset..<(offset + (1 << 20))]
    #expect(isTheOrigins, "\(reply.body.count) bytes")
    #expect(try await content.state == .suspended)

    // The reader's connection goes on past the player's range, up to its span.
    let forThePlayer = try await Self.settledLog(fixture.nginx)[atPause...]
    let asked = forThePlayer.compactMap { entry -> (ClosedRange<Int64>, whole: Bool)? in
      guard let range = entry.range else { return nil }
      let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int64($0) }
      guard bounds.count == 2 else { return nil }
      return (bounds[0]...bounds[1], entry.bodyBytesSent == bounds[1] - bounds[0] + 1)
    }
    let ranges = asked.map(\.0)
    #expect(!ranges.isEmpty && ranges.allSatisfy { $0.lowerBound >= Int64(offset) }, "\(ranges)")
    let sent = forThePlayer.reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    #expect(sent >= 1 << 20 && sent <= 5 << 20, "sent \(sent) bytes for the player")

    try await content.resume()
    try await fixture.waitFor(content.id, .downloaded, timeout: 90)
    let file = try await content.snapshot.fileURL
    let fileIsTheOrigins = FileManager.default.contents(atPath: file.path) == body
    #expect(fileIsTheOrigins)
    let log = try fixture.nginx.accessLog()
    let extra = log.reduce(Int64(0)) { $0 + $1.bodyBytesSent } - Int64(size)
    // Cut by the pause: the requests in flight then, each at most what its socket held.
    #expect(extra <= 16 << 20, "sent \(extra) bytes more than the file")
    // What nginx sent the player in full is never asked again (a request the resume cut
    // is asked again from where its bytes reached the journal).
    let whole = asked.filter(\.whole).map(\.0)
    let afterResume = log[(atPause + forThePlayer.count)...].compactMap(\.range)
    for range in afterResume {
      let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int64($0) }
      guard bounds.count == 2 else { continue }
      let refetched = whole.contains { $0.overlaps(bounds[0]...bounds[1]) }
      #expect(!refetched, "\(range) again after the resume")
    }
    await fixture.close()
  }

  /// A file under 8 MiB is not split: paused half-way, a player's read fetches the rest over
  /// its one connection, and the content stays paused with the whole file on disk. Resumed,
  /// it is downloaded at once, without asking the origin again.
  @Test(.timeLimit(.minutes(1)))
  func aSmallPausedFileReadToItsEndIsDownloadedWhenResumed() async throws {
    let size = 400_000
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "100k"))
    try TestData.writeFile(at: fixture.origin.file("clip.bin"), count: size, seed: 42)
    let body = try Data(contentsOf: fixture.origin.file("clip.bin"))
    let content = try await fixture.manager.add([
      OfflineSource(url: fixture.nginx.url("/clip.bin"))
    ]).first!
    var onDisk: Int64 = 0
    for _ in 0..<600 where onDisk < 100_000 {
      try await Task.sleep(for: .milliseconds(20))
      onDisk = try await content.snapshot.bytes
    }
    try await content.suspend()
    let reply = try await Curl.fetch(fixture.url("/content/\(content.id)/clip.bin"), ["-m", "30"])
    #expect(reply.status == 200)
    let isTheOrigins = reply.body == body
    #expect(isTheOrigins, "\(reply.body.count) bytes")
    #expect(try await content.state == .suspended)
    let asked = try await Self.settledLog(fixture.nginx).count
    // What the web page hears: the event stream, from before the resume.
    let events = Task { try await Curl.fetch(fixture.url("/api/events"), ["-N", "-m", "6"]) }
    try await Task.sleep(for: .milliseconds(300))
    try await content.resume()
    try await fixture.waitFor(content.id, .downloaded, timeout: 20)
    let heard = try await events.value.text.split(separator: "\n").filter {
      $0.hasPrefix("data:") && $0.contains(content.id)
    }
    #expect(heard.contains { $0.contains("\"state\":\"downloaded\"") }, "\(heard)")
    let file = try await content.snapshot.fileURL
    let fileIsTheOrigins = FileManager.default.contents(atPath: file.path) == body
    #expect(fileIsTheOrigins)
    #expect(try fixture.nginx.accessLog().count == asked, "asked the origin after the resume")
    await fixture.close()
  }

  /// nginx's access log once no entry has been added for two seconds (at most 20 s).
  private static func settledLog(_ nginx: NginxServer) async throws -> [AccessLogEntry] {
    var log = try nginx.accessLog()
    var quiet = 0
    for _ in 0..<40 where quiet < 4 {
      try await Task.sleep(for: .milliseconds(500))
      let now = try nginx.accessLog()
      quiet = now.count == log.count ? quiet + 1 : 0
      log = now
    }
    return log
  }
}
