import Foundation
import TestSupport
import TestTiming
import Testing

/// The end game with mirrors (issue 43): a slow mirror never holds the end of the file.
/// Once nothing is left to claim, a fast connection takes over the tail of each slow
/// request, which is cut where it stands, so the slow mirror serves what it brought by then
/// and a little more, never the tails it would otherwise finish alone.
@Suite(.ownThreads, .timed) struct GetMirrorTailTests {
  /// What a slow request keeps when a fast connection takes its range's rest before the
  /// end game (the board's minimum split with mirrors, 512 KiB): without the end game, each
  /// request of the slow mirror served at least this much.
  static let keptBeforeTheEndGame: Int64 = 512 << 10

  /// A slow mirror listed first (32 KiB/s a connection) and a fast one, with piece hashes:
  /// each request of the slow mirror serves less than it would have to finish alone, every
  /// byte is written once (the sources' bytes add up to the file), and the file is right.
  @Test func aSlowMirrorDoesNotHoldTheTail() async throws {
    let slow = try GetMirrorTests.Mirror(GetMetalinkTests.body, options: .init(limitRate: "32k"))
    let fast = try GetMirrorTests.Mirror(GetMetalinkTests.body)
    defer { for server in [slow, fast] { server.nginx.stop() } }
    let result = try await GetMetalinkTests.getExpectingTheFile([slow.url, fast.url])
    let lines = result.stdoutText.split(separator: "\n").map { Data($0.utf8) }
    let finished = lines.compactMap {
      try? JSONDecoder().decode(GetMirrorTests.Finished.self, from: $0)
    }
    .first { $0.event == "finished" }
    let sources = try #require(finished?.sources)
    #expect(sources.map(\.url) == [slow.url, fast.url])
    #expect(sources.reduce(0) { $0 + $1.bytes } == Int64(GetMetalinkTests.size), "written once")
    let slowBytes = try #require(sources.first?.bytes)
    // The slow mirror's requests for the file's bytes (its probe left out), once every one
    // is logged: nginx logs a request our client cut when it ends, a moment after `get`
    // returned on a loaded machine; by then the bytes it logged cover what we wrote.
    let deadline = ContinuousClock.now + .seconds(20)
    var logged = try slow.nginx.accessLog().filter { $0.range != nil && $0.range != "bytes=0-0" }
    while logged.reduce(0, { $0 + $1.bodyBytesSent }) < slowBytes, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
      logged = try slow.nginx.accessLog().filter { $0.range != nil && $0.range != "bytes=0-0" }
    }
    let requests = logged.count
    #expect(requests >= 1, "the slow mirror was used")
    #expect(
      slowBytes < Int64(requests) * Self.keptBeforeTheEndGame,
      "\(requests) requests of the slow mirror served \(slowBytes) bytes")
  }
}
