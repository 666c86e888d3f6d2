import Foundation
import OfflineHTTP
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The manager asks ``URLRefresh`` for a fresh URL when a content's URL expires (issue 13,
/// item 4), against nginx's `secure_link`. Before, a signed URL that expired in the middle
/// of a download failed it with 410, and a new URL could only start it over.
@Suite(.serialized, .timed) struct URLRefreshTests {
  static let body = TestData.bytes(count: 6 << 20, seed: 53)
  static let path = "/signed/big.bin"
  /// The size of the files whose bytes fetched twice are bounded by 5 %: 96 MiB, so the
  /// bound (4.8 MiB) is above what a stopped transfer can lose (see its tests).
  static let largeSize = 96 << 20

  enum Hook: String, CaseIterable, Sendable {
    case throwing, notHTTP, hanging
  }

  /// A hook that fails, gives no http(s) URL, or hangs past its timeout: the content is
  /// suspended saying so, its partial data kept (here: nothing yet) and nothing retried.
  /// The timeout (30 s) passes on a manual clock: before, the hanging case waited for a
  /// real one.
  @Test(arguments: Hook.allCases)
  func aHookThatGivesNoURLSuspendsTheContentSayingWhy(hook: Hook) async throws {
    let origin = try SignedOrigin(files: ["big.bin": Self.body])
    let fixture = try ManagerFixture()
    let clock = ManualClock()
    var configuration = managerConfiguration(on: clock)
    // A hook that answers at once gets a timeout the clock pump cannot reach before it
    // runs: with 30 s, a loaded machine let the pump pass them (a millisecond a second)
    // before the throwing hook ran, and the content said the hook took too long.
    let timeout: Duration = hook == .hanging ? .seconds(30) : .seconds(12 * 3600)
    configuration.urlRefresh = URLRefresh(timeout: timeout) { _ in
      switch hook {
      case .throwing: throw CocoaError(.fileReadNoPermission)
      case .notHTTP: return URL(string: "ftp://127.0.0.1/big.bin?token=t0ken-s3cret")!
      case .hanging:
        try await clock.sleep(for: .seconds(3600))
        return URL(string: "http://127.0.0.1:9/never")!
      }
    }
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let content = try await manager.content(
      for: OfflineSource(url: try origin.signedURL(Self.path, expiresIn: -10), id: "big"))
    try await content.download()
    let began = clock.instant
    #expect(try await runUntilIdle(manager, advancing: clock, by: .seconds(1)))
    let snapshot = try await content.snapshot
    await manager.close()
    #expect(snapshot.state == .suspended)
    let why = snapshot.lastError?.description ?? ""
    #expect(why.contains("No fresh URL"), "\(why)")
    switch hook {
    case .throwing: #expect(why.contains("refresh hook failed"), "\(why)")
    case .notHTTP: #expect(why.contains("not an http or https URL"), "\(why)")
    case .hanging:
      #expect(why.contains("took longer than 30"), "\(why)")
      // The hook was given its 30 s of the manager's clock, and not its hour.
      let waited = began.duration(to: clock.instant)
      #expect(waited >= .seconds(30) && waited < .seconds(3600), "\(waited)")
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

/// The expiry an app gives with a source (issue 13, item 4), read on the manager's clock: a
/// manual one here, so an expiry an hour away passes without waiting for it.
@Suite(.serialized, .timed) struct URLExpiryTests {
  /// The origin, the hook's record of what it was asked, and a content whose stale URL
  /// (still valid at the origin) expires, as the app says, an hour from `clock`'s now.
  struct Setup {
    let origin: SignedOrigin
    let fixture: ManagerFixture
    let manager: OfflineManager
    let content: OfflineContent
    let asked = Locked<[URLRefresh.Request]>([])
    let stale: URL
    let fresh: URL
    let body = TestData.bytes(count: 100_000, seed: 61)

    init(clock: ManualClock) async throws {
      origin = try SignedOrigin(files: ["a.bin": body], rate: "100m")
      fixture = try ManagerFixture()
      let fresh = try origin.signedURL("/signed/a.bin", expiresIn: 900)
      self.fresh = fresh
      var configuration = managerConfiguration(on: clock)
      let asked = self.asked
      configuration.urlRefresh = URLRefresh(timeout: .seconds(5)) { request in
        asked.withLock { $0.append(request) }
        return fresh
      }
      manager = try OfflineManager(directory: fixture.store, configuration: configuration)
      stale = try origin.signedURL("/signed/a.bin", expiresIn: 600)
      content = try await manager.content(
        for: OfflineSource(url: stale, id: "a", urlExpiresAt: clock.now.addingTimeInterval(3600)))
    }
  }

  /// Pins: an expiry the app knew could not be given, so the URL was tried (and refused)
  /// first. Once it has passed, the hook is asked before any request.
  @Test func aURLWhoseExpiryPassedIsRefreshedBeforeAnyRequest() async throws {
    let clock = ManualClock()
    let setup = try await Setup(clock: clock)
    clock.advance(by: .seconds(3600))
    try await setup.content.download()
    #expect(try await runUntilIdle(setup.manager, advancing: clock, by: .milliseconds(50)))
    let snapshot = try await setup.content.snapshot
    await setup.manager.close()
    #expect(snapshot.state == .downloaded, "\(snapshot.lastError?.description ?? "")")
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == setup.body)
    #expect(setup.asked.withLock { $0.map(\.status) } == [nil])
    let log = try setup.origin.server.accessLog()
    #expect(!log.contains { $0.uri.contains(setup.stale.query ?? "-") }, "the stale URL was tried")
    #expect(log.contains { $0.uri.contains(setup.fresh.query ?? "-") && $0.status == 200 })
  }

  /// The other side of the same rule: a minute before its expiry, the URL is used as it is
  /// and the hook is not asked.
  @Test func aURLBeforeItsExpiryIsUsedWithoutAskingTheHook() async throws {
    let clock = ManualClock()
    let setup = try await Setup(clock: clock)
    clock.advance(by: .seconds(3540))
    try await setup.content.download()
    #expect(try await runUntilIdle(setup.manager, advancing: clock, by: .milliseconds(50)))
    let snapshot = try await setup.content.snapshot
    await setup.manager.close()
    #expect(snapshot.state == .downloaded, "\(snapshot.lastError?.description ?? "")")
    #expect(setup.asked.withLock { $0.isEmpty })
    let log = try setup.origin.server.accessLog()
    #expect(log.contains { $0.uri.contains(setup.stale.query ?? "-") && $0.status == 200 })
    #expect(!log.contains { $0.uri.contains(setup.fresh.query ?? "-") })
  }
}
