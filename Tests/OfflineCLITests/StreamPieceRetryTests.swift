import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` of a stream whose pieces fail for a while or for good (issue 11, item 8):
/// each piece is tried again in the same run (`--piece-retries`, default 10), and a piece
/// that keeps failing fails the run naming it, with no offline playlist.
@Suite(.ownThreads, .timed) struct StreamPieceRetryTests {
  /// An AES-128 stream of three segments on the fault server: `/v/media.m3u8`,
  /// `/v/seg<n>.ts`, `/v/key.bin`.
  struct Stream {
    let server: FaultServer
    let work: TemporaryDirectory
    var store: URL { work.url.appending(path: "store") }
    var out: URL { work.url.appending(path: "movie") }

    init() throws {
      server = try FaultServer()
      work = try TemporaryDirectory()
      var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      text += "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n"
      for number in 0..<3 {
        text += "#EXTINF:4.0,\nseg\(number).ts\n"
        server.setRoute(
          "/v/seg\(number).ts",
          .resource(.init(body: TestData.bytes(count: 30_000, seed: UInt64(number)))))
      }
      server.setRoute(
        "/v/media.m3u8", .status(code: 200, body: Data((text + "#EXT-X-ENDLIST\n").utf8)))
      server.setRoute("/v/key.bin", .resource(.init(body: Data(repeating: 3, count: 16))))
    }

    /// `offline get` of the stream, with retries 10 ms apart.
    func get(_ extra: [String] = []) async throws -> OfflineRun {
      try await InProcessOffline.run(
        ["--store", store.path, "get", server.url("/v/media.m3u8").absoluteString, "-o", out.path]
          + ["--piece-retry-delay", "0.01"] + extra)
    }

    var hasIndex: Bool {
      FileManager.default.fileExists(atPath: out.appending(path: "index.m3u8").path)
    }
  }

  /// Pins issue 11, item 8: a key answering 403 once failed `get` at once.
  @Test func aKeyRefusedOnceStillGivesACompleteStream() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/key.bin",
      .sequence([.status(code: 403), .resource(.init(body: Data(repeating: 3, count: 16)))]))
    let result = try await stream.get()
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(stream.hasIndex)
    #expect(stream.server.requests(for: "/v/key.bin").count == 2)
  }

  /// Pins issue 11, item 8: a segment answering 404 twice failed `get` at once.
  @Test func aSegmentMissingTwiceStillGivesACompleteStream() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/seg1.ts",
      .sequence([
        .status(code: 404), .status(code: 404),
        .resource(.init(body: TestData.bytes(count: 30_000, seed: 1))),
      ]))
    let result = try await stream.get()
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(stream.hasIndex)
    #expect(stream.server.requests(for: "/v/seg1.ts").count == 3)
    let retries = result.stderrText.split(separator: "\n").filter { $0.contains("Trying again") }
    #expect(retries.count == 2, "\(result.stderrText)")
    #expect(retries.allSatisfy { $0.contains("404") && $0.contains("/v/seg1.ts") }, "\(retries)")
  }

  /// Each retry is an event with `--json`.
  @Test func retriesAreEventsInJSON() async throws {
    let stream = try Stream()
    stream.server.setRoute(
      "/v/seg0.ts",
      .sequence([
        .status(code: 503), .resource(.init(body: TestData.bytes(count: 30_000, seed: 0))),
      ]))
    let result = try await stream.get(["--json", "--retries", "1"])
    #expect(result.status == 0, "\(result.stderrText)")
    let retry = try #require(result.jsonEvents(named: "retrying").first)
    #expect((retry["url"] as? String)?.hasSuffix("/v/seg0.ts") == true, "\(retry)")
    #expect(retry["retry"] as? Int == 1)
    #expect(retry["retries"] as? Int == 10)
  }

  /// Pins issue 11, item 8 through the queue: `add --piece-retries` is kept with the content,
  /// and a segment that never comes suspends it, named, after that many retries.
  @Test func theQueueKeepsThePieceRetriesGivenToAdd() async throws {
    let stream = try Stream()
    stream.server.setRoute("/v/seg2.ts", .status(code: 404))
    let store = ["--store", stream.store.path]
    let added = try await InProcessOffline.run(
      store + [
        "add", stream.server.url("/v/media.m3u8").absoluteString, "--id", "s",
        "--piece-retries", "2", "--piece-retry-delay", "0.01",
      ])
    #expect(added.status == 0, "\(added.stderrText)")
    _ = try await InProcessOffline.run(store + ["run", "--quiet"])
    #expect(stream.server.requests(for: "/v/seg2.ts").count == 3, "one try and 2 retries")
    let listed = try await InProcessOffline.run(store + ["ls", "--json"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdoutText.utf8)) as? [[String: Any]])
    #expect(entries.first?["state"] as? String == "suspended", "\(entries)")
    #expect((entries.first?["lastError"] as? String)?.contains("/v/seg2.ts") == true)
  }

  /// Pins issue 11, item 8: a segment that always answers 404 is tried `--piece-retries`
  /// more times, then `get` fails naming it and writes no offline playlist.
  @Test func aSegmentThatAlwaysAnswers404FailsNamingItAfterItsRetries() async throws {
    let stream = try Stream()
    stream.server.setRoute("/v/seg2.ts", .status(code: 404))
    let result = try await stream.get(["--piece-retries", "2"])
    #expect(result.status == 1)
    #expect(result.stderrText.contains("404"), "\(result.stderrText)")
    #expect(result.stderrText.contains("/v/seg2.ts"), "\(result.stderrText)")
    #expect(stream.server.requests(for: "/v/seg2.ts").count == 3, "one try and 2 retries")
    #expect(!stream.hasIndex)
  }

  @Test func pieceRetryOptionsTakeCountsAndSecondsAndRefuseOtherValues() async throws {
    // Port 9 (discard) refuses the connection: a parsed command fails with 1, not 64.
    let accepted = try await InProcessOffline.run([
      "get", "http://127.0.0.1:9/a.m3u8", "--piece-retries", "0", "--piece-retry-delay", "0.5",
      "--retries", "1",
    ])
    #expect(accepted.status == 1, "\(accepted.stderrText)")
    for (option, value) in [("--piece-retries", "-1"), ("--piece-retry-delay", "soon")] {
      let result = try await InProcessOffline.run([
        "get", "http://127.0.0.1:9/a.m3u8", option, value,
      ])
      #expect(result.status == 64, "\(option) \(value): \(result.stderrText)")
      #expect(result.stderrText.contains(option))
    }
  }
}
