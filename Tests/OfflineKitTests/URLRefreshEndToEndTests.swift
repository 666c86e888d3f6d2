import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A signed URL that really expires at nginx's `secure_link` in the middle of a download:
/// the whole path, end to end, on the system clock. These are the only URL-refresh tests
/// that wait for real time (an expiry nginx checks against its own clock); the decisions
/// (an app-given expiry, the hook's timeout, a piece's retries) are tested on a manual
/// clock (``URLExpiryTests``, ``URLRefreshTests``, ``StreamURLRefreshRuleTests``).
@Suite(.serialized, .timed) struct URLRefreshEndToEndTests {
  static func manager(_ fixture: ManagerFixture, refresh: URLRefresh) throws -> OfflineManager {
    var configuration = ManagerFixture.configuration()
    configuration.urlRefresh = refresh
    return try OfflineManager(directory: fixture.store, configuration: configuration)
  }

  /// The second `url` (signed by ``SignedOrigin`` in its query) expires at.
  static func expiry(of url: URL) -> Int? {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
    return query?.first { $0.name == "expires" }?.value.flatMap { Int($0) }
  }

  /// Suspends `content`, waits until nginx refuses `url` as expired (the second after the
  /// one it expires at: nginx compares whole seconds), resumes it and waits (at most
  /// `timeout`) until it is downloaded: whether it got there, and its snapshot.
  static func resumeAfterExpiry(
    _ content: OfflineContent, of url: URL, timeout: Duration
  ) async throws -> (done: Bool, snapshot: OfflineContent.Snapshot) {
    try await content.suspend()
    let expires = try #require(expiry(of: url))
    // nginx's clock, not ours: this wait is what the end-to-end test is about.
    while Date().timeIntervalSince1970 < Double(expires + 1) {
      try await Task.sleep(for: .milliseconds(100))
    }
    try await content.resume()
    let done = try await eventually(timeout: timeout) {
      try await content.snapshot.state == .downloaded
    }
    return (done, try await content.snapshot)
  }

  /// Pins: a URL that expired while the download was under way (paused, then resumed: the
  /// resume's request hit the expiry) failed with 410; the hook's fresh URL now goes on
  /// from the bytes on disk, fetching less than 5 % twice.
  @Test func aURLThatExpiresMidDownloadIsRefreshedByTheHookAndKeepsItsBytes() async throws {
    // 96 MiB (over one connection, at 16 MiB/s): 5 % of it stays above what a pause can
    // lose on a loaded machine, the transport's queue for a lagging writer (2 MiB, dropped
    // at a stop) and the socket buffers. 6 MiB once lost 524 KB, 24 MiB 2 MiB.
    let body = TestData.bytes(count: URLRefreshTests.largeSize, seed: 54)
    let origin = try SignedOrigin(files: ["big.bin": body], rate: "16m")
    let fixture = try ManagerFixture()
    let asked = Locked<[URLRefresh.Request]>([])
    let manager = try Self.manager(
      fixture,
      refresh: URLRefresh(timeout: .seconds(5)) { request in
        asked.withLock { $0.append(request) }
        return try origin.signedURL(URLRefreshTests.path, expiresIn: 600, fullSpeed: true)
      })
    let expiring = try origin.signedURL(URLRefreshTests.path, expiresIn: 2)
    let content = try await manager.content(for: OfflineSource(url: expiring, id: "big"))
    try await content.download(DownloadConfiguration(connections: .single))
    try await manager.start()
    #expect(try await eventually { try await content.snapshot.bytes > 400_000 })
    let (done, snapshot) = try await Self.resumeAfterExpiry(
      content, of: expiring, timeout: .seconds(30))
    #expect(done, "\(snapshot.state) \(snapshot.lastError?.description ?? "")")
    await manager.close()
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == body)
    #expect(asked.withLock { $0.map(\.status) } == [410])
    #expect(asked.withLock { $0.first?.url } == expiring)
    let log = try origin.server.accessLog()
    #expect(log.contains { $0.status == 410 })
    #expect(log.contains { $0.status == 206 && $0.range != nil && $0.ifRange != nil })
    let twice = try origin.bytesSent(for: URLRefreshTests.path) - Int64(body.count)
    #expect(twice < Int64(body.count) / 20, "\(twice) bytes fetched twice")
  }
}

/// A stream whose token (in its path, so every playlist, segment and key URL carries it)
/// expires in the middle of the download (issue 13, item 4).
@Suite(.serialized, .timed) struct StreamURLRefreshEndToEndTests {
  /// Pins: a refreshed stream URL changed every piece's URL, so every piece on disk was
  /// fetched again. The new playlist is read and the pieces on disk are matched by their
  /// position and file name: nothing already there is fetched twice (under 5 % of bytes).
  @Test func aStreamWhoseTokenExpiresMidwayGoesOnWithoutFetchingItsPiecesAgain() async throws {
    let origin = try SignedOrigin(files: [:], rate: "16k")
    let files = try await HLSFixture.aes128Rotating.make(
      in: origin.root.url.appending(path: "hls"), duration: 12)
    let segments = try FileManager.default.contentsOfDirectory(atPath: files.folder.path)
      .filter { $0.hasSuffix(".ts") }
    let streamBytes = try segments.reduce(Int64(0)) { sum, name in
      let size =
        try FileManager.default.attributesOfItem(
          atPath: files.folder.appending(path: name).path)[.size] as? Int ?? 0
      return sum + Int64(size)
    }
    let fixture = try ManagerFixture()
    var configuration = ManagerFixture.configuration()
    let asked = Locked<[Int?]>([])
    configuration.urlRefresh = URLRefresh(timeout: .seconds(5)) { request in
      asked.withLock { $0.append(request.status) }
      return try origin.pathSignedURL("/hls\(files.entryPath)", expiresIn: 600, fullSpeed: true)
    }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    // One segment at a time, each about a second at 16 KB/s: the token expires (after 3 to
    // 4 s) with most of the stream to go, and the next segment's request is refused. No
    // pause is needed: unlike one file's response, every piece is a request of its own.
    let expiring = try origin.pathSignedURL("/hls\(files.entryPath)", expiresIn: 3)
    let content = try await manager.content(
      for: OfflineSource(url: expiring, id: "stream"))
    try await content.download(
      DownloadConfiguration(stream: StreamConfiguration(parallelSegments: 1, pieceRetries: 0)))
    try await manager.start()
    let done = try await eventually(timeout: .seconds(60)) {
      try await content.snapshot.state == .downloaded
    }
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(done, "\(snapshot.state) \(snapshot.lastError?.description ?? "")")
    #expect(asked.withLock { $0 } == [410])
    let log = try origin.server.accessLog()
    #expect(
      log.contains { $0.status == 410 },
      "\(log.map { "\($0.status) \($0.uri.split(separator: "/").suffix(2).joined(separator: "/"))" })"
    )
    let media = log.filter { $0.uri.hasSuffix(".ts") }
    #expect(media.contains { $0.uri.hasPrefix("/t/") && $0.status == 200 }, "none before")
    #expect(media.contains { $0.uri.hasPrefix("/fast/") && $0.status == 200 }, "none after")
    let sent = media.map(\.bodyBytesSent).reduce(0, +)
    #expect(sent - streamBytes < streamBytes / 20, "\(sent - streamBytes) bytes fetched twice")
    let decoded = try await FFmpeg.decode(snapshot.fileURL.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 1, "\(decoded.duration) s")
  }
}
