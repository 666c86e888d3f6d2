import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import Testing

@testable import OfflineKit

/// The manager asks ``URLRefresh`` for a fresh URL when a content's URL expires (issue 13,
/// item 4), against nginx's `secure_link`. Before, a signed URL that expired in the middle
/// of a download failed it with 410, and a new URL could only start it over.
@Suite(.serialized) struct URLRefreshTests {
  static let body = TestData.bytes(count: 6 << 20, seed: 53)
  static let path = "/signed/big.bin"
  /// The size of the files whose bytes fetched twice are bounded by 5 %: 96 MiB, so the
  /// bound (4.8 MiB) is above what a stopped transfer can lose (see its tests).
  static let largeSize = 96 << 20

  static func manager(_ fixture: ManagerFixture, refresh: URLRefresh) throws -> OfflineManager {
    var configuration = ManagerFixture.configuration()
    configuration.urlRefresh = refresh
    return try OfflineManager(directory: fixture.store, configuration: configuration)
  }

  /// Suspends `content`, waits `seconds` so that its URL expires meanwhile, resumes it and
  /// waits (at most `timeout`) until it is downloaded: whether it got there, and its snapshot.
  static func resumeAfterExpiry(
    _ content: OfflineContent, waiting seconds: TimeInterval, timeout: Duration
  ) async throws -> (done: Bool, snapshot: OfflineContent.Snapshot) {
    try await content.suspend()
    let expiry = Date().addingTimeInterval(seconds)
    while Date() < expiry { try await Task.sleep(for: .milliseconds(100)) }
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
    let body = TestData.bytes(count: Self.largeSize, seed: 54)
    let origin = try SignedOrigin(files: ["big.bin": body], rate: "16m")
    let fixture = try ManagerFixture()
    let asked = Locked<[URLRefresh.Request]>([])
    let manager = try Self.manager(
      fixture,
      refresh: URLRefresh(timeout: .seconds(5)) { request in
        asked.withLock { $0.append(request) }
        return try origin.signedURL(Self.path, expiresIn: 600)
      })
    let expiring = try origin.signedURL(Self.path, expiresIn: 2)
    let content = try await manager.content(for: OfflineSource(url: expiring, id: "big"))
    try await content.download(DownloadConfiguration(connections: .single))
    try await manager.start()
    #expect(try await eventually { try await content.snapshot.bytes > 400_000 })
    let (done, snapshot) = try await Self.resumeAfterExpiry(
      content, waiting: 3, timeout: .seconds(30))
    #expect(done, "\(snapshot.state) \(snapshot.lastError ?? "")")
    await manager.close()
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == body)
    #expect(asked.withLock { $0.map(\.status) } == [410])
    #expect(asked.withLock { $0.first?.url } == expiring)
    let log = try origin.server.accessLog()
    #expect(log.contains { $0.status == 410 })
    #expect(log.contains { $0.status == 206 && $0.range != nil && $0.ifRange != nil })
    let twice = try origin.bytesSent(for: Self.path) - Int64(body.count)
    #expect(twice < Int64(body.count) / 20, "\(twice) bytes fetched twice")
  }

  enum Hook: String, CaseIterable, Sendable {
    case throwing, notHTTP, hanging
  }

  /// A hook that fails, gives no http(s) URL, or hangs past its timeout: the content is
  /// suspended saying so, its partial data kept (here: nothing yet) and nothing retried.
  @Test(arguments: Hook.allCases)
  func aHookThatGivesNoURLSuspendsTheContentSayingWhy(hook: Hook) async throws {
    let origin = try SignedOrigin(files: ["big.bin": Self.body])
    let fixture = try ManagerFixture()
    let manager = try Self.manager(
      fixture,
      refresh: URLRefresh(timeout: .milliseconds(300)) { _ in
        switch hook {
        case .throwing: throw CocoaError(.fileReadNoPermission)
        case .notHTTP: return URL(string: "ftp://127.0.0.1/big.bin?token=t0ken-s3cret")!
        case .hanging:
          try await Task.sleep(for: .seconds(30))
          return URL(string: "http://127.0.0.1:9/never")!
        }
      })
    let content = try await manager.content(
      for: OfflineSource(url: try origin.signedURL(Self.path, expiresIn: -10), id: "big"))
    try await content.download()
    #expect(try await runUntilIdle(manager))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(snapshot.state == .suspended)
    let why = snapshot.lastError ?? ""
    #expect(why.contains("No fresh URL"), "\(why)")
    switch hook {
    case .throwing: #expect(why.contains("refresh hook failed"), "\(why)")
    case .notHTTP: #expect(why.contains("not an http or https URL"), "\(why)")
    case .hanging: #expect(why.contains("took longer"), "\(why)")
    }
    #expect(!why.contains("s3cret"))
    #expect(try origin.server.accessLog().filter { $0.status == 410 }.count == 1)
  }

  /// `setURL` on a content that runs here: it stops and goes on from the new URL at once,
  /// resuming with `If-Range`; bad calls are refused and change nothing.
  @Test func setURLGoesOnFromTheNewURLAndRefusesBadCalls() async throws {
    // 96 MiB at 16 MiB/s over one connection, as the hook test: 5 % of 6 MiB (314 KB) was
    // less than a stop for the new URL can lose (the writer's queue, the socket buffers).
    let body = TestData.bytes(count: Self.largeSize, seed: 55)
    let origin = try SignedOrigin(files: ["big.bin": body], rate: "16m")
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: try origin.signedURL(Self.path, expiresIn: 600), id: "big"))
    do {
      try await fixture.manager.setURL(URL(string: "ftp://127.0.0.1/x")!, for: "big")
      Issue.record("an ftp URL was taken")
    } catch {
      guard case .invalidURL = error.kind else { throw error }
    }
    do {
      try await fixture.manager.setURL(URL(string: "http://127.0.0.1/x")!, for: "nope")
      Issue.record("an unknown id was taken")
    } catch {
      guard case .unknownContent = error.kind else { throw error }
    }
    try await content.download(DownloadConfiguration(connections: .single))
    try await fixture.manager.start()
    #expect(try await eventually { try await content.snapshot.bytes > 400_000 })
    let fresh = try origin.signedURL(Self.path, expiresIn: 900)
    try await fixture.manager.setURL(fresh, for: "big")
    let done = try await eventually(timeout: .seconds(30)) {
      try await content.snapshot.state == .downloaded
    }
    #expect(done)
    let snapshot = try await content.snapshot
    #expect(snapshot.url == fresh)
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == body)
    do {
      try await fixture.manager.setURL(fresh, for: "big")
      Issue.record("a downloaded content's URL was replaced")
    } catch {
      guard case .urlNotReplaceable(.downloaded) = error.kind else { throw error }
    }
    await fixture.manager.close()
    let log = try origin.server.accessLog()
    #expect(log.contains { $0.uri.contains(fresh.query ?? "-") && $0.status == 206 })
    let twice = try origin.bytesSent(for: Self.path) - Int64(body.count)
    #expect(twice < Int64(body.count) / 20, "\(twice) bytes fetched twice")
  }
}

/// A stream whose token (in its path, so every playlist, segment and key URL carries it)
/// expires in the middle of the download (issue 13, item 4).
@Suite(.serialized) struct StreamURLRefreshTests {
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
    configuration.urlRefresh = URLRefresh(timeout: .seconds(5)) { _ in
      try origin.pathSignedURL("/hls\(files.entryPath)", expiresIn: 600)
    }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let content = try await manager.content(
      for: OfflineSource(
        url: try origin.pathSignedURL("/hls\(files.entryPath)", expiresIn: 3), id: "stream"))
    try await content.download(
      DownloadConfiguration(stream: StreamConfiguration(parallelSegments: 1, pieceRetries: 0)))
    try await manager.start()
    #expect(
      try await eventually { try await content.snapshot.bytes > streamBytes / 4 },
      "\(streamBytes) bytes in the stream")
    let (done, snapshot) = try await URLRefreshTests.resumeAfterExpiry(
      content, waiting: 4, timeout: .seconds(60))
    await manager.close()
    #expect(done, "\(snapshot.state) \(snapshot.lastError ?? "")")
    let log = try origin.server.accessLog()
    #expect(
      log.contains { $0.status == 410 },
      "\(log.map { "\($0.status) \($0.uri.split(separator: "/").suffix(2).joined(separator: "/"))" })"
    )
    let sent = log.filter { $0.uri.hasSuffix(".ts") }.map(\.bodyBytesSent).reduce(0, +)
    #expect(sent - streamBytes < streamBytes / 20, "\(sent - streamBytes) bytes fetched twice")
    let decoded = try await FFmpeg.decode(snapshot.fileURL.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 1, "\(decoded.duration) s")
  }
}

/// The expiry an app gives with a source (issue 13, item 4).
@Suite(.serialized) struct URLExpiryTests {
  /// Pins: an expiry the app knew could not be given, so the URL was tried (and refused)
  /// first. Once it has passed, the hook is asked before any request.
  @Test func aURLWhoseExpiryPassedIsRefreshedBeforeAnyRequest() async throws {
    let body = TestData.bytes(count: 100_000, seed: 61)
    let origin = try SignedOrigin(files: ["a.bin": body], rate: "100m")
    let fixture = try ManagerFixture()
    let asked = Locked<[URLRefresh.Request]>([])
    let fresh = try origin.signedURL("/signed/a.bin", expiresIn: 900)
    var configuration = ManagerFixture.configuration()
    configuration.urlRefresh = URLRefresh(timeout: .seconds(5)) { request in
      asked.withLock { $0.append(request) }
      return fresh
    }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let stale = try origin.signedURL("/signed/a.bin", expiresIn: 600)
    let content = try await manager.content(
      for: OfflineSource(url: stale, id: "a", urlExpiresAt: Date().addingTimeInterval(-1)))
    try await content.download()
    #expect(try await runUntilIdle(manager))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(snapshot.state == .downloaded, "\(snapshot.lastError ?? "")")
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == body)
    #expect(asked.withLock { $0.map(\.status) } == [nil])
    let log = try origin.server.accessLog()
    #expect(!log.contains { $0.uri.contains(stale.query ?? "-") }, "the stale URL was tried")
    #expect(log.contains { $0.uri.contains(fresh.query ?? "-") && $0.status == 200 })
  }
}
