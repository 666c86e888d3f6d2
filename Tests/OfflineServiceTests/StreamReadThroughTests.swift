import Foundation
import OfflineKit
import TestSupport
import Testing

/// Issue 40, item 2: `offline serve` reads an HLS stream through while it downloads. The
/// player opens `/content/<id>/` (the whole presentation by local names); a segment that is
/// not on disk is fetched by the download ahead of its queue, into its own files and
/// journal, and the player never reaches the origin.
@Suite("offline serve reads HLS streams through", .serialized, .timed)
struct StreamReadThroughTests {
  /// A 40-segment stream at a cap that makes its download take about 35 s.
  private static func downloading(_ fixture: ServiceFixture) async throws -> OfflineContent {
    let files = try await HLSFixture.tsVariants.make(in: fixture.origin.url, segmentCount: 40)
    try await fixture.manager.setRateLimit(ByteRate(bytesPerSecond: 200_000))
    var configuration = DownloadConfiguration()
    configuration.stream.parallelSegments = 2
    return try await fixture.manager.add(
      [OfflineSource(url: files.url(on: fixture.nginx))], configuration: configuration
    ).first!
  }

  /// The URL of `content`'s read-through playlist, once its download has written it.
  private static func throughPlaylist(of content: OfflineContent, _ fixture: ServiceFixture)
    async throws -> String
  {
    let playlist = fixture.url("/content/\(content.id)/index-through.m3u8")
    var status = 0
    for _ in 0..<200 where status != 200 {
      status = try await Curl.fetch(playlist).status
      if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(status == 200)
    return playlist
  }

  /// ffmpeg decoding `seconds` of `playlist` from `start`.
  private static func play(_ playlist: String, from start: Int, for seconds: Int) async throws
    -> ProcessRunner.Output
  {
    try await FFmpeg.run(
      [
        "-v", "error", "-ss", "\(start)", "-i", playlist, "-t", "\(seconds)", "-f", "null", "-",
        "-progress", "pipe:1", "-nostats",
      ], timeout: 60)
  }

  /// Seconds of media ffmpeg's `-progress` output says it decoded.
  private static func played(_ output: ProcessRunner.Output) -> Double {
    output.stdoutText.split(separator: "\n").last { $0.hasPrefix("out_time_us=") }
      .flatMap { Double($0.dropFirst("out_time_us=".count)) }.map { $0 / 1_000_000 } ?? 0
  }

  /// The origin's segment requests: no player among them, and none answered twice in full.
  private static func checkOrigin(_ fixture: ServiceFixture) async throws {
    let asked = try await fixture.nginx.accessLog(minimumCount: 1)
    #expect(
      !asked.contains { $0.userAgent?.hasPrefix("Lavf") == true }, "the player asked the origin")
    var answered: [String: Int] = [:]
    for uri in wholeSegments(asked, fixture) { answered[uri, default: 0] += 1 }
    let twice = answered.filter { $0.value > 1 }
    #expect(twice.isEmpty, "segments fetched twice: \(twice)")
  }

  /// The segments of `entries` that nginx sent in full.
  private static func wholeSegments(
    _ entries: some Sequence<AccessLogEntry>, _ fixture: ServiceFixture
  )
    -> [String]
  {
    entries.filter { entry in
      guard entry.uri.hasSuffix(".ts"), entry.status == 200 else { return false }
      let file = fixture.origin.url.appending(path: String(entry.uri.dropFirst())).path
      let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
      return entry.bodyBytesSent == Int64(size ?? -1)
    }.map(\.uri)
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func ffmpegPlaysFromTheStartWhileItDownloadsWithoutAskingTheOrigin() async throws {
    let fixture = try await ServiceFixture()
    let content = try await Self.downloading(fixture)
    let entry = try await Curl.fetch(fixture.url("/content/\(content.id)/"))
    #expect(entry.status == 302)
    #expect(entry.headers["location"] == "/content/\(content.id)/index-through.m3u8")
    let restricted = try await Curl.fetch(fixture.url("/content/\(content.id)/?offline=1"))
    #expect(restricted.headers["location"] == "/content/\(content.id)/index-partial.m3u8")
    // The read-through playlist is written a second into the run.
    let playlist = try await Self.throughPlaylist(of: content, fixture)
    let output = try await FFmpeg.run(
      ["-v", "error", "-i", playlist, "-f", "null", "-", "-progress", "pipe:1", "-nostats"],
      timeout: 90)
    #expect(output.status == 0, "\(output.stderrText)")
    #expect(abs(Self.played(output) - 40) < 0.5, "played \(Self.played(output)) s")
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    try await Self.checkOrigin(fixture)
    let report = try await content.verify()
    #expect(report.isWhole, "\(report)")
    await fixture.close()
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func aSeekNearTheEndIsFetchedAheadOfTheQueue() async throws {
    let fixture = try await ServiceFixture()
    let content = try await Self.downloading(fixture)
    let playlist = try await Self.throughPlaylist(of: content, fixture)
    // 36 s into a 40 s stream, two seconds of it: the download, in playback order, is
    // near its start.
    let output = try await Self.play(playlist, from: 36, for: 2)
    #expect(output.status == 0, "\(output.stderrText)")
    #expect(Self.played(output) > 1.5, "played \(Self.played(output)) s")
    let atTheSeek = try await content.snapshot.bytes
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    // Without the seek's segments fetched first, it waits for the download to get there,
    // past 90 % of the bytes.
    let whole = try await content.snapshot.bytes
    #expect(atTheSeek < whole / 2, "\(atTheSeek) of \(whole) bytes when the seek had played")
    try await Self.checkOrigin(fixture)
    await fixture.close()
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func aPausedStreamFetchesWhatThePlayerAsksForAndStaysPaused() async throws {
    let fixture = try await ServiceFixture()
    let content = try await Self.downloading(fixture)
    let playlist = try await Self.throughPlaylist(of: content, fixture)
    try await content.suspend()
    let before = try fixture.nginx.accessLog().count
    let output = try await Self.play(playlist, from: 30, for: 2)
    #expect(output.status == 0, "\(output.stderrText)")
    #expect(Self.played(output) > 1.5, "played \(Self.played(output)) s")
    #expect(try await content.state == .suspended)
    // The segments around 30 s (and what ffmpeg probes), not the rest of the stream.
    let fetched = try fixture.nginx.accessLog()[before...].count { $0.uri.hasSuffix(".ts") }
    #expect(fetched >= 1 && fetched <= 6, "\(fetched) segments fetched for the player")
    // What the player pulled in is kept: the resumed download fetches none of it again.
    let atResume = try fixture.nginx.accessLog().count
    try await content.resume()
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    let log = try await fixture.nginx.accessLog(minimumCount: atResume)
    let forThePlayer = Set(Self.wholeSegments(log[before..<atResume], fixture))
    let afterwards = Set(Self.wholeSegments(log[atResume...], fixture))
    #expect(!forThePlayer.isEmpty && forThePlayer.isDisjoint(with: afterwards), "\(forThePlayer)")
    #expect(!log.contains { $0.userAgent?.hasPrefix("Lavf") == true })
    let report = try await content.verify()
    #expect(report.isWhole, "\(report)")
    await fixture.close()
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func aDASHPresentationPlaysFromTheStartWhileItDownloads() async throws {
    let fixture = try await ServiceFixture()
    let files = try await DASHPlaybackFixture.timeline.make(in: fixture.origin.url)
    try await fixture.manager.setRateLimit(ByteRate(bytesPerSecond: 40_000))
    let content = try await fixture.manager.add([OfflineSource(url: files.url(on: fixture.nginx))])
      .first!
    let entry = try await Curl.fetch(fixture.url("/content/\(content.id)/"))
    #expect(entry.headers["location"] == "/content/\(content.id)/index-through.mpd")
    let onDisk = try await Curl.fetch(fixture.url("/content/\(content.id)/?offline=1"))
    #expect(onDisk.headers["location"] == "/content/\(content.id)/index-partial.mpd")
    let manifest = fixture.url("/content/\(content.id)/index-through.mpd")
    var status = 0
    for _ in 0..<200 where status != 200 {
      status = try await Curl.fetch(manifest).status
      if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(try await content.state == .downloading, "the player came after the download")
    let output = try await FFmpeg.run(
      ["-v", "error", "-i", manifest, "-f", "null", "-", "-progress", "pipe:1", "-nostats"],
      timeout: 90)
    #expect(output.status == 0, "\(output.stderrText)")
    #expect(abs(Self.played(output) - files.duration) < 0.5, "played \(Self.played(output)) s")
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)
    let asked = try await fixture.nginx.accessLog(minimumCount: 1)
    #expect(!asked.contains { $0.userAgent?.hasPrefix("Lavf") == true })
    #expect(try await content.verify().isWhole)
    await fixture.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func restrictedToWhatIsOnDiskAMissingSegmentIs404WithoutARequest() async throws {
    let fixture = try await ServiceFixture()
    let content = try await Self.downloading(fixture)
    let base = "/content/\(content.id)/"
    var master = ""
    for _ in 0..<200 where !master.contains("through.m3u8") {
      master = try await Curl.fetch(fixture.url(base + "index-through.m3u8")).text
      if !master.contains("through.m3u8") { try await Task.sleep(for: .milliseconds(50)) }
    }
    try await content.suspend()
    // The chosen variant's read-through playlist names its last segment by its local name.
    let media = try #require(master.split(separator: "\n").first { $0.hasSuffix("through.m3u8") })
    let folder = media.split(separator: "/").dropLast().joined(separator: "/")
    let listed = try await Curl.fetch(fixture.url(base + media)).text
    let last = try #require(listed.split(separator: "\n").last { $0.hasSuffix(".ts") })
    let before = try fixture.nginx.accessLog().count
    let missing = try await Curl.fetch(fixture.url(base + "\(folder)/\(last)?offline=1"))
    #expect(missing.status == 404)
    #expect(missing.text.contains("on disk"))
    #expect(try fixture.nginx.accessLog().count == before)
    await fixture.close()
  }
}
