import Foundation
import OfflineKit
import TestSupport
import Testing

/// Issue 40, item 2: a content waiting in the queue behind the parallel limit is fetched
/// ahead of the queue when a player asks for it through `offline serve`, a file or a stream.
@Suite("offline serve starts queued content for a player", .serialized, .timed)
struct QueuedReadThroughTests {
  /// Three files that hold every slot of the queue (the default limit is three) for the
  /// whole test: 64 MiB each at 256 KiB/s per request.
  private static func fillTheQueue(_ fixture: ServiceFixture) async throws {
    for index in 0..<3 {
      try TestData.writeFile(at: fixture.origin.file("busy\(index).bin"), count: 64 << 20)
      _ = try await fixture.manager.add([
        OfflineSource(url: fixture.nginx.url("/busy\(index).bin"))
      ])
    }
  }

  /// Waits until content `id` waits in the queue (``WaitReason/queued``).
  private static func waitUntilQueued(_ fixture: ServiceFixture, _ id: String) async throws {
    for _ in 0..<100 {
      let snapshot = try await fixture.manager.snapshot(id: id)
      if snapshot.state == .downloading, snapshot.waitReason == .queued { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("\(id) never waited in the queue")
  }

  @Test(.timeLimit(.minutes(1)))
  func aQueuedFileIsReadThroughAtOnce() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "256k"))
    try await Self.fillTheQueue(fixture)
    try TestData.writeFile(at: fixture.origin.file("wanted.bin"), count: 100_000)
    let content = try await fixture.manager.add([
      OfflineSource(url: fixture.nginx.url("/wanted.bin"))
    ]).first!
    try await Self.waitUntilQueued(fixture, content.id)
    let reply = try await Curl.fetch(fixture.url("/content/\(content.id)/wanted.bin"))
    #expect(reply.status == 200)
    let body = try Data(contentsOf: fixture.origin.file("wanted.bin"))
    let same = reply.body == body
    #expect(same, "\(reply.body.count) bytes")
    try await fixture.waitFor(content.id, .downloaded, timeout: 30)
    await fixture.close()
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func aQueuedStreamStartsWhenAPlayerOpensIt() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "256k"))
    try await Self.fillTheQueue(fixture)
    let files = try await HLSFixture.tsVariants.make(in: fixture.origin.url, segmentCount: 10)
    let content = try await fixture.manager.add([OfflineSource(url: files.url(on: fixture.nginx))])
      .first!
    try await Self.waitUntilQueued(fixture, content.id)
    let output = try await FFmpeg.run(
      [
        "-v", "error", "-i", fixture.url("/content/\(content.id)/index-through.m3u8"), "-f",
        "null", "-", "-progress", "pipe:1", "-nostats",
      ], timeout: 90)
    #expect(output.status == 0, "\(output.stderrText)")
    let played =
      output.stdoutText.split(separator: "\n").last { $0.hasPrefix("out_time_us=") }
      .flatMap { Double($0.dropFirst("out_time_us=".count)) }.map { $0 / 1_000_000 } ?? 0
    #expect(abs(played - 10) < 0.5, "played \(played) s")
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    let asked = try await fixture.nginx.accessLog(minimumCount: 1)
    #expect(!asked.contains { $0.userAgent?.hasPrefix("Lavf") == true })
    await fixture.close()
  }
}
