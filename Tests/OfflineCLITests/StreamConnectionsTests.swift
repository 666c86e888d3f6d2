import Foundation
import TestSupport
import TestTiming
import Testing

/// `--max-connections` on `get`, `add` and `run`, and what `get --json` says of how a
/// stream's pieces came (issue 14: the pieces in flight adapt, so a user needs a cap, and
/// the report says what was used).
@Suite(.serialized, .ownThreads, .timed) struct StreamConnectionsTests {
  /// An HLS origin whose nginx caps each connection's rate (so more connections would pay)
  /// and logs which connection each request came on.
  func origin(segments: Int = 24) async throws -> HLSOrigin {
    try await HLSOrigin(
      .manySegments, segmentCount: segments,
      options: .init(limitRate: "32k", logsConnections: true))
  }

  /// The segment requests of the log, and the most of them in flight at once.
  func segmentRequests(_ nginx: NginxServer, count: Int) async throws -> (
    connections: Int, mostAtOnce: Int
  ) {
    let log = try await nginx.accessLog(minimumCount: count + 1).filter { $0.uri.hasSuffix(".ts") }
    return (Set(log.compactMap(\.connection)).count, log.mostAtOnce)
  }

  /// Pins issue 14: `get` had no way to cap the connections a stream opens, and `--json`
  /// did not say which protocol its pieces came over or how many went at once.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func getMaxConnectionsCapsAStreamAndJSONSaysHowItsPiecesCame() async throws {
    let origin = try await origin()
    defer { origin.nginx.stop() }
    let work = try TemporaryDirectory()
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get", origin.url.absoluteString, "-o",
      work.url.appending(path: "movie").path, "--max-connections", "2", "--json",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let seen = try await segmentRequests(origin.nginx, count: 24)
    #expect(seen.connections <= 2 && seen.mostAtOnce <= 2, "\(seen)")
    let last = try #require(result.stdoutText.split(separator: "\n").last)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    #expect(report["event"] as? String == "finished")
    #expect(report["protocol"] as? String == "HTTP/1.1", "\(report)")
    #expect((1...2).contains(report["mostInFlight"] as? Int ?? 0), "\(report)")
  }

  /// Pins issue 14: the cap given to `add` is kept with the content and holds when `run`
  /// downloads it; `run --max-connections` caps the streams it downloads, whatever they
  /// were added with. One case each: where the cap is given.
  @Test(.enabled(if: FFmpeg.isAvailable), arguments: ["add", "run"])
  func maxConnectionsGivenToAddOrRunCapsTheStream(givenTo command: String) async throws {
    let origin = try await origin()
    defer { origin.nginx.stop() }
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path
    let cap = ["--max-connections", "2"]
    let add = try await InProcessOffline.run(
      ["--store", store, "add", origin.url.absoluteString, "--id", "show"]
        + (command == "add" ? cap : []))
    #expect(add.status == 0, "\(add.stderrText)")
    let run = try await InProcessOffline.run(
      ["--store", store, "run", "--quiet"] + (command == "run" ? cap : []))
    #expect(run.status == 0, "\(run.stderrText)")
    let seen = try await segmentRequests(origin.nginx, count: 24)
    #expect(seen.connections <= 2 && seen.mostAtOnce <= 2, "\(seen)")
  }
}
