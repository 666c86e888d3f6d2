import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A stream piece refused as an expired signed URL asks the manager's ``URLRefresh`` hook
/// at once (issue 13, item 4): before, the piece engine tried it again with backoff (ten
/// times, 75 s with the defaults) while the hook waited.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct StreamURLRefreshRuleTests {
  /// A playlist of `files`' stream whose keys and segments are signed URLs (`/signed/…`)
  /// that expire `seconds` from now (negative: expired already).
  static func playlist(_ files: HLSFixtureFiles, origin: SignedOrigin, expiresIn seconds: Double)
    throws -> String
  {
    let text = try String(contentsOf: files.entryFile, encoding: .utf8)
    func signed(_ name: String) throws -> String {
      try origin.signedURL("/signed/hls/\(name)", expiresIn: seconds).absoluteString
    }
    return try text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line.hasPrefix("#EXT-X-KEY:"), let start = line.range(of: "URI=\"") {
        let rest = line[start.upperBound...]
        let name = String(rest.prefix { $0 != "\"" })
        return line[..<start.upperBound] + (try signed(name)) + rest.dropFirst(name.count)
      }
      return line.isEmpty || line.hasPrefix("#") ? String(line) : try signed(String(line))
    }.joined(separator: "\n")
  }

  /// A signed origin with the AES-128 stream under `/signed/hls/` and, for each of `playlists`
  /// (name and when its URLs expire, as in `playlist(_:origin:expiresIn:)`), a playlist of it
  /// at `/plain/NAME`.
  static func signedStream(playlists: [(name: String, expiresIn: Double)]) async throws -> (
    origin: SignedOrigin, files: HLSFixtureFiles
  ) {
    let origin = try SignedOrigin(files: [:], rate: "100m")
    let files = try await HLSFixture.aes128Rotating.make(
      in: origin.root.url.appending(path: "signed/hls"))
    let plain = origin.root.url.appending(path: "plain")
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
    for (name, seconds) in playlists {
      try playlist(files, origin: origin, expiresIn: seconds)
        .write(to: plain.appending(path: name), atomically: true, encoding: .utf8)
    }
    return (origin, files)
  }

  /// Pins: an AES-128 stream whose signed key and segment URLs had expired was tried again
  /// and again (each expired URL answered 410 eleven times) before the hook was asked. Now
  /// the first 410 asks the hook, the fresh playlist is read, and the stream finishes.
  @Test func aPieceAnswered410AsksTheHookWithoutTryingItAgain() async throws {
    let (origin, files) = try await Self.signedStream(playlists: [
      ("old.m3u8", -10), ("fresh.m3u8", 900),
    ])
    let fixture = try ManagerFixture()
    let asked = Locked<[Int?]>([])
    var configuration = ManagerFixture.configuration()
    configuration.urlRefresh = URLRefresh(timeout: .seconds(5)) { request in
      asked.withLock { $0.append(request.status) }
      return origin.server.url("/plain/fresh.m3u8")
    }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let content = try await manager.content(
      for: OfflineSource(url: origin.server.url("/plain/old.m3u8"), id: "stream"))
    try await content.download(
      DownloadConfiguration(
        stream: StreamConfiguration(pieceRetries: 10, pieceRetryDelay: .milliseconds(10))))
    #expect(try await runUntilIdle(manager, timeout: .seconds(60)))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(
      snapshot.state == .downloaded, "\(snapshot.state) \(snapshot.lastError?.description ?? "")")
    #expect(asked.withLock { $0 } == [410])
    let refused = try origin.server.accessLog().filter { $0.status == 410 }
    #expect(refused.count == 1, "\(refused.map(\.uri))")
    let decoded = try await FFmpeg.decode(snapshot.fileURL.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 1, "\(decoded.duration) s")
  }

  /// Without a hook, the same expired piece keeps today's rule: tried again
  /// (``StreamConfiguration/pieceRetries``), then the content is suspended with the 410.
  /// The waits between tries (20 s, doubling, capped at 20 s) and the manager's own
  /// retries pass on a manual clock: on the system's this test would take minutes.
  @Test func withoutAHookAnExpiredPieceIsTriedAgainAsBefore() async throws {
    let (origin, _) = try await Self.signedStream(playlists: [("old.m3u8", -10)])
    let fixture = try ManagerFixture()
    let clock = ManualClock()
    let manager = try OfflineManager(
      directory: fixture.store, configuration: managerConfiguration(on: clock))
    let content = try await manager.content(
      for: OfflineSource(url: origin.server.url("/plain/old.m3u8"), id: "stream"))
    try await content.download(
      DownloadConfiguration(
        stream: StreamConfiguration(pieceRetries: 2, pieceRetryDelay: .seconds(20))))
    let began = clock.instant
    #expect(try await runUntilIdle(manager, advancing: clock, by: .seconds(1)))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(snapshot.state == .suspended)
    #expect(
      snapshot.lastError?.description.contains("410") == true,
      "\(snapshot.lastError?.description ?? "")")
    let refused = try origin.server.accessLog().filter { $0.status == 410 }
    // One try and two retries per attempt of the content (the manager's own retries
    // start it again).
    #expect(refused.count >= 3 && refused.count % 3 == 0, "\(refused.map(\.uri))")
    // Each attempt waited at least 15 s and 20 s (the delay with its jitter) between its
    // tries, on the manager's clock.
    let waited = began.duration(to: clock.instant)
    #expect(waited >= .seconds(35) * (refused.count / 3), "\(waited)")
  }
}
