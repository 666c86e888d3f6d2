import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a steering server that changes its mind during a long download. Two
/// pathways (two copies of a stream under one nginx, served at 32 KB/s so the download
/// lasts several seconds) and a steering manifest with a one-second `TTL` that puts the
/// first pathway first until the first segment is on disk, then the second.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSSteeringReloadNginxTests {
  static let master = """
    #EXTM3U
    #EXT-X-CONTENT-STEERING:SERVER-URI="/steer/steering.json",PATHWAY-ID="ONE"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="ONE"
    cdn1/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64000d,mp4a.40.2",PATHWAY-ID="TWO"
    cdn2/index.m3u8
    """

  static func steering(_ priority: [String]) -> String {
    let names = priority.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"VERSION":1,"TTL":1,"RELOAD-URI":"steering.json?s=1","PATHWAY-PRIORITY":[\#(names)]}"#
  }

  /// Two pathways of `segmentCount` segments at 32 KB/s under one nginx, ``master`` at its
  /// root, a steering manifest at `json` that puts `priority` first, and the download of the
  /// master into a fresh store, one segment at a time. Keep it alive for the whole test.
  struct Steered {
    let cdns: StreamFailoverTests.TwoCDNs
    let json: URL
    let root: TemporaryDirectory
    let index: OfflineIndex
    let download: HLSDownload

    init(segmentCount: Int, priority: [String]) async throws {
      cdns = try await StreamFailoverTests.TwoCDNs(
        hls: .fmp4, segmentCount: segmentCount, options: .init(limitRate: "32k"))
      try HLSSteeringReloadNginxTests.master.write(
        to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
      let steer = cdns.www.url.appending(path: "steer")
      try FileManager.default.createDirectory(at: steer, withIntermediateDirectories: true)
      json = steer.appending(path: "steering.json")
      try HLSSteeringReloadNginxTests.steering(priority).write(
        to: json, atomically: true, encoding: .utf8)
      (root, index) = try StreamFailoverTests().store()
      download = HLSDownload(
        url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
        configuration: StreamConfiguration(
          parallelSegments: 1, pieceRetries: 2, pieceRetryDelay: .milliseconds(10)),
        journal: index.transfers, transport: CurlTransport())
    }
  }

  @Test func theSegmentsAfterASteeringChangeComeFromTheNewFirstPathway() async throws {
    let steered = try await Steered(segmentCount: 8, priority: ["ONE", "TWO"])
    let (cdns, json, download) = (steered.cdns, steered.json, steered.download)
    let changed = Locked(false)
    let outcome = try await download.run { progress in
      guard (progress.segmentsDone ?? 0) >= 1, !changed.withLock({ $0 }) else { return }
      changed.withLock { $0 = true }
      try? Self.steering(["TWO", "ONE"]).write(to: json, atomically: true, encoding: .utf8)
    }
    #expect(changed.withLock { $0 })

    let log = try await cdns.nginx.accessLog(minimumCount: 12)
    let segments = log.filter { $0.uri.contains("/seg") }
    #expect(segments.allSatisfy { $0.status == 200 }, "\(segments.map(\.uri))")
    #expect(Set(segments.map { ($0.uri as NSString).lastPathComponent }).count == segments.count)
    #expect(segments.first?.uri.hasPrefix("/cdn1/") == true, "\(segments.map(\.uri))")
    #expect(segments.last?.uri.hasPrefix("/cdn2/") == true, "\(segments.map(\.uri))")
    // Once on the second pathway, the download stays there.
    let firstOnTwo = try #require(segments.firstIndex { $0.uri.hasPrefix("/cdn2/") })
    #expect(segments[firstOnTwo...].allSatisfy { $0.uri.hasPrefix("/cdn2/") })
    let asked = log.filter { $0.uri.hasPrefix("/steer/") }.map(\.uri)
    // The first request names the pathway in use too (the tag's), with no throughput yet.
    #expect(asked.first == "/steer/steering.json?_HLS_pathway=ONE", "\(asked)")
    #expect(
      asked.dropFirst().allSatisfy { $0.hasPrefix("/steer/steering.json?s=1&_HLS_pathway=") },
      "reloads at RELOAD-URI with the pathway in use: \(asked)")
    #expect(asked.contains { $0.contains("_HLS_pathway=ONE") && $0.contains("_HLS_throughput=") })
    #expect(outcome.sources.map(\.url.path) == ["/cdn1/index.m3u8", "/cdn2/index.m3u8"])
    #expect(outcome.sources.allSatisfy { $0.bytes > 0 && $0.dropped == nil }, "\(outcome.sources)")

    let origin = try await FFmpeg.frameHashes(
      of: cdns.www.url.appending(path: "cdn1/index.m3u8").path)
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
    #expect(try await FFmpeg.frameHashes(of: outcome.index.path) == origin)
  }

  /// A steering server that goes away mid-download (404, then nothing at all) neither
  /// stops the download nor changes its pathway.
  @Test func aSteeringServerThatGoesAwayKeepsTheLastPriority() async throws {
    let steered = try await Steered(segmentCount: 6, priority: ["TWO", "ONE"])
    let (cdns, json, download) = (steered.cdns, steered.json, steered.download)
    let removed = Locked(false)
    let outcome = try await download.run { _ in
      guard !removed.withLock({ $0 }) else { return }
      removed.withLock { $0 = true }
      try? FileManager.default.removeItem(at: json)
    }
    let log = try await cdns.nginx.accessLog(minimumCount: 8)
    let segments = log.filter { $0.uri.contains("/seg") }
    #expect(
      !segments.isEmpty && segments.allSatisfy { $0.uri.hasPrefix("/cdn2/") && $0.status == 200 })
    #expect(outcome.sources.first?.url.path == "/cdn2/index.m3u8")
    #expect(
      log.contains { $0.uri.hasPrefix("/steer/steering.json?s=1&") && $0.status == 404 },
      "asked again, and not found: \(log.map(\.uri))")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
