import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline info` and `get` of streams whose masters and playlists are odd or hostile
/// (issue 11, items 12 and 14): several key formats, a variant that answers 404, rendition
/// groups that do not exist, control characters and huge URIs from the server.
@Suite(.ownThreads, .timed) struct StreamInfoTests {
  let server: FaultServer
  let work: TemporaryDirectory

  init() throws {
    server = try FaultServer()
    work = try TemporaryDirectory()
    setText("/v/media.m3u8", Self.media(segments: 2))
    for number in 0..<2 {
      server.setRoute(
        "/v/seg\(number).ts",
        .resource(.init(body: TestData.bytes(count: 20_000, seed: UInt64(number)))))
    }
  }

  func setText(_ path: String, _ text: String) {
    server.setRoute(path, .status(code: 200, body: Data(text.utf8)))
  }

  static func media(segments: Int, keys: String = "") -> String {
    var text = "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    text += keys
    for number in 0..<segments { text += "#EXTINF:4.0,\nseg\(number).ts\n" }
    return text + "#EXT-X-ENDLIST\n"
  }

  func info(_ path: String, json: Bool = false) async throws -> OfflineRun {
    try await InProcessOffline.run(
      ["info", server.url(path).absoluteString] + (json ? ["--json"] : []))
  }

  /// Pins issue 14: `info` listed only one KEYFORMAT when several were in effect.
  @Test func infoListsEveryKeyFormatInEffect() async throws {
    setText(
      "/v/media.m3u8",
      Self.media(
        segments: 2,
        keys: "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n"
          + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://id\",KEYFORMAT=\"com.apple.streamingkeydelivery\""
          + ",KEYFORMATVERSIONS=\"1\"\n"))
    let text = try await info("/v/media.m3u8")
    #expect(text.status == 0, "\(text.stderrText)")
    #expect(text.stdoutText.contains("AES-128"), "\(text.stdoutText)")
    #expect(text.stdoutText.contains("com.apple.streamingkeydelivery"), "\(text.stdoutText)")
    let json = try await info("/v/media.m3u8", json: true)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any])
    #expect((object["encryption"] as? [String])?.count == 2, "\(object)")
  }

  /// Pins issue 14: `info` on a master failed outright when one variant answered 404.
  @Test func infoShowsEveryVariantWithTheErrorOfOneThatAnswers404() async throws {
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nmedia.m3u8\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=900000\nmissing.m3u8\n")
    server.setRoute("/v/missing.m3u8", .status(code: 404))
    let text = try await info("/v/master.m3u8")
    #expect(text.status == 0, "\(text.stderrText)")
    let lines = text.stdoutText.split(separator: "\n")
    #expect(lines.contains { $0.contains("500000") && !$0.contains("404") }, "\(lines)")
    #expect(lines.contains { $0.contains("900000") && $0.contains("404") }, "\(lines)")
    #expect(text.stdoutText.contains("8.0 s in 2 segments"), "\(text.stdoutText)")

    let json = try await info("/v/master.m3u8", json: true)
    #expect(json.status == 0, "\(json.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any])
    let variants = try #require(object["variants"] as? [[String: Any]])
    #expect(variants.count == 2)
    #expect(variants[0]["error"] == nil)
    #expect((variants[1]["error"] as? String)?.contains("404") == true, "\(variants)")
  }

  /// A media playlist that imports the master's variables (`EXT-X-DEFINE:IMPORT`) is read
  /// with them: `info` on such a master shows no error on the variant's row.
  @Test func infoReadsVariantsWithTheMastersVariables() async throws {
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"name\",VALUE=\"media\"\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=500000\n{$name}.m3u8\n")
    setText(
      "/v/media.m3u8",
      "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"name\"\n#EXT-X-TARGETDURATION:4\n"
        + "#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\n{$name}-0.ts\n#EXT-X-ENDLIST\n")
    let text = try await info("/v/master.m3u8")
    #expect(text.status == 0, "\(text.stderrText)")
    #expect(!text.stdoutText.contains("error"), "\(text.stdoutText)")
    #expect(text.stdoutText.contains("4.0 s in 1 segments"), "\(text.stdoutText)")
  }

  /// Pins issue 14: `get --audio all --subtitles all` of a master whose variant names groups
  /// it does not define exited 0 with only the video and no word.
  @Test func getWarnsAboutRenditionGroupsTheMasterDoesNotDefine() async throws {
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO=\"aud-x\",SUBTITLES=\"subs-y\"\n"
        + "media.m3u8\n")
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get",
      server.url("/v/master.m3u8").absoluteString, "-o", work.url.appending(path: "m").path,
      "--audio", "all", "--subtitles", "all",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let warnings = result.stderrText.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
    #expect(warnings.contains { $0.contains("\"aud-x\"") && $0.contains("audio") }, "\(warnings)")
    #expect(
      warnings.contains { $0.contains("\"subs-y\"") && $0.contains("subtitle") }, "\(warnings)")
  }

  /// Pins issue 12: `info` printed escape sequences and other control characters from the
  /// server raw to the terminal.
  @Test func infoEscapesControlCharactersFromTheServer() async throws {
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n"
        + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\u{07}\",NAME=\"\u{1B}]0;owned\u{07}\u{1B}[2J\","
        + "LANGUAGE=\"e\u{7F}n\u{9B}\",URI=\"media.m3u8\"\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"avc1\u{1B}[31m\",AUDIO=\"a\u{07}\"\n"
        + "media.m3u8\n")
    let result = try await info("/v/master.m3u8")
    #expect(result.status == 0, "\(result.stderrText)")
    let bytes = Array(result.stdoutText.unicodeScalars)
    let controls = bytes.filter {
      ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
    }
    #expect(controls.isEmpty, "raw control characters: \(controls.map(\.value))")
    #expect(result.stdoutText.contains("\\u{1B}]0;owned\\u{07}"), "\(result.stdoutText)")
    #expect(result.stdoutText.contains("avc1\\u{1B}[31m"), "\(result.stdoutText)")
    #expect(result.stdoutText.contains("e\\u{7F}n\\u{9B}"), "\(result.stdoutText)")
  }

  /// Pins issue 12: a 15 MB segment URI gave a 15 MB error line; stream errors print URLs
  /// cut to a readable length.
  @Test func aStreamErrorNamingAHugeURIIsCutToAReadableLength() async throws {
    // 40 KB: the fault server reads request heads up to 64 KiB.
    let huge = "seg-" + String(repeating: "a", count: 40_000) + ".ts"
    setText("/v/huge.m3u8", Self.media(segments: 1).replacingOccurrences(of: "seg0.ts", with: huge))
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get",
      server.url("/v/huge.m3u8").absoluteString, "-o", work.url.appending(path: "h").path,
      "--piece-retries", "0", "--retries", "1",
    ])
    #expect(result.status == 1)
    let line = try #require(
      result.stderrText.split(separator: "\n").first { $0.hasPrefix("Error:") })
    #expect(line.contains("404"), "\(line.prefix(300))")
    #expect(line.count < 400, "an error line of \(line.count) characters")
    #expect(line.contains("/v/seg-aaaa"), "\(line)")
  }

  /// Pins issue 36, item 16: `info` of a master whose child playlists cannot be reached
  /// took 15 to 40 s (each child retried with backoff, one after another). An unknown host
  /// and a closed port are answered at once, the children are read in parallel, and each
  /// failing one is named with why.
  @Test func infoOfAMasterWithUnreachableChildrenAnswersWithinSecondsNamingEach() async throws {
    let closed = try FreePort.make()  // nothing listens there
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nmedia.m3u8\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=700000\nhttp://no-such-host.invalid/v.m3u8\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=900000\nhttp://127.0.0.1:\(closed)/v.m3u8\n")
    let started = ContinuousClock.now
    let text = try await info("/v/master.m3u8")
    let elapsed = started.duration(to: .now)

    #expect(elapsed < .seconds(8), "info took \(elapsed)")
    #expect(text.status == 0, "\(text.stderrText)")
    let lines = text.stdoutText.split(separator: "\n")
    #expect(lines.contains { $0.contains("500000") && !$0.contains("error") }, "\(lines)")
    #expect(
      lines.contains {
        $0.contains("700000")
          && $0.contains("Could not resolve the host of http://no-such-host.invalid/v.m3u8")
      }, "\(lines)")
    #expect(
      lines.contains {
        $0.contains("900000") && $0.contains("Could not connect to http://127.0.0.1:\(closed)/")
      }, "\(lines)")
    #expect(text.stdoutText.contains("8.0 s in 2 segments"), "\(text.stdoutText)")
  }

  /// Issue 36, item 16: a child that answers 503 is still tried again (a transient error),
  /// while the unreachable ones are answered at once.
  @Test func infoStillRetriesAChildThatAnswers503() async throws {
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nbusy.m3u8\n")
    server.setRoute(
      "/v/busy.m3u8",
      .sequence([
        .status(code: 503), .status(code: 200, body: Data(Self.media(segments: 2).utf8)),
      ]))
    let text = try await info("/v/master.m3u8")
    #expect(text.status == 0, "\(text.stderrText)")
    #expect(!text.stdoutText.contains("error"), "\(text.stdoutText)")
    #expect(text.stdoutText.contains("8.0 s in 2 segments"), "\(text.stdoutText)")
    #expect(server.requests(for: "/v/busy.m3u8").count == 2)
  }

  /// Issue 36, item 16: a child behind a proxy that refuses the tunnel (tinyproxy cannot
  /// reach it and answers the `CONNECT` with an error) is answered at once too, naming the
  /// child; it was retried with backoff like a cut connection.
  @Test(.enabled(if: TinyProxy.isInstalled, "needs tinyproxy (scripts/install-deps)"))
  func infoAnswersAChildWhoseProxyTunnelIsRefusedAtOnce() async throws {
    let proxy = try TinyProxy()
    try proxy.start()
    defer { proxy.stop() }
    let closed = try FreePort.make()
    setText(
      "/v/master.m3u8",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nmedia.m3u8\n"
        + "#EXT-X-STREAM-INF:BANDWIDTH=900000\nhttps://localhost:\(closed)/v.m3u8\n")
    let started = ContinuousClock.now
    // The master comes directly (http); the child's https goes through the proxy.
    var environment = ProcessInfo.processInfo.environment
    environment["https_proxy"] = proxy.url.absoluteString
    let text = try await InProcessOffline.run(
      ["info", server.url("/v/master.m3u8").absoluteString], environment: environment)
    let elapsed = started.duration(to: .now)

    #expect(elapsed < .seconds(8), "info took \(elapsed)")
    #expect(text.status == 0, "\(text.stderrText)")
    let lines = text.stdoutText.split(separator: "\n")
    #expect(
      lines.contains {
        $0.contains("900000") && $0.contains("Could not connect to https://localhost:\(closed)/")
          && $0.contains("CONNECT")
      }, "\(lines)")
    #expect(text.stdoutText.contains("8.0 s in 2 segments"), "\(text.stdoutText)")
  }

  /// Issue 36, item 16: `info` of a playlist or an MPD whose host refuses the connection
  /// fails at once, naming it; it was tried again with backoff for about 15 s.
  @Test(arguments: ["master.m3u8", "manifest.mpd"])
  func infoOfAnUnreachableEntryFailsAtOnce(_ name: String) async throws {
    let closed = try FreePort.make()  // nothing listens there
    let started = ContinuousClock.now
    let result = try await InProcessOffline.run(["info", "http://127.0.0.1:\(closed)/\(name)"])
    let elapsed = started.duration(to: .now)

    #expect(elapsed < .seconds(8), "info took \(elapsed)")
    #expect(result.status == 1)
    #expect(
      result.stderrText.contains("Could not connect to http://127.0.0.1:\(closed)/\(name)"),
      "\(result.stderrText)")
  }
}
