import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A download that cannot go on waits, with a reason, and goes on by itself; an origin that
/// is gone is retried with backoff, then the content is suspended with its last error.
///
/// The manager runs on a manual clock that a ``ClockPump`` moves on whenever the runner
/// parks: its polls, the backoff between retries and the time a test lets pass while the
/// network is down are manual time; only the bytes come in real time.
@Suite(.serialized, .timed) struct WaitingTests {
  /// 6 MiB at 2 MiB/s: slow enough to cut after 1 MiB with most of the file to come.
  let size = 6 << 20

  func manager(_ store: URL, attempts: Int, clock: ManualClock) throws -> OfflineManager {
    try OfflineManager(
      directory: store,
      configuration: .init(
        parallelDownloads: 1,
        retry: RetryPolicy(
          maximumAttempts: attempts, initialDelay: .milliseconds(100),
          maximumDelay: .milliseconds(300)),
        pollInterval: .milliseconds(100), clock: clock))
  }

  /// Polls `condition` every 50 ms for at most `seconds`.
  func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try await condition() { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
  }

  @Test(.enabled(if: NetworkNamespace.isSupported))
  func aLinkThatGoesDownMakesTheDownloadWaitForTheNetworkWithoutSpendingRetries() async throws {
    let namespace = try await NetworkNamespace()
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: size, seed: 21)
    try body.write(to: root.file("file.bin"))
    let nginx = try NginxServer(root: root.url, options: .init(limitRate: "2m").inside(namespace))
    try nginx.start()
    let store = try TemporaryDirectory()
    let clock = ManualClock()
    let pump = ClockPump(clock, step: .milliseconds(100))
    defer { pump.stop() }
    let manager = try manager(store.url, attempts: 2, clock: clock)
    let content = try await manager.content(for: OfflineSource(url: nginx.url("/file.bin")))
    try await content.download()
    try await manager.start()

    #expect(try await eventually(20) { try await content.snapshot.bytes > 1 << 20 })
    try await namespace.setLink(up: false)
    #expect(try await eventually(10) { try await content.snapshot.waitReason == .network })
    // Longer than two attempts with 100-300 ms backoff would take: the budget is not spent.
    let down = clock.instant
    #expect(await eventually(10) { clock.instant >= down + .seconds(2) })
    let waiting = try await content.snapshot
    #expect(waiting.state == .downloading)
    #expect(waiting.waitReason == .network)

    try await namespace.setLink(up: true)
    #expect(try await eventually(40) { try await content.state == .downloaded })
    let file = try await content.playbackURL()
    #expect(FileManager.default.contents(atPath: file.path) == body)
    await manager.stop(suspendingRunning: false)
  }

  @Test func aStoppedOriginIsRetriedThenSuspendedAndResumeFinishesLater() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: size, seed: 22)
    try body.write(to: root.file("file.bin"))
    let nginx = try NginxServer(root: root.url, options: .init(limitRate: "2m"))
    try nginx.start()
    let store = try TemporaryDirectory()
    let clock = ManualClock()
    let pump = ClockPump(clock, step: .milliseconds(100))
    defer { pump.stop() }
    let manager = try manager(store.url, attempts: 3, clock: clock)
    let content = try await manager.content(for: OfflineSource(url: nginx.url("/file.bin")))
    // Collected as they come: the pump's fast progress ticks would overflow a stream read
    // only at the end (it keeps its newest 256 events).
    let recorder = EventRecorder(content.events)
    try await content.download()
    try await manager.start()

    #expect(try await eventually(20) { try await content.snapshot.bytes > 1 << 20 })
    nginx.stop(graceful: false)
    #expect(try await eventually(30) { try await content.state == .suspended })
    let suspended = try await content.snapshot
    #expect(suspended.lastError != nil)
    #expect(FileManager.default.fileExists(atPath: suspended.fileURL.path + ".part"))

    try nginx.start()
    try await content.resume()
    #expect(try await eventually(40) { try await content.state == .downloaded })
    let file = try await content.playbackURL()
    #expect(FileManager.default.contents(atPath: file.path) == body)
    await manager.stop(suspendingRunning: false)

    var retries = 0
    var sawError = false
    for event in recorder.events {
      if event.name == "waiting:retry" { retries += 1 }
      if event.name == "error" { sawError = true }
      if case .finished = event { break }
    }
    #expect(retries >= 1, "retried with backoff before suspending")
    #expect(sawError)
    let resumed = try await nginx.accessLog(minimumCount: 2).last
    #expect(resumed?.range != nil, "the resume asked for the rest, not the whole file")
  }
}
