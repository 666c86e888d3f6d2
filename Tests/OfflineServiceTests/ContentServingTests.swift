import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 16, item 2: `/content/<id>/…` serves downloaded content to players.
@Suite("offline serve serves content to players", .serialized, .timed)
struct ContentServingTests {
  // Pins: seeking in a player is a Range request; every form must give exactly the bytes
  // asked for, with the Content-Range that says which.
  @Test func answersRangeRequestsByteExactly() async throws {
    let fixture = try await ServiceFixture()
    let size = 1 << 20
    let id = try await fixture.download("movie.mp4", count: size)
    let bytes = try Data(contentsOf: fixture.origin.file("movie.mp4"))
    let url = fixture.url("/content/\(id)/movie.mp4")
    let cases: [(String, Range<Int>)] = [
      ("0-0", 0..<1), ("100-1099", 100..<1100), ("-500", (size - 500)..<size),
      ("1048000-", 1_048_000..<size), ("1048575-2000000", 1_048_575..<size),
    ]
    for (range, expected) in cases {
      let reply = try await Curl.fetch(url, ["-r", range])
      #expect(reply.status == 206, "\(range)")
      #expect(reply.body == bytes.subdata(in: expected), "\(range)")
      #expect(
        reply.headers["content-range"]
          == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(size)", "\(range)")
    }
    let whole = try await Curl.fetch(url)
    #expect(whole.status == 200)
    #expect(whole.body == bytes)
    #expect(whole.headers["content-type"] == "video/mp4")
    #expect(whole.headers["accept-ranges"] == "bytes")
    let past = try await Curl.fetch(url, ["-r", "2000000-"])
    #expect(past.status == 416)
    #expect(past.headers["content-range"] == "bytes */\(size)")
    await fixture.close()
  }

  // Pins: players and browsers revalidate with ETag / Last-Modified, and If-Range must
  // never splice ranges of two versions.
  @Test func revalidatesWithETagAndLastModified() async throws {
    let fixture = try await ServiceFixture()
    let id = try await fixture.download("clip.webm", count: 10_000)
    let url = fixture.url("/content/\(id)/clip.webm")
    let first = try await Curl.fetch(url)
    let etag = try #require(first.headers["etag"])
    let modified = try #require(first.headers["last-modified"])
    #expect(first.headers["content-type"] == "video/webm")
    #expect(try await Curl.fetch(url, ["-H", "If-None-Match: \(etag)"]).status == 304)
    #expect(try await Curl.fetch(url, ["-H", "If-Modified-Since: \(modified)"]).status == 304)
    #expect(try await Curl.fetch(url, ["-H", "If-None-Match: \"other\""]).status == 200)
    #expect(try await Curl.fetch(url, ["-r", "10-19", "-H", "If-Range: \(etag)"]).status == 206)
    let changed = try await Curl.fetch(url, ["-r", "10-19", "-H", "If-Range: \"other\""])
    #expect(changed.status == 200)
    #expect(changed.body.count == 10_000)
    await fixture.close()
  }

  // Pins: a stream's offline playlists must play as served, keys included, with the
  // origin gone (the whole point of offline).
  @Test func servesAnOfflineStreamThatFFmpegDecodesWithTheOriginStopped() async throws {
    let fixture = try await ServiceFixture()
    let files = try await HLSFixture.aes128Rotating.make(in: fixture.origin.url)
    let id = try await fixture.download(url: files.url(on: fixture.nginx))
    fixture.nginx.stop()
    let playlist = try await Curl.fetch(fixture.url("/content/\(id)/index.m3u8"))
    #expect(playlist.status == 200)
    #expect(playlist.headers["content-type"] == "application/vnd.apple.mpegurl")
    let segment = try #require(
      playlist.text.split(separator: "\n").first { !$0.hasPrefix("#") && $0.hasSuffix(".ts") })
    let piece = try await Curl.fetch(fixture.url("/content/\(id)/\(segment)"), ["-I"])
    #expect(piece.status == 200)
    #expect(piece.headers["content-type"] == "video/mp2t")
    let key = try await Curl.fetch(fixture.url("/content/\(id)/keys/k0.key.ts"), ["-I"])
    #expect(key.status == 200)
    #expect(key.headers["content-type"] == "application/octet-stream")
    #expect(key.headers["cache-control"] == "no-store")
    let decoded = try await FFmpeg.decode(fixture.url("/content/\(id)/index.m3u8"), timeout: 60)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 0.5)
    await fixture.close()
  }

  // Pins: only downloaded content is served; a content still downloading or never
  // downloaded answers 409 naming its state, an unknown id 404.
  @Test func servesOnlyDownloadedContent() async throws {
    let fixture = try await ServiceFixture()
    try TestData.writeFile(at: fixture.origin.file("later.bin"), count: 1000)
    let content = try await fixture.manager.content(
      for: OfflineSource(url: fixture.nginx.url("/later.bin")))
    let waiting = try await Curl.fetch(fixture.url("/content/\(content.id)/later.bin"))
    #expect(waiting.status == 409)
    #expect(waiting.text.contains("not downloaded"))
    #expect(try await Curl.fetch(fixture.url("/content/nosuchid/later.bin")).status == 404)
    let id = try await fixture.download("ready.bin", count: 10)
    let redirect = try await Curl.fetch(fixture.url("/content/\(id)/"))
    #expect(redirect.status == 302)
    #expect(redirect.headers["location"] == "/content/\(id)/ready.bin")
    #expect(
      try await Curl.fetch(fixture.url("/content/\(id)/ready.bin"), ["-X", "DELETE"]).status == 405)
    await fixture.close()
  }
}

/// Issue 40, item 1: an HLS stream plays through `offline serve` while it downloads, from
/// what is on disk; the player never asks the origin.
@Suite("offline serve serves HLS streams on their way", .serialized, .timed)
struct GrowingStreamServingTests {
  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func ffmpegPlaysTheServedGrowingPlaylistToTheEndWithoutAskingTheOrigin() async throws {
    let fixture = try await ServiceFixture()
    let files = try await HLSFixture.aes128Rotating.make(in: fixture.origin.url, segmentCount: 20)
    try await fixture.manager.setRateLimit(ByteRate(bytesPerSecond: 80_000))
    // One piece at a time: pieces side by side under one cap land together near the end.
    var configuration = DownloadConfiguration()
    configuration.stream.parallelSegments = 1
    configuration.stream.maxConnections = 1
    let content = try await fixture.manager.add(
      [OfflineSource(url: files.url(on: fixture.nginx))], configuration: configuration
    ).first!
    let entry = try await Curl.fetch(fixture.url("/content/\(content.id)/?offline=1"))
    #expect(entry.status == 302)
    #expect(entry.headers["location"] == "/content/\(content.id)/index-partial.m3u8")
    let playlist = fixture.url("/content/\(content.id)/index-partial.m3u8")
    var listed = 0
    for _ in 0..<600 where listed == 0 {
      let reply = try await Curl.fetch(playlist)
      if reply.status == 200 { listed = reply.text.components(separatedBy: "#EXTINF").count - 1 }
      if listed == 0 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(listed >= 1 && listed < 20, "\(listed) segments when the player starts")
    let player = Task {
      try await FFmpeg.run(
        [
          "-v", "error", "-live_start_index", "0", "-i", playlist, "-f",
          "null", "-",
          "-progress", "pipe:1", "-nostats",
        ], timeout: 90)
    }
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    let output = try await player.value
    let played =
      output.stdoutText.split(separator: "\n").last { $0.hasPrefix("out_time_us=") }
      .flatMap { Double($0.dropFirst("out_time_us=".count)) }.map { $0 / 1_000_000 } ?? 0
    #expect(output.status == 0, "\(output.stderrText)")
    #expect(abs(played - 20) < 0.2, "played \(played) s")
    let asked = try await fixture.nginx.accessLog(minimumCount: 1)
    #expect(
      !asked.contains { $0.userAgent?.hasPrefix("Lavf") == true }, "the player asked the origin")
    await fixture.close()
  }
}
