import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a stream published on two CDNs (DASH `BaseURL`s, an HLS backup variant
/// or content steering pathway) is downloaded whole when one of them fails some segments:
/// each comes from the other, the copy decodes like the origin, and the outcome says which
/// source served how much. Two copies of a stream under two paths of one nginx, one with
/// segments removed (404), or an origin that is stopped (connection refused).
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct StreamFailoverTests {
  /// Two copies of a stream under `cdn1/` and `cdn2/` of one nginx root.
  struct TwoCDNs {
    let www: TemporaryDirectory
    let nginx: NginxServer
    let files: HLSFixtureFiles

    init(hls fixture: HLSFixture, segmentCount: Int = 6, options: NginxServer.Options = .init())
      async throws
    {
      www = try TemporaryDirectory(prefix: "offlinekit-failover")
      files = try await fixture.make(
        in: www.url.appending(path: "cdn1"), segmentCount: segmentCount)
      try FileManager.default.copyItem(
        at: www.url.appending(path: "cdn1"), to: www.url.appending(path: "cdn2"))
      nginx = try NginxServer(root: www.url, options: options)
      try nginx.start()
    }

    init(dash fixture: DASHPlaybackFixture, options: NginxServer.Options = .init()) async throws {
      www = try TemporaryDirectory(prefix: "offlinekit-failover")
      files = try await fixture.make(in: www.url.appending(path: "cdn1"))
      try FileManager.default.copyItem(
        at: www.url.appending(path: "cdn1"), to: www.url.appending(path: "cdn2"))
      nginx = try NginxServer(root: www.url, options: options)
      try nginx.start()
    }

    /// Removes the files of `cdn` whose names satisfy `matching`; returns their sizes.
    @discardableResult
    func remove(from cdn: String, _ matching: (String) -> Bool) throws -> [String: Int64] {
      let folder = www.url.appending(path: cdn)
      var removed: [String: Int64] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where matching(name) {
        let file = folder.appending(path: name)
        removed[name] = try Int64(Data(contentsOf: file).count)
        try FileManager.default.removeItem(at: file)
      }
      return removed
    }
  }

  func store() throws -> (TemporaryDirectory, OfflineIndex) {
    let root = try TemporaryDirectory(prefix: "offlinekit-failover-store")
    return (root, try OfflineIndex(directory: root.url.appending(path: "store")))
  }

  static let quickRetries = StreamConfiguration(
    pieceRetries: 2, pieceRetryDelay: .milliseconds(10))

  @Test func anHLSSegmentMissingOnItsCDNComesFromTheBackupVariant() async throws {
    let cdns = try await TwoCDNs(hls: .fmp4)
    let master = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2"
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2"
      cdn2/index.m3u8
      """
    try master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let missing = try cdns.remove(from: "cdn1") { $0 == "seg2.m4s" || $0 == "seg4.m4s" }
    #expect(missing.count == 2)
    let (root, index) = try store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: Self.quickRetries, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()

    #expect(outcome.sources.count == 2, "\(outcome.sources)")
    #expect(outcome.sources.first?.url.path == "/cdn1/index.m3u8")
    #expect(outcome.sources.first?.isPrimary == true)
    #expect(outcome.sources.last?.bytes == missing.values.reduce(0, +), "only what cdn1 lacked")
    #expect(outcome.sources.first?.dropped?.contains("2 pieces") == true)
    let log = try await cdns.nginx.accessLog(minimumCount: 10)
    // A 404 gives way to the backup at once: no retries where the segment is not.
    #expect(log.filter { $0.uri == "/cdn1/seg2.m4s" }.count == 1)
    #expect(
      log.filter { $0.uri.hasPrefix("/cdn2/seg") }.map(\.uri).sorted() == [
        "/cdn2/seg2.m4s", "/cdn2/seg4.m4s",
      ])

    let origin = try await FFmpeg.frameHashes(
      of: cdns.www.url.appending(path: "cdn2/index.m3u8").path)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
    #expect(try await FFmpeg.frameHashes(of: outcome.index.path) == origin)
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("cdn"), "the offline master names no CDN: \(text)")
  }

  /// Each CDN names its own audio group: an audio segment missing on the first comes from
  /// the same rendition (by `NAME`) in the backup variant's group.
  @Test func anHLSAudioSegmentMissingOnItsCDNComesFromTheBackupsRendition() async throws {
    let cdns = try await TwoCDNs(hls: .renditions)
    var lines: [String] = ["#EXTM3U"]
    for cdn in ["cdn1", "cdn2"] {
      lines.append(
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a-\(cdn)\",NAME=\"English\",LANGUAGE=\"en\","
          + "DEFAULT=YES,AUTOSELECT=YES,URI=\"\(cdn)/audio_en/index.m3u8\"")
    }
    for cdn in ["cdn1", "cdn2"] {
      lines += ["#EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO=\"a-\(cdn)\"", "\(cdn)/video/index.m3u8"]
    }
    try (lines.joined(separator: "\n") + "\n").write(
      to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let audio = cdns.www.url.appending(path: "cdn1/audio_en")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: audio.path).sorted()
        .first { !$0.hasSuffix(".m3u8") })
    let size = try Int64(Data(contentsOf: audio.appending(path: name)).count)
    try FileManager.default.removeItem(at: audio.appending(path: name))
    let (root, index) = try store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: Self.quickRetries, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    let log = try await cdns.nginx.accessLog(minimumCount: 10)
    #expect(
      log.filter { $0.uri.hasSuffix("/audio_en/\(name)") }.map { "\($0.uri) \($0.status)" } == [
        "/cdn1/audio_en/\(name) 404", "/cdn2/audio_en/\(name) 200",
      ])
    #expect(outcome.sources.last?.bytes == size, "\(outcome.sources)")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
  }

  /// The pathway a steering tag names first is on an origin that is down: the variant's
  /// playlist and every segment come from the next pathway, and the offline master has no
  /// steering tag.
  @Test func anHLSPathwayThatIsDownGivesWayToTheNext() async throws {
    let cdns = try await TwoCDNs(hls: .fmp4)
    let down = try NginxServer(root: cdns.www.url)
    try down.start()
    let far = down.url("/cdn1/index.m3u8").absoluteString
    down.stop(graceful: false)
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="steering.json",PATHWAY-ID="FAR"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="NEAR"
      cdn2/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="FAR"
      \(far)
      """
    try master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let (root, index) = try store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: Self.quickRetries, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    let log = try await cdns.nginx.accessLog(minimumCount: 8)
    #expect(log.contains { $0.uri == "/cdn2/index.m3u8" })
    #expect(
      log.filter { $0.uri.hasPrefix("/steering.json") }.map { "\($0.uri) \($0.status)" } == [
        "/steering.json?_HLS_pathway=FAR 404"
      ],
      "asked once; its 404 leaves the playlist's own order")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("STEERING") && !text.contains("http"), "\(text)")
  }

  /// The steering manifest puts the pathway the tag names second: the other one's variant
  /// is the primary source, and what it lacks comes from the tag's.
  @Test func anHLSSteeringManifestOrdersThePathways() async throws {
    let cdns = try await TwoCDNs(hls: .fmp4)
    let master = """
      #EXTM3U
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json",PATHWAY-ID="ONE"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="ONE"
      cdn1/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="TWO"
      cdn2/index.m3u8
      """
    try master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let steering = #"{"VERSION":1,"TTL":300,"PATHWAY-PRIORITY":["TWO","ONE"]}"#
    try steering.write(to: cdns.www.file("steering.json"), atomically: true, encoding: .utf8)
    let missing = try cdns.remove(from: "cdn2") { $0 == "seg1.m4s" }
    let (root, index) = try store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: Self.quickRetries, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    #expect(outcome.sources.map(\.url.path) == ["/cdn2/index.m3u8", "/cdn1/index.m3u8"])
    #expect(outcome.sources.last?.bytes == missing.values.reduce(0, +))
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
  }

  /// The manifest lists its `BaseURL`s with the lower `dvb:priority` second: it is still
  /// tried first, and what it lacks (an init section, media segments) comes from the other.
  @Test func aDASHSegmentMissingAtOneBaseURLComesFromTheNext() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(
      in: cdns.www,
      baseURLs:
        #"<BaseURL dvb:priority="2">cdn2/</BaseURL><BaseURL dvb:priority="1">cdn1/</BaseURL>"#)
    let missing = try cdns.remove(from: "cdn1") {
      $0.hasPrefix("init-stream1") || $0.hasSuffix("-00003.m4s")
    }
    #expect(missing.count == 3, "\(missing.keys)")
    let (root, index) = try store()
    let url = cdns.nginx.url("/manifest.mpd")
    let download = DASHDownload(
      url: url, folder: root.url.appending(path: "content"), configuration: Self.quickRetries,
      journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()

    #expect(
      outcome.sources.map { $0.url.absoluteString } == [
        cdns.nginx.url("/cdn1/").absoluteString, cdns.nginx.url("/cdn2/").absoluteString,
      ], "the lower dvb:priority first: \(outcome.sources)")
    #expect(outcome.sources.last?.bytes == missing.values.reduce(0, +))
    let origin = try await Self.decodedMD5s(cdns.www.url.appending(path: "cdn2/manifest.mpd").path)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
    #expect(try await Self.decodedMD5s(outcome.index.path) == origin)
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(!text.contains("cdn") && !text.contains("http://"), "\(text)")
  }

  /// A run that failed because a segment was at neither `BaseURL` keeps every piece, those
  /// the second `BaseURL` served too; the next run, once the second CDN has the segment,
  /// takes it from there and nothing else.
  @Test func aDASHRunResumesOnTheOtherBaseURL() async throws {
    let cdns = try await TwoCDNs(dash: .timeline)
    try Self.writeManifest(
      in: cdns.www, baseURLs: "<BaseURL>cdn1/</BaseURL><BaseURL>cdn2/</BaseURL>")
    // One segment only cdn2 has (served from there by the first run, kept by the second),
    // and one no CDN has until the second run.
    try cdns.remove(from: "cdn1") {
      $0.hasSuffix("stream0-00004.m4s") || $0.hasSuffix("stream1-00002.m4s")
    }
    let moved = cdns.www.file("kept.m4s")
    let segment = try #require(
      try FileManager.default.contentsOfDirectory(atPath: cdns.www.url.appending(path: "cdn2").path)
        .first { $0.hasSuffix("stream0-00004.m4s") })
    try FileManager.default.moveItem(at: cdns.www.url.appending(path: "cdn2/\(segment)"), to: moved)
    let (root, index) = try store()
    let url = cdns.nginx.url("/manifest.mpd")
    let download = DASHDownload(
      url: url, folder: root.url.appending(path: "content"), configuration: Self.quickRetries,
      journal: index.transfers, transport: CurlTransport())
    do {
      _ = try await download.run()
      Issue.record("a segment at neither BaseURL was found")
    } catch {
      #expect(error.description.contains(segment), "\(error)")
    }
    #expect(!download.isComplete)

    try FileManager.default.moveItem(at: moved, to: cdns.www.url.appending(path: "cdn2/\(segment)"))
    let first = try await cdns.nginx.accessLog(minimumCount: 1)
    let outcome = try await download.run()
    let again = try await cdns.nginx.accessLog(minimumCount: first.count + 3)
      .dropFirst(first.count)
    // Nothing the first run received whole is asked for again (a loaded machine may have
    // left pieces unstarted when it failed: those come now).
    let served = Set(first.filter { $0.status == 200 }.map(\.uri))
    #expect(again.filter { served.contains($0.uri) }.map(\.uri) == ["/manifest.mpd"])
    let tries = again.filter { $0.uri.hasSuffix(segment) }.map { "\($0.uri) \($0.status)" }
    #expect(
      tries == ["/cdn1/\(segment) 404", "/cdn2/\(segment) 200"],
      "the missing segment, from the BaseURL that has it")
    #expect(outcome.sources.last?.bytes ?? 0 > 0)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
  }

  /// ExoPlayer #7654 ("impossible to resume a download using a different baseURI"): a
  /// download stopped midway goes on when its first CDN has gone; every piece it had whole
  /// is kept, and the rest comes from the second `BaseURL`.
  @Test func aDASHDownloadStoppedMidwayGoesOnFromTheOtherBaseURL() async throws {
    let cdns = try await TwoCDNs(dash: .timeline, options: .init(limitRate: "32k"))
    try Self.writeManifest(
      in: cdns.www, baseURLs: "<BaseURL>cdn1/</BaseURL><BaseURL>cdn2/</BaseURL>")
    let (root, index) = try store()
    let download = DASHDownload(
      url: cdns.nginx.url("/manifest.mpd"), folder: root.url.appending(path: "content"),
      configuration: StreamConfiguration(
        parallelSegments: 2, pieceRetries: 2, pieceRetryDelay: .milliseconds(10)),
      journal: index.transfers, transport: CurlTransport())
    let (landed, landing) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let first = Task {
      try await download.run { progress in
        if (progress.segmentsDone ?? 0) >= 2 { landing.yield() }
      }
    }
    var waiting = landed.makeAsyncIterator()
    _ = await waiting.next()
    first.cancel()
    _ = await first.result
    #expect(!download.isComplete, "stopped before its end")

    let sizes = try Self.sizes(in: cdns.www.url.appending(path: "cdn1"))
    let stopped = try await cdns.nginx.accessLog(minimumCount: 3)
    let whole = Set(
      stopped.filter {
        $0.status == 200 && $0.bodyBytesSent == sizes[($0.uri as NSString).lastPathComponent]
      }
      .map { ($0.uri as NSString).lastPathComponent })
    #expect(!whole.isEmpty, "\(stopped.map(\.uri))")
    try FileManager.default.removeItem(at: cdns.www.url.appending(path: "cdn1"))
    let outcome = try await download.run()
    let again = try await cdns.nginx.accessLog(minimumCount: stopped.count + 2)
      .dropFirst(stopped.count)
    let refetched = again.filter {
      $0.uri.hasPrefix("/cdn2/") && whole.contains(($0.uri as NSString).lastPathComponent)
    }
    #expect(refetched.isEmpty, "pieces kept whole were fetched again: \(refetched.map(\.uri))")
    #expect((outcome.sources.last?.bytes ?? 0) > 0, "\(outcome.sources)")
    let origin = try await Self.decodedMD5s(cdns.www.url.appending(path: "cdn2/manifest.mpd").path)
    cdns.nginx.stop(graceful: false)
    #expect(try await Self.decodedMD5s(outcome.index.path) == origin)
  }

  /// The size of each file in `folder`, by name.
  static func sizes(in folder: URL) throws -> [String: Int64] {
    var sizes: [String: Int64] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      sizes[name] = try Int64(Data(contentsOf: folder.appending(path: name)).count)
    }
    return sizes
  }

  /// cdn1's manifest, at the root, with `baseURLs` right after the `MPD` element's start.
  static func writeManifest(in www: TemporaryDirectory, baseURLs: String) throws {
    var text = try String(contentsOf: www.url.appending(path: "cdn1/manifest.mpd"), encoding: .utf8)
    let start = try #require(text.range(of: "<MPD"))
    let end = try #require(text.range(of: ">", range: start.upperBound..<text.endIndex))
    text.insert(contentsOf: baseURLs, at: end.upperBound)
    if !text.contains("xmlns:dvb") {
      text = text.replacingOccurrences(
        of: "<MPD ", with: #"<MPD xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1" "#)
    }
    try text.write(to: www.file("manifest.mpd"), atomically: true, encoding: .utf8)
  }

  /// The MD5 of the decoded video and audio of `input`.
  static func decodedMD5s(_ input: String) async throws -> [String] {
    var result: [String] = []
    for stream in ["v:0", "a:0"] {
      let decoded = try await FFmpeg.decodedMD5(input, stream: stream)
      #expect(decoded.md5.hasPrefix("MD5="), "\(input) \(stream): \(decoded.errors)")
      result.append(decoded.md5)
    }
    return result
  }
}
